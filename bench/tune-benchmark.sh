#!/usr/bin/env bash
# Side-by-side CPU time of `tune` in two builds on the same command, in one run, alternately, so that both see the
# same machine: the previous build's jar (`java -jar`, as its launcher ran it: that launcher added nothing for tune
# but a class-data archive, about half a second), this build as users run it (the `./outlier-lab` launcher of this
# checkout, with its JVM options and tune's class-data archive; the release archive's bin/outlier-lab passes the same) and
# this build's jar with a plain `java -jar` (what the launcher's options are worth). Prints each run's user + system
# CPU seconds, the load average, and the ratios.
#   bench/tune-benchmark.sh OLD.jar [-- tune arguments]
# The arguments default to --hosts 8 --rps 2000. Every run gets --yes (the previous build may ask before a long
# search) and --format json; the JSON is kept in bench/target/tune-bench/ and the two builds' answers compared.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
old="$(readlink -f "${1:?usage: bench/tune-benchmark.sh OLD.jar [-- tune arguments]}")"
shift
if [[ $# -gt 0 && $1 == -- ]]; then shift; fi
args=("$@")
if [[ ${#args[@]} -eq 0 ]]; then args=(--hosts 8 --rps 2000); fi
cd "$root"
out=bench/target/tune-bench
mkdir -p "$out"
# builds the jar if the sources are newer and makes the launcher's class-data archives (tune's is made on its first
# use), outside the measurement
./outlier-lab --version >/dev/null
./outlier-lab tune --help >/dev/null
cpu() { # label command... -> CPU seconds
    local label="$1"
    shift
    /usr/bin/time -f '%U %S' -o "$out/$label.time" "$@" tune "${args[@]}" --yes --format json \
        >"$out/$label.json" 2>"$out/$label.err"
    awk '{printf "%.2f", $1 + $2}' "$out/$label.time"
}
load() { cut -d' ' -f1-3 /proc/loadavg; }
l1=$(load)
o1=$(cpu old-1 java -jar "$old"); n1=$(cpu launcher-1 ./outlier-lab); j1=$(cpu jar-1 java -jar cli/target/outlier-lab.jar)
j2=$(cpu jar-2 java -jar cli/target/outlier-lab.jar); n2=$(cpu launcher-2 ./outlier-lab); o2=$(cpu old-2 java -jar "$old")
l2=$(load)
echo "tune ${args[*]} ($(date -u '+%Y-%m-%d %H:%M UTC'), load average $l1 before, $l2 after):"
echo "  previous build (java -jar $(basename "$old")): CPU s $o1 $o2"
echo "  this build, ./outlier-lab launcher:            CPU s $n1 $n2"
echo "  this build, java -jar:                          CPU s $j1 $j2"
awk -v o1="$o1" -v o2="$o2" -v n1="$n1" -v n2="$n2" -v j1="$j1" -v j2="$j2" 'BEGIN {
    printf "ratio previous / launcher: %.2fx; previous / java -jar: %.2fx\n", (o1 + o2) / (n1 + n2), (o1 + o2) / (j1 + j2) }'
runs() { sed -n 's/.*"runs" : \([0-9]*\).*/\1/p' "$1" | tail -1; }
echo "runs: previous $(runs "$out/old-1.json"), this build $(runs "$out/launcher-1.json")"
if cmp -s "$out/launcher-1.json" "$out/jar-1.json"; then
    echo "the launcher's and java -jar's JSON are the same"
else
    echo "the launcher's and java -jar's JSON DIFFER" >&2
fi
