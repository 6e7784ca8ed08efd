#!/usr/bin/env bash
# Runs the Java client Jedis's own JUnit tests — the command tests of a Jedis source checkout,
# unchanged — against Strata's Redis-compatible server, or against redis-server for
# comparison, and prints the totals and every failing test case.
#
#   git clone https://github.com/redis/jedis /tmp/jedis
#   scripts/jedis-tests.sh /tmp/jedis            # against ./strata serve redis --memory
#   scripts/jedis-tests.sh /tmp/jedis --redis    # against redis-server (Debian's redis-server package)
#
# Jedis's tests find their servers through an endpoints file; this script writes one with the
# two single-server endpoints the chosen tests use — "standalone0" on 127.0.0.1:6379 and
# "standalone7-with-lfu-policy" on 6386, password foobared, configured as Jedis's Makefile
# configures them (ACL users acljedis and deploy, pubsub output limit, allkeys-lfu) — and
# starts two servers there; both ports must be free. Run: every class of commands/jedis but the
# cluster, sentinel, failover, migrate and module ones; the unified client and pipeline tests;
# CommandObjects but its module classes. Each runs once per RESP protocol. Tests that need a
# newer Redis skip themselves on both servers (Strata reports 7.0.15).
# Needs Java 17+, Maven (Jedis's dependencies come from Maven Central), python3 for the summary,
# and redis-cli.
set -euo pipefail

die() { echo "jedis-tests: $*" >&2; exit 2; }
[[ $# -ge 1 ]] || die "usage: $0 JEDIS_CHECKOUT [--redis]"
src="$(cd "$1" && pwd)" || die "no such directory: $1"
[[ -d "$src/src/test/java/redis/clients/jedis/commands/jedis" && -f "$src/pom.xml" ]] || die "$src is not a Jedis checkout"
peer="${2:-}"
[[ -z "$peer" || "$peer" == --redis ]] || die "unknown option: $peer (usage: $0 JEDIS_CHECKOUT [--redis])"
command -v redis-cli >/dev/null 2>&1 || die "redis-cli not found: apt-get install -y redis-tools"
command -v python3 >/dev/null 2>&1 || die "python3 not found (it prints the summary)"
for port in 6379 6386; do
  if redis-cli -p "$port" ping >/dev/null 2>&1 || redis-cli -p "$port" -a foobared --no-auth-warning ping >/dev/null 2>&1; then
    die "something already answers on 127.0.0.1:$port; the tests need that port for the server under test"
  fi
done

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/jedis-tests.XXXXXX")"

cat >"$work/standalone0.conf" <<'EOF'
port 6379
requirepass foobared
user acljedis on allcommands allkeys >fizzbuzz
user deploy on allcommands allkeys >verify
save ""
appendonly no
client-output-buffer-limit pubsub 256k 128k 5
EOF
cat >"$work/standalone7.conf" <<'EOF'
port 6386
requirepass foobared
user deploy on allcommands allkeys >verify
save ""
appendonly no
maxmemory-policy allkeys-lfu
EOF
cat >"$work/endpoints.json" <<'EOF'
{
  "standalone0": {"password": "foobared", "tls": false, "endpoints": ["redis://localhost:6379"]},
  "standalone7-with-lfu-policy": {"username": "default", "password": "foobared", "tls": false, "endpoints": ["redis://localhost:6386"]}
}
EOF

pids=()
stop_servers() {
  for port in 6379 6386; do redis-cli -p "$port" -a foobared --no-auth-warning shutdown nosave >/dev/null 2>&1 || true; done
  for pid in ${pids[@]+"${pids[@]}"}; do kill "$pid" 2>/dev/null || true; done
}
trap stop_servers EXIT
if [[ "$peer" != --redis ]]; then
  # Builds the launcher's jar once, before two servers start (each would build it otherwise).
  "$root/strata" --help >/dev/null
fi
for conf in standalone0 standalone7; do
  if [[ "$peer" == --redis ]]; then
    command -v redis-server >/dev/null 2>&1 || die "redis-server not found: apt-get install -y redis-server"
    (cd "$work" && redis-server "$work/$conf.conf" >"$work/$conf.log" 2>&1) &
  else
    "$root/strata" serve redis --memory --config "$work/$conf.conf" >"$work/$conf.log" 2>&1 &
  fi
  pids+=($!)
done
for port in 6379 6386; do
  for _ in $(seq 1 240); do
    redis-cli -p "$port" -a foobared --no-auth-warning ping >/dev/null 2>&1 && break
    sleep 0.5
  done
  redis-cli -p "$port" -a foobared --no-auth-warning ping >/dev/null 2>&1 || die "no server answered on $port (see $work/*.log)"
done

j=redis.clients.jedis.commands.jedis
co=redis.clients.jedis.commands.commandobjects
tests="$j.*Test,!$j.Cluster*,!$j.SentinelCommandsTest,!$j.FailoverCommandsTest,!$j.MigrateTest,!$j.ModuleTest"
tests="$tests,redis.clients.jedis.commands.unified.client.RedisClient*Test,redis.clients.jedis.commands.unified.client.RedisClientTransactionIT"
tests="$tests,redis.clients.jedis.commands.unified.pipeline.*Test,$co.CommandObjects*Test"
for m in BloomFilter CountMinSketch CuckooFilter Json SearchAndQuery TDigest TimeSeries Topk; do
  tests="$tests,!$co.CommandObjects${m}CommandsTest"
done
(cd "$src" && rm -rf target/surefire-reports && \
  TEST_ENV_PROVIDER=oss-source REDIS_ENDPOINTS_CONFIG_PATH="$work/endpoints.json" \
  mvn -B test -Dformatter.skip=true -Djacoco.skip=true -DexcludedGroupsForUnitTests=scenario \
      -Dsurefire.failIfNoSpecifiedTests=false -Dtest="$tests" >"$work/mvn.log" 2>&1) || true
[[ -d "$src/target/surefire-reports" ]] || die "no test reports (see $work/mvn.log)"
cp -r "$src/target/surefire-reports" "$work/reports"

python3 "$root/scripts/junit-summary.py" "$work/reports"
echo "reports: $work"
