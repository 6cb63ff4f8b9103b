#!/usr/bin/env bash
# Side-by-side CPU time of `tune` in two builds on the same command, in one run: the previous build's jar and this
# build's, alternately, so that both see the same machine. Prints each run's user+system CPU seconds and the ratio.
#   bench/tune-benchmark.sh OLD.jar [NEW.jar] [-- tune arguments]
# Defaults: NEW.jar is cli/target/outlier-lab.jar; the arguments are --hosts 8 --rps 2000.
# Both are given --yes (the previous build may ask before a long search) and --format json; the JSON is kept in
# bench/target/tune-bench/ so that the two answers can be compared.
set -euo pipefail
old=${1:?usage: bench/tune-benchmark.sh OLD.jar [NEW.jar] [-- tune arguments]}
shift
new=cli/target/outlier-lab.jar
if [[ $# -gt 0 && $1 != -- ]]; then new=$1; shift; fi
if [[ $# -gt 0 && $1 == -- ]]; then shift; fi
args=("$@")
if [[ ${#args[@]} -eq 0 ]]; then args=(--hosts 8 --rps 2000); fi
out=bench/target/tune-bench
mkdir -p "$out"
cpu() { # jar label -> CPU seconds
    /usr/bin/time -f '%U %S' -o "$out/$2.time" java -jar "$1" tune "${args[@]}" --yes --format json >"$out/$2.json" 2>"$out/$2.err"
    awk '{printf "%.2f", $1 + $2}' "$out/$2.time"
}
o1=$(cpu "$old" old-1); n1=$(cpu "$new" new-1)
n2=$(cpu "$new" new-2); o2=$(cpu "$old" old-2)
echo "tune ${args[*]}: previous build CPU s $o1 $o2, this build CPU s $n1 $n2"
awk -v o1="$o1" -v o2="$o2" -v n1="$n1" -v n2="$n2" 'BEGIN { printf "ratio (previous / this): %.2fx\n", (o1 + o2) / (n1 + n2) }'
