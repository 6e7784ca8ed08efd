#!/usr/bin/env bash
# Runs the Java client Lettuce's own integration tests — the command tests and a set of
# connection/protocol tests of a Lettuce source checkout, unchanged — against Strata's
# Redis-compatible server, or against redis-server for comparison, and prints the totals and
# every failing test case.
#
#   git clone https://github.com/redis/lettuce /tmp/lettuce
#   scripts/lettuce-tests.sh /tmp/lettuce            # against ./strata serve redis --memory
#   scripts/lettuce-tests.sh /tmp/lettuce --redis    # against redis-server (Debian's redis-server package)
#
# Lettuce's tests find their server through system properties (io.lettuce.test.settings.
# TestSettings: host localhost, port 6479, no password; tests that need a password or the ACL
# user lettuceTest set them up themselves with CONFIG SET requirepass / ACL SETUSER and undo
# them). Lettuce's Makefile starts its servers with docker compose; this script starts one server
# on 127.0.0.1:6479 configured as docker-env/redis-standalone-1's node-6479 is (no persistence,
# pubsub output limit, DEBUG enabled) but without TLS and the unix socket. Port 6479 must be free.
# Run (Maven's failsafe plugin, once each): every io.lettuce.core.commands.*IntegrationTests but
# GeoMasterReplica (master-replica), RunOnlyOnceServerCommand (it shuts down and migrates to
# servers on 6480/6486) and ConsolidatedAcl/ConsolidatedConfiguration (every test connects to a
# Redis 8 on 127.0.0.1:16379); the same tests through the reactive API and inside MULTI/EXEC
# (commands.reactive.*, commands.transactional.*IntegrationTests); io.lettuce.core.pubsub.*
# IntegrationTests; and the connection/protocol classes named in $core below.
# CommandInterfacesIntegrationTests#issue2612 also connects to 16379 and so fails on both
# servers. LETTUCE_TESTS=PATTERNS (failsafe's -Dit.test syntax, e.g.
# io.lettuce.core.pubsub.PubSubCommandResp2IntegrationTests) runs those classes instead.
# Left out: cluster, sentinel, master-replica, TLS/mTLS, unix socket, module (search, JSON,
# vector sets...), failover and proxy tests, which need servers or tools this script does not
# start. Tests that need a newer Redis skip themselves on both servers
# by version (Strata reports 7.0.15) or by COMMAND listing (@EnabledOnCommand) — the latter means
# a command Strata implements but 7.0.15 lacks runs only against Strata.
# Needs Java 17+, Maven (Lettuce's dependencies come from Maven Central), python3 for the summary,
# and redis-cli.
set -euo pipefail

die() { echo "lettuce-tests: $*" >&2; exit 2; }
[[ $# -ge 1 ]] || die "usage: $0 LETTUCE_CHECKOUT [--redis]"
src="$(cd "$1" && pwd)" || die "no such directory: $1"
[[ -d "$src/src/test/java/io/lettuce/core/commands" && -f "$src/pom.xml" ]] || die "$src is not a Lettuce checkout"
peer="${2:-}"
[[ -z "$peer" || "$peer" == --redis ]] || die "unknown option: $peer (usage: $0 LETTUCE_CHECKOUT [--redis])"
command -v redis-cli >/dev/null 2>&1 || die "redis-cli not found: apt-get install -y redis-tools"
command -v python3 >/dev/null 2>&1 || die "python3 not found (it prints the summary)"
port=6479
if redis-cli -p "$port" ping >/dev/null 2>&1 || redis-cli -p "$port" -a foobared --no-auth-warning ping >/dev/null 2>&1; then
  die "something already answers on 127.0.0.1:$port; the tests need that port for the server under test"
fi

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/lettuce-tests.XXXXXX")"

cat >"$work/standalone.conf" <<EOF
port $port
save ""
appendonly no
client-output-buffer-limit pubsub 256k 128k 5
enable-debug-command yes
EOF

pid=
stop_server() {
  # A test may have left requirepass set; try both ways.
  redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || \
    redis-cli -p "$port" -a foobared --no-auth-warning shutdown nosave >/dev/null 2>&1 || true
  [[ -n "$pid" ]] && kill "$pid" 2>/dev/null || true
}
trap stop_server EXIT
if [[ "$peer" == --redis ]]; then
  command -v redis-server >/dev/null 2>&1 || die "redis-server not found: apt-get install -y redis-server"
  (cd "$work" && exec redis-server "$work/standalone.conf" >"$work/server.log" 2>&1) &
else
  "$root/strata" --help >/dev/null   # builds the launcher's jar if needed, before timing the start
  "$root/strata" serve redis --memory --config "$work/standalone.conf" >"$work/server.log" 2>&1 &
fi
pid=$!
for _ in $(seq 1 240); do
  redis-cli -p "$port" ping >/dev/null 2>&1 && break
  sleep 0.5
done
redis-cli -p "$port" ping >/dev/null 2>&1 || die "no server answered on $port (see $work/server.log)"

c=io.lettuce.core
tests="$c.commands.*IntegrationTests,!$c.commands.GeoMasterReplicaIntegrationTests"
tests="$tests,!$c.commands.RunOnlyOnceServerCommandIntegrationTests,!$c.commands.Consolidated*IntegrationTests"
tests="$tests,$c.commands.reactive.*IntegrationTests,$c.commands.transactional.*IntegrationTests"
tests="$tests,$c.pubsub.*IntegrationTests"
core="ConnectionCommand AsyncConnection ReactiveConnection Pipelining ScanIterator ScanStream CustomCodec"
core="$core Client RedisClient Authentication ReactiveStreamingOutput"
for t in $core; do tests="$tests,$c.${t}IntegrationTests"; done
tests="${LETTUCE_TESTS:-$tests}"
start=$(date +%s)
(cd "$src" && rm -rf target/failsafe-reports && \
  mvn -B test-compile failsafe:integration-test -Dformatter.skip=true -Djacoco.skip=true \
      -DskipITs=false -Dport="$port" -Dit.test="$tests" -Dit.failIfNoSpecifiedTests=false \
      >"$work/mvn.log" 2>&1) || true
echo "run time: $(( $(date +%s) - start ))s"
[[ -d "$src/target/failsafe-reports" ]] || die "no test reports (see $work/mvn.log)"
cp -r "$src/target/failsafe-reports" "$work/reports"

python3 "$root/scripts/junit-summary.py" "$work/reports"
echo "reports: $work"
