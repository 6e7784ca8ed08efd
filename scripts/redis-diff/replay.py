#!/usr/bin/env python3
"""Replays one sequence fuzz.py generated and shrinks it to a minimal repro.

    python3 replay.py SEED SEQ [--len 40] [--redis-port 6395] [--strata-port 6419] [--only FAMILIES] [--skip FAMILIES]

SEED and SEQ are the numbers in fuzz.py's "=== seq SEQ seed SEED" line; --len, --only and
--skip must match the run that found it. Prints the first mismatch, the smallest subsequence that still
shows it, and both servers' replies to each of its commands.
"""
import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fuzz  # noqa: E402
from resp import fmt  # noqa: E402

ap = argparse.ArgumentParser(description="Replay and minimise one fuzz.py sequence.")
ap.add_argument("seed", type=int)
ap.add_argument("seq", type=int)
ap.add_argument("--len", type=int, default=40)
ap.add_argument("--only", default="")
ap.add_argument("--skip", default="")
ap.add_argument("--redis-port", type=int, default=6395)
ap.add_argument("--strata-port", type=int, default=6419)
opts = ap.parse_args()
fams, unknown = fuzz.families(opts.only, opts.skip)
if unknown:
    ap.error("unknown family: %s" % ",".join(unknown))
r = random.Random(opts.seed * 100003 + opts.seq)
seq = fuzz.gen_sequence(r, opts.len, fams)
run = fuzz.Runner(opts.redis_port, opts.strata_port)
bad = [b for b in run.run_seq(seq) if not fuzz.known(b[1], b[2], b[3])]
if not bad:
    sa, sb = run.state(run.ref), run.state(run.dut)
    if sa != sb:
        # find first prefix with state diff
        for i in range(len(seq)):
            run.run_seq(seq[:i + 1])
            if run.state(run.ref) != run.state(run.dut):
                print("state diverges at", i, fuzz.fmt_args(seq[i][0]))
                bad = [(i, seq[i][0], None, None, "state")]
                break
if not bad:
    print("no mismatch")
    sys.exit()
i = bad[0][0]
print("first mismatch at", i, fuzz.fmt_args(seq[i][0]))
if bad[0][4] == "state":
    tgt = seq[i]

    def fails(prefix):
        run.run_seq(prefix + [tgt])
        return run.state(run.ref) != run.state(run.dut)
    prefix = seq[:i]
    changed = True
    while changed:
        changed = False
        for j in range(len(prefix)):
            cand = prefix[:j] + prefix[j + 1:]
            if fails(cand):
                prefix = cand
                changed = True
                break
    m = prefix + [tgt]
else:
    m = fuzz.minimize(run, seq, i) or seq[:i + 1]
for a, _ in m:
    print("   ", fuzz.fmt_args(a))
run.reset()
for a, _ in m:
    if isinstance(a, fuzz.Scenario):  # two connections: the replies of its steps, in order
        why, x, y = run.run_scenario(a)
        print(("!!!" if why else "   "), fuzz.fmt_args(a), "\n       " + (why or ""))
    else:
        x, y = run.ref.call(*a), run.dut.call(*a)
        print(("   " if x == y else "!!!"), fuzz.fmt_args(a))
    print("       redis :", fmt(x), "\n       strata:", fmt(y))
if bad[0][4] == "state":
    print(run.state(run.ref))
    print(run.state(run.dut))
sys.exit(1)
