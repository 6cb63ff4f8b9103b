#!/usr/bin/env bash
# Writes a fleet of INSTANCES proxies' access logs (one Envoy-format log each, 20 upstream hosts, a few % of 503s,
# UF and UT lines, one host failing a third of its requests for a while), LINES lines in all, to
# DIR/proxy-NNN.log (the previous ones removed). The same seed gives the same bytes: the logs of
# bench/flink-benchmark.sh and bench/flink-cluster-benchmark.sh.
#
#   bench/fleet-logs.sh LINES INSTANCES DIR
set -euo pipefail
lines="$1"
instances="$2"
out="$3"
mkdir -p "$out"
rm -f "$out"/proxy-*.log
per=$(( (lines + instances - 1) / instances ))
for i in $(seq 0 $((instances - 1))); do
  awk -v n="$per" -v seed="$i" 'BEGIN {
    srand(seed + 1);
    base = 1796040000;                       # 2026-11-30T00:00:00Z
    bad = int(rand() * 20);
    for (k = 0; k < n; k++) {
      host = int(rand() * 20);
      code = 200; flags = "-"; dur = 3 + int(rand() * 40);
      r = rand();
      if (host == bad && k > n / 4 && k < n / 2 && r < 0.33) { code = 503 }
      else if (r < 0.001) { code = 503; flags = "UF"; dur = 1 }
      else if (r < 0.0017) { code = 504; flags = "UT"; dur = 15000 }
      else if (r < 0.006) { code = 404 }
      ms = 20000 + int(k / 2) - dur;         # ends at 2,000 a second, from 20 s on
      s = base + int(ms / 1000);
      t = s - base; hh = int(t / 3600) % 24; mm = int(t / 60) % 60; ss = t % 60; d = 30 + int(t / 86400);
      printf "[2026-11-%02dT%02d:%02d:%02d.%03dZ] \"GET /api HTTP/1.1\" %d %s 0 120 %d - \"-\" \"bench\" \"-\" \"api\" \"10.0.%d.%d:8080\"\n",
        d, hh, mm, ss, ms % 1000, code, flags, dur, int(host / 250), host % 250;
    }
  }' > "$out/proxy-$(printf %03d "$i").log"
done
