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
#    docs/flink.md recommends for it (rows `recommended-...`, the first job's client writing the client's
#    class-data archive), then on a fresh cluster under those settings whose first client maps a client's archive
#    written beforehand by a job of 5,000 lines on another cluster, as at an installation (rows `installed-...`).
# A job's CPU is what the JobManager and TaskManagers spent from its submission to its end (/proc/PID/stat; of it,
# their JIT compiler threads and garbage collectors) plus the whole client; the cluster's start and idle time are
# not counted. Prints CPU seconds per million lines and the ratio to local replay's (medians over the rounds);
# checks the reports are byte-identical.
#
#   bench/flink-cluster-benchmark.sh                       # 1,000,000 lines of 24 proxies, 1 round, -p 2 and 4
#   bench/flink-cluster-benchmark.sh LINES INSTANCES ROUNDS PARALLELISMS
#
# BENCH_JAVA_OPTS="-Dbench.flink.KEY=VALUE ..." adds settings to the clusters' config.yaml (for example
# -Dbench.flink.env.java.opts.taskmanager='-XX:TieredStopAtLevel=1 -XX:StartFlightRecording=filename=/tmp/tm/,settings=profile',
# a flight recording of each TaskManager in the directory /tmp/tm/, written as the benchmark stops the cluster as
# stop-cluster.sh does; these override the JIT options of every deployment, the shaded one's too);
# BENCH_JAVA_OPTS="-Dbench.tuned.KEY=VALUE ..." adds a
# cluster under the recommended settings and these (rows `tuned-...`), side by side with them in one run;
# BENCH_JAVA_OPTS="-Dbench.deployments=recommended" measures only that deployment (the tuned one too, if any) and
# local replay, for a shorter run (of shaded, lib, recommended, installed, and archived: as installed, plus archives of the JobManager's and the
# TaskManagers' classes written at their exit, messages in bench/target/flink-cluster/run/archives/;
# installed,archived measures the two side by side, on clusters of their own).
# Builds the jars when missing and compiles the flink module's test classes (offline Maven; MVN_ARGS, default -o).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${BENCH_OUT:-$root/bench/target/flink-cluster}" # BENCH_OUT: another directory, for a second run at once
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
# a copy of the module's classes, so that a build while the benchmark runs does not take them from under it
rm -rf "$out/classes" && mkdir -p "$out/classes" && cp -r target/test-classes "$out/classes/test" && cp -r target/classes "$out/classes/main"
"$java" -Xmx512m "${extra[@]}" -cp "$out/classes/test:$out/classes/main:$(cat "$out/classpath.txt")" dev.outlierlab.flink.ClusterBenchmark \
  "$out/run" "$root/cli/target/outlier-lab.jar" "$root/flink/target/outlier-lab-flink.jar" "$rounds" "$parallelisms" \
  "$root/flink/target/outlier-lab-flink-lib.jar" "$root/flink/target/outlier-lab-flink-job.jar" "${logs[@]}"
