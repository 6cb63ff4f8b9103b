#!/usr/bin/env bash
# Runs a command when this machine is at its normal speed, and says how fast it was before and after.
#
# The README's benchmark machine is a virtual machine whose host is shared: a fixed loop (ReferenceLoop) takes
# 28 to 32 ns an iteration at its normal speed and 50 to 67 ns in slow stretches that last from seconds to
# minutes, and every benchmark slows down with it. This script times the loop every 15 s (on core 1) until it
# runs at most LIMIT_NS (default 32) twice in a row, runs the command, then times the loop again, and prints
# every reading with its time, so that a figure is reported with the machine's speed while it was taken (a run
# whose after-reading is slow met a slow stretch: report it as such, or run again). It gives up after
# TRIES readings (default 40, about 10 minutes) and exits 1.
#
#   bench/run-when-fast.sh java -jar bench/target/benchmarks.jar GatewayBenchmark -f 3
#
# Environment: JAVA (default java), LIMIT_NS, TRIES. Needs bench/target/benchmarks.jar (built by `mvn verify`
# or `mvn -B -o -pl bench -am package -DskipTests`).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
java="${JAVA:-java}"
limit="${LIMIT_NS:-32}"
tries="${TRIES:-40}"
jar="$root/bench/target/benchmarks.jar"
if [[ $# -eq 0 ]]; then
  echo "usage: bench/run-when-fast.sh COMMAND [ARGS...]" >&2
  exit 2
fi
if [[ ! -f "$jar" ]]; then
  echo "run-when-fast: $jar is missing; build it with: mvn -B -o -pl bench -am package -DskipTests" >&2
  exit 2
fi

reference() {
  local ns
  ns="$(taskset -c 1 "$java" -cp "$jar" dev.outlierlab.bench.ReferenceLoop | awk '{print $3}')"
  echo "$(date -u +%H:%M:%S) reference loop: $ns ns per iteration" >&2
  echo "$ns"
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
echo "run-when-fast: the reference loop was not at most $limit ns twice in a row in $tries readings" >&2
exit 1
