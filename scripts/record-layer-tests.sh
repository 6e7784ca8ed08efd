#!/usr/bin/env bash
# Runs the JUnit tests of Apple's FoundationDB Record Layer — fdb-record-layer-core/src/test of
# a Record Layer source checkout at tag 4.1.4.0, unchanged — on strata-fdb instead of fdb-java
# and a FoundationDB cluster.
#
#   git clone https://github.com/FoundationDB/fdb-record-layer /tmp/fdb-record-layer
#   (cd /tmp/fdb-record-layer && git checkout 4.1.4.0)
#   scripts/record-layer-tests.sh /tmp/fdb-record-layer            # in memory: the whole suite
#   scripts/record-layer-tests.sh /tmp/fdb-record-layer --durable  # every FDB.open() on one durable directory
#   scripts/record-layer-tests.sh /tmp/fdb-record-layer -- --select-class com.apple.foundationdb.record.provider.foundationdb.FDBRecordStoreTest
#
# Arguments after the checkout (and --durable, --include-slow, --destructive) go to JUnit's console launcher;
# a --select... among them replaces the default selection (every class of the test tree, whatever
# its name, as Gradle runs them), an --include-classname the default class name pattern.
#
# How it builds what Gradle would (Gradle itself cannot be fetched here):
#   - the Record Layer's main classes are the published fdb-record-layer-core 4.1.4.0 jar, with
#     fdb-java excluded and strata-fdb in its place; fdb-extensions is the published 4.9.1.0
#     (4.1.4.0 is not served; 4.9.1.0's main classes are a superset of the ones core uses:
#     examples/record-layer/pom.xml has the recipe);
#   - the test .proto files are compiled with protoc 3.25.5 (the Record Layer's protobuf),
#     importing the checkout's main .proto files, whose classes are in the published jar;
#   - the test classes of fdb-extensions that core's tests use (packages com.apple.test and
#     com.apple.foundationdb.test: Tags, BooleanSource, TestExecutors...) are compiled from the
#     checkout with core's tests, and the @API annotations from its fdb-java-annotations (not
#     served either); auto-service 1.0-rc6 runs as annotation processor, as in Gradle, so that the
#     tests' ServiceLoader registrations (index maintainers, JUnit extensions) exist;
#   - test dependencies are libs.versions.toml's (JUnit through the 1.11.4 console launcher).
# It runs them as build.gradle and gradle/testing.gradle set up the `test` task: API version 710
# (gradle.properties), UTF-8, JUnit extension autodetection,
# blockingInAsyncDetection=IGNORE_COMPLETE_EXCEPTION_BLOCKING, a 5 minute default timeout,
# tags WipesFDB, AutomatedTest, Performance, SuperSlow and Random excluded — and, unlike the
# default `test` task (as `-Ptests.skipSlow` does), tag Slow too: pass --include-slow to keep
# them; --destructive runs instead only the tests tagged WipesFDB, as the `destructiveTest` task
# does (they clear the whole database: harmless on a fresh in-memory one). The tests find the database as with fdb-java: FDB_CLUSTER_FILE names a cluster file
# holding `strata:memory:record-layer-tests`; with --durable, -Dstrata.database points every
# FDB.open() at one durable directory. Log4j writes the tests' own (debug) logging to a file.
# Adjustments of the tests: none; every test source of fdb-record-layer-core is compiled and run.
# Results (JUnit XML, the log, a per-class summary) go to $RESULTS (default
# ./record-layer-test-results). Needs Java 17+, Maven; downloads nothing but Maven artifacts.
set -euo pipefail

die() { echo "record-layer-tests: $*" >&2; exit 2; }
[[ $# -ge 1 ]] || die "usage: $0 RECORD_LAYER_CHECKOUT [--durable] [--include-slow] [--destructive] [JUnit console args]"
rl_src="$(cd "$1" && pwd)" || die "no such directory: $1"
shift
durable=""
include_slow=""
destructive=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --durable) durable=1; shift ;;
    --include-slow) include_slow=1; shift ;;
    --destructive) destructive=1; shift ;;
    --) shift; break ;;
    *) break ;;
  esac
done
core_test="$rl_src/fdb-record-layer-core/src/test"
[[ -d "$core_test/java" && -d "$rl_src/fdb-extensions/src/test/java/com/apple/test" ]] \
  || die "$rl_src is not a Record Layer checkout (no fdb-record-layer-core/src/test/java)"
# The tests run against the published 4.1.4.0 jar: a checkout of another version would mismatch it.
checkout_version="$(sed -n 's/^version=//p' "$rl_src/gradle.properties" 2>/dev/null)"
[[ "$checkout_version" == 4.1.4.0 ]] \
  || die "$rl_src is at version '${checkout_version:-unknown}'; check out tag 4.1.4.0 (git -C $rl_src checkout 4.1.4.0)"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
results="$(mkdir -p "${RESULTS:-record-layer-test-results}" && cd "${RESULTS:-record-layer-test-results}" && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/record-layer-tests.XXXXXX")"
trap 'rm -rf "$work"' EXIT
junit_version=1.11.4
protobuf_version=3.25.5

echo "record-layer-tests: building strata-fdb" >&2
# includeScope/excludeArtifactIds are the plugin's user properties (without "mdep."): strata-fdb's
# runtime class path is strata-engine and its dependencies, never fdb-java.
(cd "$root" && mvn -q -B -ntp -DskipTests package dependency:build-classpath -pl strata-fdb -am \
  -DincludeScope=runtime -DexcludeArtifactIds=fdb-java -Dmdep.outputFile="$work/strata-deps.txt") >&2
strata_cp="$root/strata-fdb/target/strata-fdb-0.1.0-SNAPSHOT.jar:$(cat "$work/strata-deps.txt")"

echo "record-layer-tests: resolving the Record Layer and its test dependencies" >&2
mkdir -p "$work/deps"
cat > "$work/deps/pom.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>io.strata.scripts</groupId>
  <artifactId>record-layer-tests-deps</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <!-- Versions: the Record Layer 4.1.4.0's gradle/libs.versions.toml. -->
  <dependencies>
    <dependency><groupId>org.foundationdb</groupId><artifactId>fdb-record-layer-core</artifactId><version>4.1.4.0</version>
      <exclusions><exclusion><groupId>org.foundationdb</groupId><artifactId>fdb-java</artifactId></exclusion>
        <exclusion><groupId>org.foundationdb</groupId><artifactId>fdb-extensions</artifactId></exclusion></exclusions></dependency>
    <dependency><groupId>org.foundationdb</groupId><artifactId>fdb-extensions</artifactId><version>4.9.1.0</version>
      <exclusions><exclusion><groupId>org.foundationdb</groupId><artifactId>fdb-java</artifactId></exclusion>
        <exclusion><groupId>org.foundationdb</groupId><artifactId>fdb-java-annotations</artifactId></exclusion></exclusions></dependency>
    <dependency><groupId>com.google.protobuf</groupId><artifactId>protobuf-java</artifactId><version>3.25.5</version></dependency>
    <dependency><groupId>com.google.guava</groupId><artifactId>guava</artifactId><version>33.3.1-jre</version></dependency>
    <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-api</artifactId><version>1.7.36</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-core</artifactId><version>2.23.1</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-slf4j-impl</artifactId><version>2.23.1</version></dependency>
    <dependency><groupId>org.assertj</groupId><artifactId>assertj-core</artifactId><version>3.24.2</version></dependency>
    <dependency><groupId>org.hamcrest</groupId><artifactId>hamcrest</artifactId><version>2.2</version></dependency>
    <dependency><groupId>org.mockito</groupId><artifactId>mockito-core</artifactId><version>3.7.7</version></dependency>
    <dependency><groupId>com.beust</groupId><artifactId>jcommander</artifactId><version>1.81</version></dependency>
    <dependency><groupId>org.apache.commons</groupId><artifactId>commons-math3</artifactId><version>3.6.1</version></dependency>
    <dependency><groupId>org.jline</groupId><artifactId>jline</artifactId><version>3.19.0</version></dependency>
    <dependency><groupId>com.google.code.findbugs</groupId><artifactId>jsr305</artifactId><version>3.0.2</version></dependency>
    <dependency><groupId>com.github.spotbugs</groupId><artifactId>spotbugs-annotations</artifactId><version>4.8.6</version></dependency>
    <dependency><groupId>com.google.auto.service</groupId><artifactId>auto-service</artifactId><version>1.0-rc6</version></dependency>
  </dependencies>
</project>
XML
(cd "$work/deps" && mvn -q -B -ntp dependency:build-classpath -Dmdep.outputFile="$work/deps.txt" \
  && mvn -q -B -ntp dependency:copy -Dartifact="org.junit.platform:junit-platform-console-standalone:$junit_version" \
       -DoutputDirectory="$work/lib" \
  && mvn -q -B -ntp dependency:copy -Dartifact="com.google.protobuf:protoc:$protobuf_version:exe:linux-x86_64" \
       -DoutputDirectory="$work/lib") >&2
launcher="$work/lib/junit-platform-console-standalone-$junit_version.jar"
protoc="$work/lib/protoc-$protobuf_version-linux-x86_64.exe"
chmod +x "$protoc"
deps="$(cat "$work/deps.txt")"
processors="$(tr ':' '\n' < "$work/deps.txt" | grep -E '/(auto-service|auto-service-annotations|auto-common|guava|failureaccess)-[^/]*\.jar$' | paste -sd:)"

echo "record-layer-tests: compiling the tests' .proto files and sources" >&2
mkdir -p "$work/proto-include" "$work/generated" "$work/annotations" "$work/classes"
# descriptor.proto and the other well-known types, which protoc's Maven artifact does not carry.
(cd "$work/proto-include" && unzip -q -o "$(tr ':' '\n' < "$work/deps.txt" | grep '/protobuf-java-[^/]*\.jar$')" 'google/protobuf/*.proto')
(cd "$core_test/proto" && "$protoc" -I"$work/proto-include" -I"$rl_src/fdb-record-layer-core/src/main/proto" -I. \
  --java_out="$work/generated" $(find . -name '*.proto' | sed 's|^\./||') 2>"$work/protoc.log") \
  || { cat "$work/protoc.log" >&2; die "protoc failed"; }
annotations="$rl_src/fdb-java-annotations/src/main/java/com/apple/foundationdb/annotation"
javac -nowarn -d "$work/annotations" "$annotations"/{API,GenerateVisitor,SpotBugsSuppressWarnings}.java
cp="$strata_cp:$deps:$work/annotations"
{ find "$rl_src/fdb-extensions/src/test/java/com/apple/test" "$rl_src/fdb-extensions/src/test/java/com/apple/foundationdb/test" \
       "$core_test/java" "$work/generated" -name '*.java'; } > "$work/sources.txt"
javac -J-Xmx2g -nowarn -encoding UTF-8 -parameters -d "$work/classes" -cp "$cp:$launcher" -processorpath "$processors" \
  @"$work/sources.txt" 2>"$work/javac.log" \
  || { cat "$work/javac.log" >&2; die "the Record Layer's tests do not compile against strata-fdb"; }
cp -r "$core_test/resources/." "$work/classes/"

echo "strata:memory:record-layer-tests" > "$work/fdb.cluster"
export FDB_CLUSTER_FILE="$work/fdb.cluster"
mkdir -p "$work/tmp"
# The tests' own log4j2-test.properties (root logger at debug), written to a file instead of
# standard output.
cat > "$work/log4j2.properties" <<PROPS
appender.file.type = File
appender.file.name = FILE
appender.file.fileName = $results/tests.log
appender.file.append = false
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = %d [%level] %logger{1.} - %m %X%n%ex{full}
rootLogger.level = debug
rootLogger.appenderRef.file.ref = FILE
PROPS
# The API version: gradle.properties' apiVersion=710, which build.gradle passes to every test task.
jvm=(-Xmx3g "-Djava.io.tmpdir=$work/tmp" "-Dlog4j2.configurationFile=$work/log4j2.properties"
     -Dcom.apple.foundationdb.apiVersion=710 -Dfile.encoding=utf-8
     -Djunit.jupiter.extensions.autodetection.enabled=true
     -Dcom.apple.foundationdb.record.blockingInAsyncDetection=IGNORE_COMPLETE_EXCEPTION_BLOCKING
     -Djunit.jupiter.execution.timeout.default=5m
     -Djunit.jupiter.execution.parallel.enabled=false)
[[ -n "$durable" ]] && jvm+=("-Dstrata.database=strata:$work/durable")
tags=(--exclude-tag AutomatedTest --exclude-tag Performance --exclude-tag SuperSlow --exclude-tag Random)
if [[ -n "$destructive" ]]; then tags+=(--include-tag WipesFDB); else tags+=(--exclude-tag WipesFDB); fi
[[ -n "$include_slow" ]] || tags+=(--exclude-tag Slow)
selection=(--scan-classpath "$work/classes" --include-classname '.*')
for a in "$@"; do
  [[ "$a" == --select* ]] && selection=()
  [[ "$a" == --include-classname* && ${#selection[@]} -gt 0 ]] && selection=(--scan-classpath "$work/classes")
done

echo "record-layer-tests: running (log: $results/tests.log)" >&2
rm -rf "$results/junit"
status=0
java "${jvm[@]}" -jar "$launcher" execute -cp "$work/classes:$cp" "${selection[@]}" "${tags[@]}" "$@" \
  --details=summary --disable-banner --disable-ansi-colors --reports-dir "$results/junit" | tee "$results/console.txt" || status=$?

# Per class: tests, failed (failures and errors), skipped — from JUnit's XML report.
cat > "$work/Summary.java" <<'JAVA'
import java.nio.file.*; import java.util.*; import java.util.regex.*;
public class Summary {
    public static void main(String[] a) throws Exception {
        String xml = Files.readString(Path.of(a[0]));
        Matcher m = Pattern.compile("<testcase name=\"[^\"]*\" classname=\"([^\"]*)\"[^>]*?(/>|>(.*?)</testcase>)", Pattern.DOTALL).matcher(xml);
        Map<String, int[]> by = new TreeMap<>();
        while (m.find()) {
            String cls = m.group(1).replaceAll("\\$.*", ""); String body = m.group(3) == null ? "" : m.group(3);
            int[] c = by.computeIfAbsent(cls, k -> new int[3]);
            if (body.contains("<failure") || body.contains("<error")) c[1]++; else if (body.contains("<skipped")) c[2]++; else c[0]++;
        }
        int[] t = new int[3];
        for (var e : by.entrySet()) {
            int[] c = e.getValue(); for (int i = 0; i < 3; i++) t[i] += c[i];
            System.out.printf("%-100s %6d passed %4d failed %4d skipped%n", e.getKey(), c[0], c[1], c[2]);
        }
        System.out.printf("%d passed, %d failed, %d skipped%n", t[0], t[1], t[2]);
    }
}
JAVA
java "$work/Summary.java" "$results/junit/TEST-junit-jupiter.xml" > "$results/summary.txt" || true
cat "$results/summary.txt"
exit $status
