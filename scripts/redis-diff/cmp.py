#!/usr/bin/env python3
"""Runs commands on both servers after a FLUSHALL and prints both replies, marking differences.

    python3 cmp.py [--redis-port 6395] [--strata-port 6419] 'ZADD z 0x10 a' 'ZSCORE z a'
    python3 cmp.py < commands.txt

One command a line, split as a shell splits it; \\xNN escapes give raw bytes.
"""
import argparse
import codecs
import os
import shlex
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from resp import Conn, fmt  # noqa: E402

ap = argparse.ArgumentParser(description="Run commands on redis-server and Strata; show both replies.")
ap.add_argument("--redis-port", type=int, default=6395)
ap.add_argument("--strata-port", type=int, default=6419)
ap.add_argument("commands", nargs="*", help="commands (default: read from stdin)")
opts = ap.parse_args()
ref, dut = Conn(opts.redis_port), Conn(opts.strata_port)
ref.call("FLUSHALL")
dut.call("FLUSHALL")
src = "\n".join(opts.commands) if opts.commands else sys.stdin.read()
differ = False
for line in src.splitlines():
    line = line.strip()
    if not line:
        continue
    args = [codecs.decode(a, "unicode_escape").encode("latin-1").decode("latin-1") for a in shlex.split(line)]
    a, b = ref.call(*args), dut.call(*args)
    differ |= a != b
    mark = "   " if a == b else "!!!"
    print("%s %s\n      redis : %s\n      strata: %s" % (mark, line, fmt(a)[:600], fmt(b)[:600]))
sys.exit(1 if differ else 0)
