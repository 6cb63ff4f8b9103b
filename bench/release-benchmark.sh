#!/usr/bin/env bash
# The release archive's `outlier-lab run` against the fat jar's (`java -jar`), start to finish, side by side in one
# run on the same machine (interleaved, so that the load of the moment falls on both), and the sizes on disk.
# Prints a markdown table: the median wall and CPU (user + sys) seconds of each, their ratio, and the sizes.
#
#   bench/release-benchmark.sh [DIST] [RUNS]    # DIST: the folder of release files (default dist/), RUNS: 11
#
# Make DIST first: mvn -B -Prelease package -DskipTests (or release/make-release.sh). JAVA (default java) runs
# the fat jar. Both run the built-in scenario (`run`, output to /dev/null); the archive's first run, which makes
# its class-data archive, is not counted, and neither is a first run of the jar.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dist="$(cd "${1:-$root/dist}" && pwd)"
runs="${2:-11}"
java="${JAVA:-java}"
archive="$(echo "$dist"/outlier-lab-*-linux-x64.tar.gz)"
jar="$(ls "$dist"/outlier-lab-*.jar | head -1)"
[ -f "$archive" ] && [ -f "$jar" ] || { echo "release-benchmark.sh: no release files in $dist" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tar -xzf "$archive" -C "$work"
launcher="$(echo "$work"/outlier-lab-*/bin/outlier-lab)"
"$launcher" --version >/dev/null 2>&1          # makes the archive's class-data archive of the jar
"$java" -jar "$jar" --version >/dev/null

# one run: "wall cpu" in seconds
measure() { /usr/bin/time -f "%e %U %S" "$@" >/dev/null 2>"$work/time" </dev/null; tail -1 "$work/time" \
  | awk '{printf "%.3f %.3f\n", $1, $2 + $3}'; }
: >"$work/archive.txt"; : >"$work/jar.txt"
for ((i = 0; i < runs; i++)); do
  measure "$launcher" run >>"$work/archive.txt"
  measure "$java" -jar "$jar" run >>"$work/jar.txt"
done
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
aw="$(cut -d' ' -f1 "$work/archive.txt" | median)"; ac="$(cut -d' ' -f2 "$work/archive.txt" | median)"
jw="$(cut -d' ' -f1 "$work/jar.txt" | median)"; jc="$(cut -d' ' -f2 "$work/jar.txt" | median)"
size() { du -sh --apparent-size "$1" | cut -f1; }
home="$(dirname "$(dirname "$launcher")")"
echo "| \`outlier-lab run\`, $runs runs each, interleaved | wall s (median) | CPU s (median) | on disk |"
echo "|---|---|---|---|"
echo "| the archive's \`bin/outlier-lab run\` | $aw | $ac | $(size "$home") unpacked ($(size "$home/runtime") of it the runtime), $(size "$archive") packed |"
echo "| \`$java -jar outlier-lab.jar run\` ($("$java" -version 2>&1 | head -1 | cut -d'"' -f2)) | $jw | $jc | $(size "$jar") (and a Java installation) |"
echo "| ratio archive / jar | $(awk -v a="$aw" -v b="$jw" 'BEGIN {printf "%.2f", a / b}') | $(awk -v a="$ac" -v b="$jc" 'BEGIN {printf "%.2f", a / b}') | |"
deb="$(ls "$dist"/*.deb 2>/dev/null | head -1 || true)"
if [ -n "$deb" ]; then
  echo
  echo "The .deb: $(size "$deb"), $(dpkg-deb -f "$deb" Installed-Size) KiB installed. Load average: $(cut -d' ' -f1-3 /proc/loadavg)."
fi
