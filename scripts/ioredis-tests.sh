#!/usr/bin/env bash
# Runs ioredis's own functional tests — test/functional of an ioredis source checkout, a real
# Redis client's suite, unchanged — against Strata's Redis-compatible server, or against a
# redis-server for comparison, and prints the totals and every failing test.
#
#   git clone --branch v4.27.6 https://github.com/luin/ioredis /tmp/ioredis
#   scripts/ioredis-tests.sh /tmp/ioredis            # against ./strata serve redis --memory
#   scripts/ioredis-tests.sh /tmp/ioredis --durable  # against ./strata serve redis on a fresh durable directory
#   scripts/ioredis-tests.sh /tmp/ioredis --redis    # against redis-server (Debian's redis-server package)
#
# The tests connect to 127.0.0.1:6379, so that port must be free: the script starts the server
# there and stops it at the end. Each test file runs in its own mocha process (a crash in one,
# such as cluster/pub_sub's mock servers on some Node versions, would otherwise end the run),
# with the JSON reporter; results go to a temporary directory named at the end.
# Left out, on both servers: connection's "should send AUTH command before any other
# commands", whose cleanup fails against Redis too and then skips the rest of its file.
# Needs Node.js and npm (the checkout's devDependencies come from the npm registry), Java 17+
# and Maven for ./strata.
set -euo pipefail

die() { echo "ioredis-tests: $*" >&2; exit 2; }
[[ $# -ge 1 ]] || die "usage: $0 IOREDIS_CHECKOUT [--durable|--redis]"
src="$(cd "$1" && pwd)" || die "no such directory: $1"
[[ -d "$src/test/functional" && -f "$src/package.json" ]] || die "$src is not an ioredis checkout (no test/functional)"
peer="${2:-}"
[[ -z "$peer" || "$peer" == --redis || "$peer" == --durable ]] \
  || die "unknown option: $peer (usage: $0 IOREDIS_CHECKOUT [--durable|--redis])"
command -v npx >/dev/null 2>&1 || die "npx not found: install Node.js and npm"
command -v redis-cli >/dev/null 2>&1 || die "redis-cli not found: apt-get install -y redis-tools"
if redis-cli -p 6379 ping >/dev/null 2>&1; then
  die "something already answers on 127.0.0.1:6379; the tests need that port for the server under test"
fi

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$(mktemp -d "${TMPDIR:-/tmp}/ioredis-tests.XXXXXX")"

if [[ ! -d "$src/node_modules" ]]; then
  (cd "$src" && npm install --ignore-scripts --no-audit --no-fund >"$out/npm-install.log" 2>&1) \
    || die "npm install failed (see $out/npm-install.log)"
fi

if [[ "$peer" == --redis ]]; then
  command -v redis-server >/dev/null 2>&1 || die "redis-server not found: apt-get install -y redis-server"
  redis-server --port 6379 --save '' --appendonly no >"$out/server.log" 2>&1 &
elif [[ "$peer" == --durable ]]; then
  "$root/strata" serve redis --dir "$out/data" --port 6379 >"$out/server.log" 2>&1 &
else
  "$root/strata" serve redis --memory --port 6379 >"$out/server.log" 2>&1 &
fi
server=$!
trap 'redis-cli -p 6379 shutdown nosave >/dev/null 2>&1 || kill "$server" 2>/dev/null || true' EXIT
for _ in $(seq 1 240); do
  redis-cli -p 6379 ping >/dev/null 2>&1 && break
  kill -0 "$server" 2>/dev/null || die "the server did not start (see $out/server.log)"
  sleep 0.5
done
redis-cli -p 6379 ping >/dev/null 2>&1 || die "the server did not answer within 2 minutes (see $out/server.log)"

cd "$src"
export TS_NODE_TRANSPILE_ONLY=true NODE_ENV=test
for f in test/functional/*.ts test/functional/cluster/*.ts; do
  name="$(echo "$f" | sed 's#test/functional/##; s#/#_#g; s#\.ts$##')"
  extra=()
  [[ "$name" == connection ]] && extra=(--grep "should send AUTH command before any other commands" --invert)
  timeout 300 npx mocha "test/helpers/*.ts" "$f" ${extra[@]+"${extra[@]}"} --reporter json --timeout 8000 --exit \
    >"$out/$name.json" 2>"$out/$name.err" || true
done

node - "$out" <<'EOF'
const fs = require('fs');
const dir = process.argv[2];
const total = { tests: 0, passes: 0, failures: 0, pending: 0 };
const failed = [];
for (const f of fs.readdirSync(dir).filter(n => n.endsWith('.json')).sort()) {
  const text = fs.readFileSync(`${dir}/${f}`, 'utf8');
  const start = text.indexOf('{');
  if (start < 0) { failed.push(`${f}: no report (see ${f.replace('.json', '.err')})`); continue; }
  const report = JSON.parse(text.slice(start));
  for (const k of Object.keys(total)) total[k] += report.stats[k] || 0;
  for (const t of report.failures) failed.push(`${f}: ${t.fullTitle} :: ${(t.err.message || '').slice(0, 160)}`);
}
console.log(`tests ${total.tests}, passed ${total.passes}, failed ${total.failures}, pending ${total.pending}`);
for (const line of failed) console.log(`  ${line}`);
EOF
echo "reports: $out"
