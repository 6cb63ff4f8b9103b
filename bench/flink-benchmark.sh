#!/usr/bin/env bash
# Lines per second of `replay --engine flink` (the flink module's job on Flink's local MiniCluster) at parallelism
# 1 and 2, beside local `replay` of the same logs, in one run: a fleet of INSTANCES proxies (one Envoy-format log
# each, 20 upstream hosts, a few % of 503s, UF and UT lines, one host failing a third of its requests for a while)
# of LINES lines in all; each engine replays the fleet ROUNDS times, the rounds interleaved (local, p1, p2, local,
# ...) so that all three see the same machine; prints per run the wall and CPU seconds (the job's JVM included,
# with the class-data archive and JIT options --engine flink gives it)
# and lines per second, then the medians. Checks that the three reports are byte-identical.
#
#   bench/flink-benchmark.sh                    # 1,000,000 lines of 24 proxies, 3 rounds
#   bench/flink-benchmark.sh LINES INSTANCES ROUNDS
#
# Builds cli/target/outlier-lab.jar and flink/target/outlier-lab-flink.jar (+ flink-lib/) when missing.
# Environment: JAVA (default java), MVN_ARGS (default -o).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/bench/target/flink"
java="${JAVA:-java}"
jar="$root/cli/target/outlier-lab.jar"
lines="${1:-1000000}"
instances="${2:-24}"
rounds="${3:-3}"
mkdir -p "$out"

if [ ! -f "$jar" ] || [ ! -f "$root/flink/target/outlier-lab-flink.jar" ]; then
  (cd "$root" && mvn -B -q ${MVN_ARGS--o} -pl cli,flink -am package -DskipTests)
fi

"$root/bench/fleet-logs.sh" "$lines" "$instances" "$out"
logs=("$out"/proxy-*.log)
total=$(cat "${logs[@]}" | wc -l)
echo "$total" > "$out/lines.txt"
echo "fleet: $instances proxies, $total lines, $(du -sh "$out" | cut -f1) in $out" >&2

run() { # name, extra args...
  local name="$1"; shift
  /usr/bin/time -f "%e %U %S" -o "$out/time.txt" "$java" -jar "$jar" replay "${logs[@]}" --log-format envoy "$@" \
      > "$out/report-$name.txt"
  read -r wall user sys < "$out/time.txt"
  python3 -c "import sys; w,c=float(sys.argv[1]),float(sys.argv[2])+float(sys.argv[3]); n=int(sys.argv[4]); \
print(f'{sys.argv[5]:10s} wall {w:6.2f} s  cpu {c:6.2f} s  {n/w:12,.0f} lines/s wall  {n/c:12,.0f} lines/s cpu')" \
      "$wall" "$user" "$sys" "$total" "$name" | tee -a "$out/runs.txt"
}

: > "$out/runs.txt"
uname -a >&2
# the job JVM's class-data archive (flink/target/outlier-lab-flink.jsa), which --engine flink writes on its first run
# after a build and uses from then on: made here first, so that no measured run pays for writing it
head -n 2000 "${logs[0]}" > "$out/warm-up.log"
"$java" -jar "$jar" replay "$out/warm-up.log" --log-format envoy --engine flink --parallelism 1 > /dev/null
for r in $(seq 1 "$rounds"); do
  run local
  run flink-p1 --engine flink --parallelism 1
  run flink-p2 --engine flink --parallelism 2
done
cmp -s "$out/report-local.txt" "$out/report-flink-p1.txt" && cmp -s "$out/report-local.txt" "$out/report-flink-p2.txt" \
  && echo "reports: byte-identical" || { echo "reports differ" >&2; exit 1; }
python3 - "$out/runs.txt" <<'PY'
import sys, statistics, collections
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    p = line.split()
    rows[p[0]].append((float(p[2]), float(p[5]), float(p[7].replace(',', ''))))
lines = int(open(sys.argv[1].replace("runs.txt", "lines.txt")).read())
print("| engine | wall s (median) | CPU s (median) | lines/s, wall | lines/s of CPU |")
print("|---|---:|---:|---:|---:|")
for name, rs in rows.items():
    w = statistics.median(r[0] for r in rs)
    c = statistics.median(r[1] for r in rs)
    print(f"| {name} | {w:.2f} | {c:.2f} | {lines / w:,.0f} | {lines / c:,.0f} |")
PY
