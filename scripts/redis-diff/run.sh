#!/usr/bin/env bash
# Differential fuzzing of Strata's Redis-compatible server against redis-server: starts both
# servers on free ports, runs fuzz.py against them with the options given, and stops both at
# the end (also on Ctrl-C or an error).
#
#   scripts/redis-diff/run.sh --seqs 300                  # a random seed, printed first
#   scripts/redis-diff/run.sh --seed 7 --seqs 300 --minimize
#   scripts/redis-diff/run.sh --redis-port 6395 --strata-port 6419 --seqs 50 --only zset,keys
#
# Every option but the two ports goes to fuzz.py (python3 scripts/redis-diff/fuzz.py --help).
# The servers: `redis-server --save '' --appendonly no` on --redis-port (default 6395) and
# `strata serve redis --memory` on --strata-port (default 6419); both ports must be free.
# The jar is strata-cli/target/strata-cli.jar of this checkout, built with ./strata if it is
# missing (a stale jar is used as it is: run ./strata --help first to rebuild after a change).
# Exits with fuzz.py's status: 0 if no sequence mismatched, 1 if one did.
# Needs redis-server and redis-cli (Debian's redis-server package), python3, Java 17+, and
# Maven if the jar has to be built.
set -euo pipefail

die() { echo "redis-diff: $*" >&2; exit 2; }
redis_port=6395
strata_port=6419
args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --redis-port|--strata-port)
      [[ $# -ge 2 && "$2" =~ ^[0-9]+$ ]] || die "$1 needs a port number"
      if [[ "$1" == --redis-port ]]; then redis_port="$2"; else strata_port="$2"; fi
      shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
[[ "$redis_port" != "$strata_port" ]] || die "--redis-port and --strata-port must differ"
command -v redis-server >/dev/null 2>&1 || die "redis-server not found: apt-get install -y redis-server"
command -v redis-cli >/dev/null 2>&1 || die "redis-cli not found: apt-get install -y redis-tools"
command -v python3 >/dev/null 2>&1 || die "python3 not found"
command -v java >/dev/null 2>&1 || die "java not found: install a JDK 17 or newer"
for port in "$redis_port" "$strata_port"; do
  if redis-cli -p "$port" ping >/dev/null 2>&1; then
    die "something already answers on 127.0.0.1:$port; pick another with --redis-port/--strata-port"
  fi
done

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
jar="$root/strata-cli/target/strata-cli.jar"
if [[ ! -f "$jar" ]]; then
  "$root/strata" --help >/dev/null || die "building strata-cli failed"
fi
logs="$(mktemp -d "${TMPDIR:-/tmp}/redis-diff.XXXXXX")"

strata_pid=
stop() {
  redis-cli -p "$redis_port" shutdown nosave >/dev/null 2>&1 \
    || { [[ -f "$logs/redis.pid" ]] && kill "$(cat "$logs/redis.pid")" 2>/dev/null; } || true
  if [[ -n "$strata_pid" ]]; then
    kill "$strata_pid" 2>/dev/null || true
    wait "$strata_pid" 2>/dev/null || true
  fi
}
trap stop EXIT

redis-server --port "$redis_port" --save '' --appendonly no --daemonize yes \
  --logfile "$logs/redis.log" --pidfile "$logs/redis.pid" >/dev/null \
  || die "redis-server did not start (see $logs/redis.log)"
(cd "$root" && exec java -jar strata-cli/target/strata-cli.jar serve redis --memory --port "$strata_port") \
  >"$logs/strata.log" 2>&1 &
strata_pid=$!

for port in "$redis_port" "$strata_port"; do
  for _ in $(seq 1 120); do
    redis-cli -p "$port" ping >/dev/null 2>&1 && break
    kill -0 "$strata_pid" 2>/dev/null || die "strata serve redis did not start (see $logs/strata.log)"
    sleep 0.5
  done
  redis-cli -p "$port" ping >/dev/null 2>&1 || die "nothing answered on port $port within a minute (logs: $logs)"
done

status=0
python3 "$here/fuzz.py" --redis-port "$redis_port" --strata-port "$strata_port" ${args[@]+"${args[@]}"} || status=$?
echo "server logs: $logs"
exit "$status"
