#!/usr/bin/env bash
# The GitHub Action's step (action.yml): fetches the release archive, checks the given configs, writes the findings
# as SARIF for code scanning and reports check's exit status as the step's outputs (sarif, status), so that the
# upload runs before the job fails on errors.
#
# Inputs (environment):
#   OUTLIER_LAB_FILES    the files or folders to check, separated by spaces or new lines (required)
#   OUTLIER_LAB_ARGS     more options for check, e.g. "--rps 600 --fail-on warning"
#   OUTLIER_LAB_VERSION  the release to download (default: 0.1.0)
#   OUTLIER_LAB_ARCHIVE  a local outlier-lab-VERSION-linux-x64.tar.gz instead of a download (tests, offline runners)
#   OUTLIER_LAB_SARIF    where to write the SARIF file (default: outlier-lab.sarif)
#   OUTLIER_LAB_RELEASES where releases are downloaded from
#                        (default: https://github.com/outlier-lab/outlier-lab/releases/download)
# Exit status: 0 when check ran (its own status is the output `status`: 0 clean, 1 errors found), 2 when a file
# cannot be read or an input is wrong, as check itself.
set -euo pipefail
files="${OUTLIER_LAB_FILES:?OUTLIER_LAB_FILES (the action input files) names the configs to check}"
version="${OUTLIER_LAB_VERSION:-0.1.0}"
sarif="${OUTLIER_LAB_SARIF:-outlier-lab.sarif}"
releases="${OUTLIER_LAB_RELEASES:-https://github.com/outlier-lab/outlier-lab/releases/download}"
work="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/outlier-lab-action"
rm -rf "$work" && mkdir -p "$work"

archive="${OUTLIER_LAB_ARCHIVE:-}"
if [ -z "$archive" ]; then
  name="outlier-lab-$version-linux-x64.tar.gz"
  echo "outlier-lab: downloading $name"
  curl -fsSL --retry 3 -o "$work/$name" "$releases/v$version/$name"
  curl -fsSL --retry 3 -o "$work/SHA256SUMS" "$releases/v$version/SHA256SUMS"
  (cd "$work" && grep " $name\$" SHA256SUMS | sha256sum --check --strict)
  archive="$work/$name"
fi
[ -f "$archive" ] || { echo "outlier-lab: no archive at $archive" >&2; exit 2; }
tar -xzf "$archive" -C "$work"
outlier_lab="$(echo "$work"/outlier-lab-*/bin/outlier-lab)"
[ -x "$outlier_lab" ] || { echo "outlier-lab: $archive holds no bin/outlier-lab" >&2; exit 2; }
"$outlier_lab" --version | head -1

read -r -a paths <<<"$(printf '%s' "$files" | tr '\n' ' ')"
read -r -a extra <<<"${OUTLIER_LAB_ARGS:-}"

# The findings in the log, then as SARIF; check's status decides the job (the action's last step).
status=0
"$outlier_lab" check "${paths[@]}" "${extra[@]}" || status=$?
if [ "$status" -gt 1 ]; then
  exit "$status"
fi
"$outlier_lab" check "${paths[@]}" "${extra[@]}" --format sarif >"$sarif" || [ $? -le 1 ]
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  { echo "sarif=$sarif"; echo "status=$status"; } >>"$GITHUB_OUTPUT"
fi
echo "outlier-lab: check exited $status; SARIF in $sarif"
