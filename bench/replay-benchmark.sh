#!/usr/bin/env bash
# Whole-process benchmark of `outlier-lab replay` on Envoy's default access-log format: generates a small and a
# large log (one proxy, 20 upstream hosts, a few % of 503s, UF and UT lines, one host failing a third of its
# requests in the middle), replays each pinned to one core (taskset) and prints lines per second (wall and CPU)
# and the process's max RSS, with the default heap and with a fixed 32 MiB heap: memory must not grow with the
# log, so both logs replay in the same small heap. Each replay runs the way users run it, through the
# `outlier-lab` launcher (its JVM options and class-data archive); the last row is the large log with a bare
# `java -jar cli/target/outlier-lab.jar` for comparison.
#
#   bench/replay-benchmark.sh                 # 100,000 and 10,000,000 lines (about 2 GB of log in bench/target)
#   bench/replay-benchmark.sh SMALL LARGE     # other line counts
#   bench/replay-benchmark.sh --against OLD.jar [LINES]
#                                             # before/after: `java -jar OLD.jar` and this build through the
#                                             # launcher replay the LINES-line log (default 10,000,000) at the same
#                                             # time on the same core, so both see the same contention on a shared
#                                             # machine; prints both and the ratio. AFTER=jar runs this build with a
#                                             # bare `java -jar` too (the code alone, without the launcher's options).
#
# Environment: JAVA (default java; the launcher uses the java on PATH), MVN_ARGS (default -o), CPU (the core to
# pin to, default 0).
set -euo pipefail

against=""
if [ "${1:-}" = "--against" ]; then
  against="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
  shift 2
  set -- 100000 "${1:-10000000}"
fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/bench/target/replay"
java="${JAVA:-java}"
jar="$root/cli/target/outlier-lab.jar"
small="${1:-100000}"
large="${2:-10000000}"
cpu="${CPU:-0}"
mkdir -p "$out"

if [ ! -f "$jar" ]; then
  (cd "$root" && mvn -B -q ${MVN_ARGS--o} -pl cli -am package -DskipTests)
fi
# the launcher builds when sources are newer than the jar, and makes its class-data archive, before any timing
"$root/outlier-lab" --version >/dev/null

# One line per request, Envoy's default format (START_TIME in milliseconds), 2,000 lines a second written in
# the order streams end (as Envoy writes them): START_TIME is the end minus DURATION.
generate() {
  awk -v n="$1" 'BEGIN {
    srand(7);
    base = 1796040000;                       # 2026-11-30T00:00:00Z
    split("GET GET GET POST", methods, " ");
    for (i = 0; i < n; i++) {
      host = i % 20;
      code = 200; flags = "-"; dur = 3 + (i * 7) % 40;
      if (host == 3 && i > n / 4 && i < n / 2 && i % 3 == 0) { code = 503 }
      else if (i % 997 == 0) { code = 503; flags = "UF"; dur = 1 }
      else if (i % 1499 == 0) { code = 504; flags = "UT"; dur = 15000 }
      else if (i % 211 == 0) { code = 404 }
      ms = 20000 + int(i / 2) - dur;         # ends at 2,000 a second, from 20 s on
      s = base + int(ms / 1000);
      t = s - base; hh = int(t / 3600) % 24; mm = int(t / 60) % 60; ss = t % 60; d = 30 + int(t / 86400);
      printf "[2026-11-%02dT%02d:%02d:%02d.%03dZ] \"%s /api/v1/books/%d?q=search HTTP/1.1\" %d %s 218 %d %d %d \"10.0.%d.%d\" \"Mozilla/5.0 (X11; Linux x86_64) bookstore-client/2.3\" \"%08x-6a4e-4a57-9d4c-%012x\" \"books.internal:8080\" \"10.1.0.%d:8080\"\n",
        d, hh, mm, ss, ms % 1000, methods[1 + i % 4], i % 5000, code, flags, 900 + i % 700, dur, dur - 1, i % 250, i % 200, i, i, 10 + host;
    }
  }'
}

measure() {
  local log="$1" lines="$2" label="$3" heap="${4:-}" how="${5:-launcher}"
  local timing="$out/time-$label.txt"
  local cmd=(env OUTLIER_LAB_JAVA_OPTS="$heap" "$root/outlier-lab")
  [ "$how" = jar ] && cmd=("$java" $heap -jar "$jar")
  /usr/bin/time -v taskset -c "$cpu" "${cmd[@]}" replay "$log" --log-format envoy \
      --set outlier_detection.max_ejection_percent=34 --events 5 > "$out/replay-$label.txt" 2> "$timing"
  local wall user sys rss
  wall=$(grep 'Elapsed (wall clock)' "$timing" | awk '{print $NF}' | awk -F: '{ if (NF == 3) print $1*3600+$2*60+$3; else print $1*60+$2 }')
  user=$(grep 'User time' "$timing" | awk '{print $NF}')
  sys=$(grep 'System time' "$timing" | awk '{print $NF}')
  rss=$(grep 'Maximum resident' "$timing" | awk '{print $NF}')
  python3 - "$label" "$lines" "$(stat -L -c %s "$log")" "$wall" "$user" "$sys" "$rss" <<'PY'
import sys
label, lines, size, wall, user, sys_, rss = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6]), int(sys.argv[7])
print(f"| {label} | {lines:,} | {size/1e6:,.0f} | {wall:.2f} | {lines/wall:,.0f} | {user+sys_:.2f} | {lines/(user+sys_):,.0f} | {rss/1024:.0f} |")
PY
}

# the same replay with two jars at once on one core: CPU seconds of each, the ratio, and whether the outputs agree
compare() {
  local log="$out/envoy-$large.log"
  echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC'), $large lines, both pinned to core $cpu at the same time (after: $([ "${AFTER:-}" = jar ] && echo 'java -jar' || echo 'outlier-lab launcher')); load average $(cut -d' ' -f1-3 /proc/loadavg)."
  for v in before after; do
    local cmd=("$root/outlier-lab")
    [ "${AFTER:-}" = jar ] && cmd=("$java" -jar "$jar")
    [ "$v" = before ] && cmd=("$java" -jar "$against")
    /usr/bin/time -f "%U %S" taskset -c "$cpu" "${cmd[@]}" replay "$log" --log-format envoy \
        --set outlier_detection.max_ejection_percent=34 --events 5 > "$out/replay-$v.txt" 2> "$out/time-$v.txt" &
  done
  wait
  python3 - "$large" "$(tail -1 "$out/time-before.txt")" "$(tail -1 "$out/time-after.txt")" <<'PY'
import sys
lines = int(sys.argv[1])
b = sum(map(float, sys.argv[2].split()))
a = sum(map(float, sys.argv[3].split()))
print(f"before: {b:.2f} CPU s, {lines/b:,.0f} lines/s; after: {a:.2f} CPU s, {lines/a:,.0f} lines/s; after is {b/a:.2f}x")
PY
  if cmp -s "$out/replay-before.txt" "$out/replay-after.txt"; then echo "outputs identical"; else echo "OUTPUTS DIFFER"; fi
}

for n in "$small" "$large"; do
  if [ ! -f "$out/envoy-$n.log" ]; then
    echo "[bench] generating $n lines" >&2
    generate "$n" > "$out/envoy-$n.log"
  fi
done

if [ -n "$against" ]; then
  compare
  exit 0
fi

echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)), pinned to core $cpu; load average $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "| log | lines | MB | wall s | lines/s (wall) | CPU s | lines/s (CPU) | max RSS MB |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
measure "$out/envoy-$small.log" "$small" small
measure "$out/envoy-$large.log" "$large" large
# memory does not grow with the log: both replay in the same small fixed heap
measure "$out/envoy-$small.log" "$small" "small, -Xmx32m" -Xmx32m
measure "$out/envoy-$large.log" "$large" "large, -Xmx32m" -Xmx32m
measure "$out/envoy-$large.log" "$large" "large, java -jar" "" jar
