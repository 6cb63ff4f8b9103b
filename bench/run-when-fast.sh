#!/usr/bin/env bash
# Runs a command when this machine is at its normal speed, and says how fast it was before and after.
#
# The README's benchmark machine is a virtual machine whose host is shared: a fixed loop (ReferenceLoop) takes
# 27 to 32 ns an iteration at its normal speed and 45 to 70 ns in slow stretches that last from seconds to
# minutes, each core on its own, and every benchmark slows down with it. This script times the loop every 15 s
# on each core of CORES at once (default 1: the core the single-threaded benchmarks are pinned to; "0 1" for a
# benchmark that uses both) until the slowest runs at most LIMIT_NS (default 32) twice in a row, runs the
# command, then times the loop again, and prints
# every reading with its time, so that a figure is reported with the machine's speed while it was taken (a run
# whose after-reading is slow met a slow stretch: report it as such, or run again). It gives up after
# TRIES readings (default 40, about 10 minutes) and exits 1.
#
#   bench/run-when-fast.sh taskset -c 1 java -jar bench/target/benchmarks.jar GatewayBenchmark -f 3
#   CORES="0 1" bench/run-when-fast.sh java -jar bench/target/benchmarks.jar LiveBenchmark.liveRecordAt -t 2
#
# Environment: JAVA (default java), LIMIT_NS, TRIES, CORES. Needs bench/target/benchmarks.jar (built by `mvn verify`
# or `mvn -B -o -pl bench -am package -DskipTests`).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
java="${JAVA:-java}"
limit="${LIMIT_NS:-32}"
tries="${TRIES:-40}"
cores="${CORES:-1}"
jar="$root/bench/target/benchmarks.jar"
if [[ $# -eq 0 ]]; then
  echo "usage: bench/run-when-fast.sh COMMAND [ARGS...]" >&2
  exit 2
fi
if [[ ! -f "$jar" ]]; then
  echo "run-when-fast: $jar is missing; build it with: mvn -B -o -pl bench -am package -DskipTests" >&2
  exit 2
fi

# The loop on each core of CORES at once; prints the slowest reading (each core's speed varies on its own).
reference() {
  local dir core slowest=0 ns readings=""
  dir="$(mktemp -d)"
  for core in $cores; do
    taskset -c "$core" "$java" -cp "$jar" dev.outlierlab.bench.ReferenceLoop > "$dir/$core" &
  done
  wait
  for core in $cores; do
    ns="$(awk '{print $3}' "$dir/$core")"
    readings="$readings core $core: $ns"
    slowest="$(awk -v a="$slowest" -v b="$ns" 'BEGIN { print (b > a ? b : a) }')"
  done
  rm -rf "$dir"
  echo "$(date -u +%H:%M:%S) reference loop, ns per iteration:$readings" >&2
  echo "$slowest"
}

fast_in_a_row=0
for ((i = 1; i <= tries; i++)); do
  ns="$(reference)"
  if awk -v n="$ns" -v l="$limit" 'BEGIN { exit !(n <= l) }'; then
    fast_in_a_row=$((fast_in_a_row + 1))
    if [[ $fast_in_a_row -ge 2 ]]; then
      echo "$(date -u +%H:%M:%S) running: $*" >&2
      status=0
      "$@" || status=$?
      reference > /dev/null
      exit $status
    fi
    continue
  fi
  fast_in_a_row=0
  sleep 15
done
echo "run-when-fast: the reference loop was not at most $limit ns on cores $cores twice in a row in $tries readings" >&2
exit 1
