#!/usr/bin/env bash
# Builds the benchmarks and runs LiveBenchmark (the live pool's record and filter paths against
# Resilience4j's CircuitBreaker and grpc-java's outlier-detection call tracking) with 1, 2 and 4 threads,
# one fork each, with JMH's GC profiler; prints one markdown table (ns/op per thread, bytes/op), headed by
# the machine, the JVM and the load average at the start. About 4 minutes.
#
#   bench/run-live-benchmarks.sh             # build, then run
#   bench/run-live-benchmarks.sh --no-build  # reuse bench/target/benchmarks.jar
#
# Environment: JAVA (default java), MVN_ARGS (default -o, Maven offline). Never runs `mvn install`.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
java="${JAVA:-java}"
mvn_args="${MVN_ARGS--o}"
if [[ "${1:-}" != "--no-build" ]]; then
  (cd "$root" && mvn -B -q $mvn_args -pl bench -am package -DskipTests) >&2
fi
cpu="$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ //' || echo unknown)"
echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $(nproc) cores ($cpu), $("$java" -version 2>&1 | sed -n 2p);" \
  "load average at start $(cut -d' ' -f1-3 /proc/loadavg); JMH 1.37, 1 fork, 3 x 1 s warm-up, 5 x 1 s measured."
"$java" -cp "$root/bench/target/benchmarks.jar" dev.outlierlab.bench.LiveBenchmarks 2>/dev/null | sed -n '/^| Benchmark/,$p'
