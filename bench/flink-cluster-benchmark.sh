#!/usr/bin/env bash
# CPU per line of `replay` as a job on a standalone Flink session cluster beside local `replay` of the same logs,
# in one run: the fleet of bench/flink-benchmark.sh (bench/fleet-logs.sh: INSTANCES proxies, LINES lines in all), a
# JobManager and two TaskManagers of two slots, each a JVM of its own on 127.0.0.1, on the class path of a Flink
# installation as Flink's scripts build it (flink/target/flink-lib/ and log4j for Flink's own jars, since
# flink-dist is not published; flink/src/test/java/dev/outlierlab/flink/ClusterLayout.java), the packaged jars
# submitted with Flink's client (`flink run -p N`) at each of PARALLELISMS, in the two deployments of
# docs/flink.md, each on a fresh cluster:
#  - the shaded jar (flink/target/outlier-lab-flink.jar) on Flink alone: a first job of 5,000 lines warms the JVMs
#    up, then each round runs local replay, then the job at each parallelism;
#  - the job's dependencies in the cluster's lib/ (flink/target/outlier-lab-flink-lib.jar) and the module's own jar
#    submitted (flink/target/outlier-lab-flink-job.jar): its first job at the highest parallelism, then the later
#    jobs at each parallelism; under Flink's defaults (rows `lib-...`), then on a fresh cluster under the settings
#    docs/flink.md recommends for it (rows `recommended-...`), then on a fresh cluster under those settings whose
#    JobManager and TaskManagers map a class-data archive (AppCDS) of their classes, written by a cluster that ran
#    a job of 5,000 lines and was stopped as stop-cluster.sh stops it (rows `archived-...`; the JVMs' archive
#    messages in bench/target/flink-cluster/run/archives/).
# A job's CPU is what the JobManager and TaskManagers spent from its submission to its end (/proc/PID/stat; of it,
# their JIT compiler threads and garbage collectors) plus the whole client; the cluster's start and idle time are
# not counted. Prints CPU seconds per million lines and the ratio to local replay's (medians over the rounds);
# checks the reports are byte-identical.
#
#   bench/flink-cluster-benchmark.sh                       # 1,000,000 lines of 24 proxies, 1 round, -p 2 and 4
#   bench/flink-cluster-benchmark.sh LINES INSTANCES ROUNDS PARALLELISMS
#
# BENCH_JAVA_OPTS="-Dbench.flink.KEY=VALUE ..." adds settings to the clusters' config.yaml (for example
# -Dbench.flink.env.java.opts.taskmanager=-XX:StartFlightRecording=filename=tm.jfr, a flight recording of each
# TaskManager in bench/target/flink-cluster/run/session*/); BENCH_JAVA_OPTS="-Dbench.tuned.KEY=VALUE ..." adds
# settings to the recommended ones only, for a side-by-side comparison of settings in one run.
# Builds the jars when missing and compiles the flink module's test classes (offline Maven; MVN_ARGS, default -o).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/bench/target/flink-cluster"
java="${JAVA:-java}"
lines="${1:-1000000}"
instances="${2:-24}"
rounds="${3:-1}"
parallelisms="${4:-2,4}"
mkdir -p "$out"

if [ ! -f "$root/cli/target/outlier-lab.jar" ] || [ ! -f "$root/flink/target/outlier-lab-flink.jar" ] \
  || [ ! -f "$root/flink/target/outlier-lab-flink-lib.jar" ] || [ ! -d "$root/flink/target/flink-lib" ]; then
  (cd "$root" && mvn -B -q ${MVN_ARGS--o} -pl cli,flink -am package -DskipTests -Dspotless.check.skip=true)
fi
# the test class path of the flink module (Flink's modules, log4j, the project's classes), in one reactor build
(cd "$root" && mvn -B -q ${MVN_ARGS--o} -pl flink -am test-compile dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile="$out/classpath.txt" -Dspotless.check.skip=true)

"$root/bench/fleet-logs.sh" "$lines" "$instances" "$out/logs"
logs=("$out"/logs/proxy-*.log)
echo "fleet: $instances proxies, $(cat "${logs[@]}" | wc -l) lines, $(du -sh "$out/logs" | cut -f1)" >&2
uname -a >&2
# the working directory is the flink module's: its target/flink-lib/ is Flink for the clusters (ClusterLayout.installed)
cd "$root/flink"
# BENCH_JAVA_OPTS with the shell's quoting, so that a value may hold spaces (-Dbench.tuned.KEY='-XX:A -XX:B')
eval "extra=(${BENCH_JAVA_OPTS:-})"
"$java" -Xmx512m "${extra[@]}" -cp "target/test-classes:target/classes:$(cat "$out/classpath.txt")" dev.outlierlab.flink.ClusterBenchmark \
  "$out/run" "$root/cli/target/outlier-lab.jar" "$root/flink/target/outlier-lab-flink.jar" "$rounds" "$parallelisms" \
  "$root/flink/target/outlier-lab-flink-lib.jar" "$root/flink/target/outlier-lab-flink-job.jar" "${logs[@]}"
