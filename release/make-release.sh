#!/usr/bin/env bash
# Builds the release files from the command's jar (cli/target/outlier-lab.jar), into OUT (default dist/):
#   outlier-lab-VERSION-linux-x64.tar.gz  the jar, a jlinked Java runtime, a launcher: untar and run, no Java needed
#   outlier-lab_VERSION_amd64.deb         the same as a Debian package (jpackage), outlier-lab on the PATH
#   outlier-lab-VERSION.jar               the plain jar, for any machine with Java 17+
#   SHA256SUMS                            a checksum of each
# `mvn -B -Prelease package` calls it (release/pom.xml); it can also run alone after the jar is built:
#   release/make-release.sh cli/target/outlier-lab.jar 0.1.0 dist
# Needs JDK 17's jdeps, jlink and jpackage; the .deb also needs dpkg-deb and fakeroot (skipped with a message
# when they are missing; OUTLIER_LAB_SKIP_DEB=1 skips it on purpose). DPKG_DEB_COMPRESSOR_TYPE and
# DPKG_DEB_COMPRESSOR_LEVEL choose the .deb's compression (dpkg-deb's own variables; xz by default).
set -euo pipefail
jar="$(readlink -f "${1:?usage: make-release.sh JAR VERSION [OUT]}")"
version="${2:?usage: make-release.sh JAR VERSION [OUT]}"
here="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"
repo="$(dirname "$here")"
out="$(mkdir -p "${3:-$repo/dist}" && cd "${3:-$repo/dist}" && pwd)"
started=$SECONDS
say() { echo "make-release: $* ($((SECONDS - started)) s)" >&2; }

if [ -z "${JAVA_HOME:-}" ] && ! command -v jlink >/dev/null; then
  echo "make-release: needs a JDK 17 (jdeps, jlink, jpackage): set JAVA_HOME or put its bin/ on the PATH" >&2
  exit 1
fi
java_home="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v jlink)")")")}"
tool() { if [ -x "$java_home/bin/$1" ]; then echo "$java_home/bin/$1"; else command -v "$1"; fi; }
jdeps="$(tool jdeps)"; jlink="$(tool jlink)"; jpackage="$(tool jpackage || true)"

work="$out/.work"
rm -rf "$work" && mkdir -p "$work"
trap 'rm -rf "$work"' EXIT

# The Java modules the jar uses, as jdeps finds them in its classes (java.desktop: snakeyaml's and Jackson's use of
# java.beans, and opening the browser; java.sql: Jackson's and protobuf's date types; jdk.httpserver: serve and
# proxy; jdk.unsupported: Guava's and protobuf's sun.misc.Unsafe; java.compiler: Error Prone's annotations).
say "finding the Java modules the jar needs (jdeps)"
modules="$("$jdeps" --print-module-deps --ignore-missing-deps --multi-release 17 "$jar")"
say "modules: $modules"

# A runtime of only those modules, with the JDK's class-data archive for them (--generate-cds-archive).
say "linking the runtime (jlink)"
"$jlink" --add-modules "$modules" --strip-debug --no-man-pages --no-header-files --generate-cds-archive \
  --output "$work/runtime" >/dev/null

# Shell completion from the command itself (picocli), and the manual page.
"$work/runtime/bin/java" -jar "$jar" generate-completion >"$work/outlier-lab.bash"
cp "$here/src/man/outlier-lab.1" "$work/outlier-lab.1"
sed -i "s/@VERSION@/$version/g" "$work/outlier-lab.1"

# The self-contained archive: outlier-lab-VERSION/{bin,lib,runtime,share}.
name="outlier-lab-$version"
tree="$work/archive/$name"
say "assembling $name-linux-x64.tar.gz"
mkdir -p "$tree/bin" "$tree/lib" "$tree/share/man/man1" "$tree/share/bash-completion/completions"
cp "$here/src/archive/outlier-lab" "$tree/bin/outlier-lab"
chmod 755 "$tree/bin/outlier-lab"
cp "$jar" "$tree/lib/outlier-lab.jar"
cp -r "$work/runtime" "$tree/runtime"
gzip -9n <"$work/outlier-lab.1" >"$tree/share/man/man1/outlier-lab.1.gz"
cp "$work/outlier-lab.bash" "$tree/share/bash-completion/completions/outlier-lab"
cp "$repo/LICENSE" "$repo/CHANGELOG.md" "$tree/"
rm -f "$out/$name-linux-x64.tar.gz"
tar -C "$work/archive" --owner=0 --group=0 --numeric-owner -czf "$out/$name-linux-x64.tar.gz" "$name"

cp "$jar" "$out/$name.jar"

# The Debian package: jpackage lays the runtime and the jar under /opt/outlier-lab, with the archive's launcher
# (src/archive/outlier-lab) beside the jar in lib/app, so that the command on the PATH runs each command as the
# archive does (tune with the first JIT compiler only and a class-data archive of its own: docs/benchmarks.md);
# jpackage's own launcher (bin/outlier-lab, one set of JVM options for every command) stays but is not on the PATH.
# The maintainer scripts (src/deb) link the command, its manual page and its completion where Debian looks for
# them, and make the class-data archives of the jar at its installed path.
deb=""
if [ "${OUTLIER_LAB_SKIP_DEB:-}" = 1 ]; then
  say "the .deb is skipped (OUTLIER_LAB_SKIP_DEB=1)"
elif [ -z "$jpackage" ] || ! command -v dpkg-deb >/dev/null || ! command -v fakeroot >/dev/null; then
  say "the .deb is skipped: it needs jpackage, dpkg-deb and fakeroot (apt-get install fakeroot dpkg-dev)"
else
  say "building the Debian package (jpackage)"
  mkdir -p "$work/deb-input" "$work/deb-resources"
  cp "$jar" "$work/deb-input/outlier-lab.jar"
  gzip -9n <"$work/outlier-lab.1" >"$work/deb-input/outlier-lab.1.gz"
  cp "$work/outlier-lab.bash" "$work/deb-input/outlier-lab.bash"
  cp "$here/src/archive/outlier-lab" "$work/deb-input/outlier-lab"
  chmod 755 "$work/deb-input/outlier-lab"
  cp "$here/src/deb/postinst" "$here/src/deb/prerm" "$work/deb-resources/"
  # A Debian version has no '-' outside the revision: 0.1.0-SNAPSHOT becomes 0.1.0~SNAPSHOT (before 0.1.0).
  "$jpackage" --type deb --name outlier-lab --app-version "${version//-/\~}" \
    --description "What passive outlier detection does to your traffic, before production does" \
    --vendor "The outlier-lab authors" --copyright "Apache License 2.0" \
    --license-file "$repo/LICENSE" --about-url "https://github.com/outlier-lab/outlier-lab" \
    --linux-package-name outlier-lab --linux-deb-maintainer "outlier-lab@users.noreply.github.com" \
    --linux-app-category devel --linux-app-release 1 \
    --input "$work/deb-input" --main-jar outlier-lab.jar --main-class dev.outlierlab.cli.Main \
    --runtime-image "$work/runtime" --resource-dir "$work/deb-resources" \
    --java-options "-XX:SharedArchiveFile=\$APPDIR/outlier-lab.jsa -Xlog:disable -Xlog:all=warning:stderr" \
    --dest "$work/deb-out" >/dev/null
  deb="outlier-lab_${version}_amd64.deb"
  mv "$work"/deb-out/*.deb "$out/$deb"
fi

say "writing SHA256SUMS"
(cd "$out" && sha256sum "$name-linux-x64.tar.gz" "$name.jar" ${deb:+"$deb"} >SHA256SUMS)
say "done: $(cd "$out" && ls -1 | tr '\n' ' ')"
