#!/usr/bin/env bash
# Builds the benchmarks and the CLI, runs the JMH suite on one thread (one fork), measures the whole-process
# memory of the large scenario at 10, 30 and 60 simulated minutes, and prints a paste-ready markdown table.
# About 4 minutes on a 2-core machine. Progress goes to stderr, the table to stdout (and to
# bench/target/bench-results/results.md, next to the raw JMH JSON and logs).
#
#   bench/run-benchmarks.sh            # the full run (the figures in docs/benchmarks.md)
#   bench/run-benchmarks.sh --quick    # a smoke run: one short iteration each, 10 minutes only
#   bench/run-benchmarks.sh --no-build # reuse bench/target/benchmarks.jar and cli/target/outlier-lab.jar
#
# Environment: JAVA (default java), MVN_ARGS (default -o, Maven offline; set MVN_ARGS= to allow downloads).
# Never runs `mvn install`.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/bench/target/bench-results"
java="${JAVA:-java}"
mvn_args="${MVN_ARGS--o}"
bench_jar="$root/bench/target/benchmarks.jar"
cli_jar="$root/cli/target/outlier-lab.jar"

quick=0
build=1
for arg in "$@"; do
  case "$arg" in
    --quick) quick=1 ;;
    --no-build) build=0 ;;
    -h|--help) sed -n '2,12p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "run-benchmarks.sh: unknown option $arg (try --help)" >&2; exit 2 ;;
  esac
done

say() { echo "[bench] $*" >&2; }
need() { command -v "$1" >/dev/null 2>&1 || { echo "run-benchmarks.sh: needs $1" >&2; exit 1; }; }
need "$java"
need python3

if [ "$quick" = 1 ]; then
  fast=(-wi 1 -w 1s -i 1 -r 1s)
  large=(-wi 0 -i 1 -r 1s)
  minutes=(10)
else
  fast=(-wi 3 -w 2s -i 5 -r 2s)
  large=(-wi 2 -w 1s -i 5 -r 1s)   # one or two runs of the scenario per iteration
  minutes=(10 30 60)
fi
common=(-f 1 -t 1 -foe true -prof gc -rf json)

if [ "$build" = 1 ]; then
  need mvn
  say "building bench and cli (mvn -B -q $mvn_args -pl bench,cli -am package -DskipTests)"
  (cd "$root" && mvn -B -q $mvn_args -pl bench,cli -am package -DskipTests) >&2
fi
[ -f "$bench_jar" ] || { echo "run-benchmarks.sh: $bench_jar is missing (run without --no-build)" >&2; exit 1; }
[ -f "$cli_jar" ] || { echo "run-benchmarks.sh: $cli_jar is missing (run without --no-build)" >&2; exit 1; }

rm -rf "$out"
mkdir -p "$out"

jmh() { # name, then JMH arguments
  local name="$1"; shift
  say "JMH $name: $*"
  "$java" -jar "$bench_jar" "$@" "${common[@]}" -rff "$out/$name.json" >"$out/$name.log" 2>&1 \
    || { tail -40 "$out/$name.log" >&2; echo "run-benchmarks.sh: JMH $name failed (log: $out/$name.log)" >&2; exit 1; }
}

jmh engine 'EngineBenchmark\.putHttpResponseCode$' "${fast[@]}"
jmh default 'ScenarioBenchmark\.defaultScenario$' "${fast[@]}"
jmh large 'ScenarioBenchmark\.largeScenario$' -p "minutes=$(IFS=,; echo "${minutes[*]}")" "${large[@]}"
# The same 10 minutes at a tenth of the rate: allocation per run should not change with the request count.
jmh large-rps 'ScenarioBenchmark\.largeScenario$' -p minutes=10 -p rps=10000 "${fast[@]}"

# Whole-process memory: the CLI on the same large scenario at increasing durations.
: >"$out/rss.tsv"
if [ -x /usr/bin/time ]; then
  for m in "${minutes[@]}"; do
    yaml="$out/large-${m}m.yaml"
    cat >"$yaml" <<EOF
# The large scenario of bench/src/main/java/dev/outlierlab/bench/Scenarios.java, ${m} minutes.
name: large-${m}m
duration: ${m}m
seed: 1
cluster:
  hosts: 1000
  panic_threshold: 50
traffic:
  rps: 100000
faults:
  - hosts: 5
    start: $((m * 60 / 12))s
    end: $((m * 60 * 5 / 6))s
    error_rate: 30
    status: 503
outlier_detection:
  max_ejection_percent: 20
EOF
    # Default JVM settings (what a user gets), then a 12 MB heap (about 5 MB is live from start-up on): a run that needed memory in proportion to
    # its requests could not finish in it.
    for heap in default 12m; do
      opts=()
      [ "$heap" = default ] || opts=("-Xmx$heap")
      say "CLI max RSS: java${opts[*]:+ ${opts[*]}} -jar outlier-lab.jar run large-${m}m.yaml --events 0"
      /usr/bin/time -v "$java" ${opts[@]+"${opts[@]}"} -jar "$cli_jar" run "$yaml" --events 0 \
        >"$out/cli-${m}m-$heap.txt" 2>"$out/cli-${m}m-$heap.time" \
        || { cat "$out/cli-${m}m-$heap.time" >&2; echo "run-benchmarks.sh: the CLI run failed" >&2; exit 1; }
      rss_kb=$(sed -n 's/.*Maximum resident set size (kbytes): *//p' "$out/cli-${m}m-$heap.time")
      wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): *//p' "$out/cli-${m}m-$heap.time")
      reqs=$(sed -n 's/^ *failed .* of \([0-9,]*\) requests.*/\1/p' "$out/cli-${m}m-$heap.txt" | tr -d ,)
      printf '%s\t%s\t%s\t%s\t%s\n' "$m" "$heap" "$reqs" "$rss_kb" "$wall" >>"$out/rss.tsv"
    done
  done
else
  say "/usr/bin/time not found: skipping the whole-process RSS check"
fi

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
jver=$("$java" -version 2>&1 | sed -n '2p')
export BENCH_OUT="$out" BENCH_DATE="$(date -u '+%Y-%m-%d %H:%M UTC')" BENCH_NPROC="$(nproc)" \
  BENCH_CPU="${cpu:-unknown}" BENCH_JAVA="$jver" BENCH_QUICK="$quick"
python3 - <<'PY' | tee "$out/results.md"
import json, os

out = os.environ["BENCH_OUT"]

def load(name):
    with open(os.path.join(out, name + ".json")) as f:
        return json.load(f)

def metric(entry, name):
    m = entry["primaryMetric"] if name is None else entry["secondaryMetrics"].get(name)
    if m is None:
        return None, None
    err = m.get("scoreError")
    err = None if err in (None, "NaN") or err != err else float(err)
    return float(m["score"]), err

def pm(value, err, scale=1.0, digits=1):
    if value is None:
        return "-"
    s = f"{value / scale:,.{digits}f}"
    if err is not None:
        s += f" ± {err / scale:,.{digits}f}"
    return s

def alloc_per_request(entry):
    runs, _ = metric(entry, None)
    reqs, _ = metric(entry, "requests")
    norm, _ = metric(entry, "gc.alloc.rate.norm")
    if None in (runs, reqs, norm) or runs == 0:
        return None, None
    per_run = reqs / runs  # requests per benchmark operation
    return norm, norm / per_run

quick = os.environ.get("BENCH_QUICK") == "1"
print(f"Measured {os.environ['BENCH_DATE']} on {os.environ['BENCH_NPROC']} cores ({os.environ['BENCH_CPU']}), "
      f"{os.environ['BENCH_JAVA']}; JMH 1.37, 1 thread, 1 fork"
      + (" (QUICK SMOKE RUN: not figures to publish)." if quick else "."))
print()
print("| Benchmark | Scenario | Runs/s | Simulated requests/s (millions) | ns per request | Allocated bytes per request |")
print("|---|---|---:|---:|---:|---:|")

for e in load("default"):
    runs, runs_err = metric(e, None)
    reqs, reqs_err = metric(e, "requests")
    _, bpr = alloc_per_request(e)
    print(f"| `ScenarioBenchmark.defaultScenario` | default: 6 hosts, 600 rps, 300 s (180,000 requests) "
          f"| {pm(runs, runs_err)} | {pm(reqs, reqs_err, 1e6)} | {1e9 / reqs:.1f} | {bpr:.2f} |")

def minutes_rps(e):
    return int(e["params"]["minutes"]), int(e["params"].get("rps", "100000"))

large = sorted(load("large"), key=minutes_rps)
for e in large:
    m, rps = minutes_rps(e)
    runs, runs_err = metric(e, None)
    reqs, reqs_err = metric(e, "requests")
    _, bpr = alloc_per_request(e)
    print(f"| `ScenarioBenchmark.largeScenario` (minutes={m}) | large: 1,000 hosts, {rps:,} rps, {m} min "
          f"({m * 60 * rps:,} requests) | {pm(runs, runs_err, digits=3)} | {pm(reqs, reqs_err, 1e6)} "
          f"| {1e9 / reqs:.1f} | {bpr:.3f} |")

for e in load("engine"):
    ns, ns_err = metric(e, None)
    norm, _ = metric(e, "gc.alloc.rate.norm")
    print(f"| `EngineBenchmark.putHttpResponseCode` | engine only: 1,000 hosts, one response per op, tick every 10 s "
          f"simulated | - | {1e3 / ns:,.1f} | {pm(ns, ns_err, digits=2)} | {norm:.3f} |")

print()
print("Memory against the number of requests (large scenario; JMH `-prof gc` for allocation, "
      "`/usr/bin/time -v` on `java -jar cli/target/outlier-lab.jar run large.yaml --events 0` for the whole process):")
print()
print("| Simulated minutes | Requests/s | Requests | Allocated per run (MB) | Allocated bytes per request "
      "| CLI max RSS, default heap (MB) | CLI max RSS, `-Xmx12m` (MB) | CLI wall time, default heap |")
print("|---:|---:|---:|---:|---:|---:|---:|---:|")
rss = {}
with open(os.path.join(out, "rss.tsv")) as f:
    for line in f:
        parts = line.rstrip("\n").split("\t")
        if len(parts) == 5:
            rss[(int(parts[0]), parts[1])] = parts

def rss_cell(m, heap):
    r = rss.get((m, heap))
    if not r or not r[3]:
        return "-"
    cell = f"{int(r[3]) / 1024:,.1f}"
    if r[2] and int(r[2]) != m * 6_000_000:
        cell += f" (CLI sent {int(r[2]):,} requests?)"
    return cell

for e in sorted(load("large-rps"), key=minutes_rps) + large:
    m, rps = minutes_rps(e)
    norm, bpr = alloc_per_request(e)
    cli = rps == 100_000  # the CLI runs only the issue's rate
    r = rss.get((m, "default")) if cli else None
    wall = r[4] if r else "-"
    print(f"| {m} | {rps:,} | {m * 60 * rps:,} | {norm / 1e6:,.1f} | {bpr:.3f} "
          f"| {rss_cell(m, 'default') if cli else '-'} | {rss_cell(m, '12m') if cli else '-'} | {wall} |")
PY
say "raw results: $out"
