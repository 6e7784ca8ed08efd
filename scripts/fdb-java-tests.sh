#!/usr/bin/env bash
# Runs FoundationDB's own Java binding tests — bindings/java/src/{junit,integration,test} of a
# FoundationDB source checkout — unchanged but for the adjustments listed below, on strata-fdb
# instead of fdb-java and a cluster.
#
#   git clone --depth 1 https://github.com/apple/foundationdb /tmp/foundationdb
#   scripts/fdb-java-tests.sh /tmp/foundationdb            # in memory
#   scripts/fdb-java-tests.sh /tmp/foundationdb --durable  # every FDB.open() on one durable directory
#   scripts/fdb-java-tests.sh /tmp/foundationdb --ssd      # the same on the disk engine (Storage.SSD)
#
# What it runs, as FoundationDB's bindings/java/src/tests.cmake lists them:
#   - the JUnit unit and integration tests, through JUnit's console launcher;
#     BasicMultiClientIntegrationTest with FDB_CLUSTERS naming three cluster files;
#   - the integration programs CycleMultiClientIntegrationTest, SidebandMultiThreadClientTest
#     and RepeatableReadMultiThreadClientTest (main methods that throw on a failed check);
#   - the test programs of src/test that check their results and need no prepared data, and
#     WatchTest's race of cancelled and joined watches (its first half expects what fdb-java
#     itself does not do: see docs/strata-fdb.md).
# Adjustments, each because the test reaches into fdb-java's native implementation rather
# than the API, or names a newer API version than the 7.3 API strata-fdb provides:
#   - not compiled: FakeFDBTransaction, RangeQueryTest and EventKeeperTest (they subclass
#     FDBTransaction, fdb-java's JNI-backed class, to fake the network);
#   - removed: WatchesIntegrationTest.testWatchCleanupOnClose (casts a watch to the
#     package-private NativeFuture to free its native memory);
#   - src/test's TestApiVersion.CURRENT set to 730 where a newer checkout has more.
# Needs Java 17+, Maven, and the checkout; it downloads nothing else but Maven artifacts.
set -euo pipefail

die() { echo "fdb-java-tests: $*" >&2; exit 2; }
[[ $# -ge 1 ]] || die "usage: $0 FOUNDATIONDB_CHECKOUT [--durable|--ssd]"
fdb_src="$(cd "$1" && pwd)" || die "no such directory: $1"
durable="${2:-}"
[[ -z "$durable" || "$durable" == --durable || "$durable" == --ssd ]] \
  || die "unknown option: $durable (usage: $0 FOUNDATIONDB_CHECKOUT [--durable|--ssd])"
java_src="$fdb_src/bindings/java/src"
[[ -d "$java_src/integration" ]] || die "$fdb_src is not a FoundationDB checkout (no bindings/java/src/integration)"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/fdb-java-tests.XXXXXX")"
trap 'rm -rf "$work"' EXIT
junit_version=1.11.4

echo "fdb-java-tests: building strata-fdb" >&2
(cd "$root" && mvn -q -B -ntp -DskipTests package dependency:build-classpath -pl strata-fdb -am \
  -DincludeScope=runtime -DexcludeArtifactIds=fdb-java -Dmdep.outputFile="$work/deps.txt") >&2
(cd "$work" && mvn -q -B -ntp dependency:copy -Dartifact="org.junit.platform:junit-platform-console-standalone:$junit_version" \
  -DoutputDirectory="$work/lib") >&2
launcher="$work/lib/junit-platform-console-standalone-$junit_version.jar"
# The point of the run: fdb-java is nowhere on the class path, only strata-fdb's copy of its classes.
! grep -q "fdb-java-[0-9]" "$work/deps.txt" || die "fdb-java is on the class path: $(cat "$work/deps.txt")"
cp="$root/strata-fdb/target/strata-fdb-0.1.0-SNAPSHOT.jar:$(cat "$work/deps.txt")"

# The sources, with the adjustments above.
mkdir -p "$work/src" "$work/classes" "$work/programs"
cp -r "$java_src/junit" "$java_src/integration" "$java_src/test" "$work/src/"
rm -f "$work/src/junit/com/apple/foundationdb/"{FakeFDBTransaction,RangeQueryTest,EventKeeperTest}.java
watches="$work/src/integration/com/apple/foundationdb/WatchesIntegrationTest.java"
if grep -q "NativeFuture" "$watches"; then
  # Drops the @Test method whose body casts to NativeFuture: from its annotation to its closing brace.
  perl -0777 -i -pe '
    my $m = index($_, "void testWatchCleanupOnClose(");
    if ($m >= 0) {
      my $from = rindex($_, "\@Test", $m);
      my $i = index($_, "{", $m); my $depth = 0;
      for (; $i < length($_); $i++) {
        my $c = substr($_, $i, 1);
        $depth++ if $c eq "{";
        if ($c eq "}" && --$depth == 0) { last; }
      }
      substr($_, $from, $i + 1 - $from) = "";
    }' "$watches"
  ! grep -q "NativeFuture" "$watches" || die "could not remove testWatchCleanupOnClose"
fi
sed -i -E 's/(CURRENT = )[0-9]+;/\1730;/' "$work/src/test/com/apple/foundationdb/test/TestApiVersion.java"

echo "fdb-java-tests: compiling FoundationDB's tests against strata-fdb" >&2
javac -nowarn -encoding UTF-8 -d "$work/classes" -cp "$cp:$launcher" \
  $(find "$work/src/junit" "$work/src/integration" -name '*.java') 2>"$work/javac.log" \
  || { cat "$work/javac.log" >&2; die "FoundationDB's tests do not compile against strata-fdb"; }
javac -nowarn -encoding UTF-8 -d "$work/programs" -cp "$cp" $(find "$work/src/test" -name '*.java') 2>"$work/javac.log" \
  || { cat "$work/javac.log" >&2; die "FoundationDB's test programs do not compile against strata-fdb"; }

jvm=()
if [[ "$durable" == --durable ]]; then
  jvm=("-Dstrata.database=strata:$work/durable")
elif [[ "$durable" == --ssd ]]; then
  # A directory records its storage when created; later opens, FDB.open() among them, keep it.
  mkdir -p "$work/make-ssd"
  cat > "$work/make-ssd/MakeSsd.java" <<'JAVA'
public class MakeSsd {
    public static void main(String[] args) throws Exception {
        io.strata.Strata.builder().storage(io.strata.Storage.SSD).open(java.nio.file.Path.of(args[0])).close();
    }
}
JAVA
  javac -nowarn -d "$work/make-ssd" -cp "$cp" "$work/make-ssd/MakeSsd.java"
  java -cp "$work/make-ssd:$cp" MakeSsd "$work/ssd"
  grep -qx ssd "$work/ssd/STORAGE" || die "the directory for --ssd did not record storage ssd"
  jvm=("-Dstrata.database=strata:$work/ssd")
fi
mkdir -p "$work/clusters"
for c in a b c; do echo "strata:memory:cluster-$c" > "$work/clusters/$c.cluster"; done
export FDB_CLUSTERS="$work/clusters/a.cluster;$work/clusters/b.cluster;$work/clusters/c.cluster"

failed=0
# BasicMultiClientIntegrationTest selects API version 630 and the others the latest: the version
# is the process's, in fdb-java as here, so it runs in a JVM of its own.
echo "== JUnit: unit and integration tests"
java "${jvm[@]}" -jar "$launcher" execute -cp "$work/classes:$cp" --scan-classpath "$work/classes" \
  --exclude-classname '.*BasicMultiClientIntegrationTest' --details=summary --disable-banner --disable-ansi-colors || failed=1
echo "== JUnit: BasicMultiClientIntegrationTest"
java "${jvm[@]}" -jar "$launcher" execute -cp "$work/classes:$cp" \
  --select-class com.apple.foundationdb.BasicMultiClientIntegrationTest --details=summary --disable-banner --disable-ansi-colors || failed=1

for program in com.apple.foundationdb.CycleMultiClientIntegrationTest \
               com.apple.foundationdb.SidebandMultiThreadClientTest \
               com.apple.foundationdb.RepeatableReadMultiThreadClientTest; do
  echo "== $program"
  java "${jvm[@]}" -cp "$work/classes:$cp:$launcher" "$program" || { echo "FAILED: $program"; failed=1; }
done

# src/test programs that check what they do (they throw, or assert under -ea) and need no data
# prepared beforehand. Left out: the binding tester's stack machines (driven by
# bindingtester.py and another binding), benchmarks and programs that only print, SerialTest
# (expects a key "count" to exist) and WatchTest, which cancels a watch and then expects join()
# to throw FDBException 1101, where fdb-java's own NativeFuture.cancel completes the future with
# a CancellationException first.
for program in RangeTest SnapshotTransactionTest VersionstampSmokeTest TupleTest; do
  echo "== com.apple.foundationdb.test.$program"
  java -ea "${jvm[@]}" -cp "$work/programs:$cp" "com.apple.foundationdb.test.$program" || { echo "FAILED: $program"; failed=1; }
done

# WatchTest's second half on its own: 10,000 watches, each cancelled by one thread while another
# joins it, in either order; it must neither hang nor fail otherwise.
mkdir -p "$work/race"
cat > "$work/race/WatchRace.java" <<'JAVA'
public class WatchRace {
    public static void main(String[] args) {
        com.apple.foundationdb.FDB fdb = com.apple.foundationdb.FDB.selectAPIVersion(com.apple.foundationdb.test.TestApiVersion.CURRENT);
        try (com.apple.foundationdb.Database db = fdb.open()) {
            com.apple.foundationdb.test.WatchTest.raceTest(db);
        }
        System.exit(0);
    }
}
JAVA
javac -nowarn -d "$work/race" -cp "$work/programs:$cp" "$work/race/WatchRace.java"
echo "== com.apple.foundationdb.test.WatchTest.raceTest"
# Its joins of cancelled watches print CancellationExceptions from the pool's threads, as on fdb-java.
timeout 300 java "${jvm[@]}" -cp "$work/race:$work/programs:$cp" WatchRace 2>/dev/null | tail -1 \
  && [[ ${PIPESTATUS[0]} -eq 0 ]] || { echo "FAILED: WatchTest.raceTest"; failed=1; }

if [[ $failed -ne 0 ]]; then
  echo "fdb-java-tests: FAILED (see above)"
  exit 1
fi
echo "fdb-java-tests: all passed"
