#!/usr/bin/env python3
"""Differential fuzzer: Strata's Redis-compatible server against a reference redis-server.

Each sequence FLUSHALLs both servers, sends the same random commands over seven keys
(strings, keys, hashes, sets, lists, sorted sets, HyperLogLogs, streams and their consumer
groups, MULTI/EXEC, wrong types and arities, numbers spelled every way C's parsers take them)
to both, compares every reply, and then compares the whole keyspace (streams with their
groups, PELs and consumers). Two-connection scenarios run on one server and then the other:
"blocking" (a second connection's BLPOP, BLMOVE, BLMPOP, BZPOPMIN, BZMPOP, XREAD BLOCK,
XREADGROUP BLOCK … while the first writes, or does not, until a wake-up, a timeout or CLIENT
UNBLOCK) and "watch" (WATCH, the other connection's writes, MULTI … EXEC). A mismatch is
printed with the commands that led to it (with --minimize, the smallest subsequence that
still shows it). Sequence S of seed N is the same on every run, so replay.py N S shows it
again.

    scripts/redis-diff/run.sh --seqs 300              # starts both servers, then runs this
    python3 fuzz.py --seed 1 --seqs 300 --len 40 --redis-port 6395 --strata-port 6419
    python3 fuzz.py --only stream,blocking,watch      # families: fuzz.py --help; --skip too

Both servers must be running and hold nothing of value: every sequence runs FLUSHALL. Run
one fuzz.py, replay.py or cmp.py at a time against a pair of servers. Exits 1 if a sequence
mismatched, 0 if none did.
"""
import argparse
import os
import random
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from resp import Conn, fmt  # noqa: E402

KEYS = ["k0", "k1", "k2", "k3", "k4", "k5", "k6"]
FIELDS = ["f0", "f1", "f2", "f3", "", "a", "b"]
MEMBERS = ["a", "b", "c", "d", "e", "1", "2", "10", "-1", "", "\x00", "\xff\xfe", "aa", "ab"]

NUMS = ["0", "1", "-1", "2", "3", "5", "10", "100", "-5", "  1", "1 ", "1.0", "0x10", "-0", "+5", "1e3",
        "01", "007", "", "abc", "-", "+", ".5", "5.", "1e-5", "0.1", "3.14", "inf", "-inf", "+inf", "nan",
        "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809",
        "123456789012345678901234567890", "1e308", "1e309", "-1e309", "4611686018427387904",
        "99999999999999999999.5", "0.0000000000000000001", "1.7976931348623157e308",
        "\x001", "1\x00", "12345678901234567", "-0.0", "1E3", "1e+3", "0b1", "17179869184",
        "-9223372036854775807", "9223372036854775806", "4294967296", "-4294967297", "536870911",
        "4294967295", "-100", "-2"]

# No subnormal or overflowing numbers (5e-324, 2.5e-310, 1e309 as a range bound): reading one
# leaves errno at ERANGE in Redis 7.0, and a later SORT then fails on any element (a Redis bug,
# not copied; StrtodTest covers those numbers' parsing).
SCORES = ["0", "1", "-1", "2", "1.5", "-0", "-0.0", "+0", "1e+300", "1e300", "-1e300", "inf", "-inf", "+inf",
          "nan", "3", "10", "0.1", "1e-300", "123456789.123456789", "1e16", "12345678901234567890",
          "0x10", " 1", "1 ", "", "abc", "2.2250738585072014e-308", "17", "-17.5", "1.0", "0.30000000000000004",
          "9007199254740993", "1e15", "100000000000000000000", "-5", "4.5", "(1"]

RANGE_SCORES = ["0", "1", "-1", "2", "(1", "(0", "-inf", "+inf", "inf", "(-inf", "(+inf", "1.5", "(1.5", "nan",
                "abc", "10", "-0", "1e300", "(3", "5", "", "(", "0x10", "(0x1p4"]  # no 1e309: the errno note above
LEX = ["-", "+", "[a", "(a", "[b", "(b", "[c", "[", "(", "a", "[aa", "(ab", "[\xff", "[1", "(10", "[e", "(e"]

IDX = ["0", "1", "-1", "2", "-2", "3", "-3", "5", "-5", "100", "-100", "10", "9223372036854775807",
       "-9223372036854775808", "4294967296", "-4294967296", "1.5", "a", "", "0x1", "7", "-7", "9223372036854775808"]

FAR = str(int(time.time()) + 10 ** 6)
FARMS = str((int(time.time()) + 10 ** 6) * 1000)
PAST = "1000000000"
EXPIRES = ["100", "1000", "10000", "100000", "0", "-1", "-100", FAR, str(int(FAR) + 10), PAST, "1.5", "abc", "",
           "9223372036854775807", "-9223372036854775808", "9223372036854775", "9223372036854776", "922337203685477580",
           "4611686018427387", "4611686018427388", "2147483648", "500", "1000000", "99999999999"]


def rnd_bytes(r, n=None):
    if n is None:
        n = r.choice([0, 1, 2, 3, 5, 8])
    return "".join(chr(r.randrange(256)) for _ in range(n))


def val(r):
    c = r.random()
    if c < 0.35:
        return r.choice(NUMS)
    if c < 0.6:
        return r.choice(MEMBERS)
    if c < 0.75:
        return rnd_bytes(r)
    if c < 0.85:
        return r.choice(["hello", "world", "foobar", "abcdef", "\x00\x00\xff", "ABCD", "x" * 70, "1234"])
    if c < 0.92:
        return "".join(r.choice("ab\x00\xff1") for _ in range(r.randrange(0, 20)))
    return r.choice(NUMS) * r.randrange(1, 3)


def key(r):
    return r.choice(KEYS)


def keys(r, lo=1, hi=4):
    return [key(r) for _ in range(r.randint(lo, hi))]


def mem(r):
    return r.choice(MEMBERS) if r.random() < 0.85 else val(r)


def num(r):
    return r.choice(NUMS) if r.random() < 0.8 else str(r.randint(-50, 50))


def idx(r):
    return r.choice(IDX) if r.random() < 0.6 else str(r.randint(-12, 12))


def small(r):
    return r.choice(["0", "1", "2", "3", "-1", "-2", "-3", "5", "10", "-10", "100", "1.5", "a", "",
                     "9223372036854775807", "-9223372036854775808", "4294967296", "-4294967297"])


def expv(r):
    return r.choice(EXPIRES)


# ------------------------------------------------------------------ generators
# each returns (args, kind) ; kind in exact | sorted | ttl | pttl | rand:<what> | spop | enc | scan

def g_set(r):
    a = ["SET", key(r), val(r)]
    opts = []
    if r.random() < 0.5:
        e = r.choice(["EX", "PX", "EXAT", "PXAT", "KEEPTTL"])
        if e == "KEEPTTL":
            opts.append(e)
        else:
            v = r.choice(["100", "10000", FAR, FARMS, "0", "-1", "abc", PAST, "9223372036854775807", "1.5",
                          "9223372036854775", "9223372036854776"])
            if e in ("EXAT", "PXAT") and r.random() < 0.5:
                v = FAR if e == "EXAT" else FARMS
            opts += [e, v]
    if r.random() < 0.3:
        opts.append(r.choice(["NX", "XX"]))
    if r.random() < 0.25:
        opts.append("GET")
    if r.random() < 0.05:
        opts.append(r.choice(["EX", "PX", "NX", "XX", "KEEPTTL", "GET", "FOO", "ex"]))
    r.shuffle(opts) if r.random() < 0.2 else None
    return a + opts, "exact"


def g_strings(r):
    k = key(r)
    c = r.randrange(40)
    if c == 0:
        return ["GET", k], "exact"
    if c == 1:
        a = ["GETEX", k]
        if r.random() < 0.7:
            e = r.choice(["EX", "PX", "EXAT", "PXAT", "PERSIST"])
            a += [e] if e == "PERSIST" else [e, r.choice(["100", "10000", FAR, FARMS, "0", "-1", "x", PAST])]
        if r.random() < 0.1:
            a.append(r.choice(["PERSIST", "EX", "KEEPTTL"]))
        return a, "exact"
    if c == 2:
        return ["GETDEL", k], "exact"
    if c == 3:
        return ["GETSET", k, val(r)], "exact"
    if c == 4:
        return ["SETNX", k, val(r)], "exact"
    if c == 5:
        return [r.choice(["SETEX", "PSETEX"]), k, expv(r), val(r)], "exact"
    if c == 6:
        a = ["MSET"]
        for _ in range(r.randint(1, 3)):
            a += [key(r), val(r)]
        if r.random() < 0.1:
            a.append(key(r))
        return a, "exact"
    if c == 7:
        a = ["MSETNX"]
        for _ in range(r.randint(1, 3)):
            a += [key(r), val(r)]
        return a, "exact"
    if c == 8:
        return ["MGET"] + keys(r), "exact"
    if c == 9:
        return ["APPEND", k, val(r)], "exact"
    if c == 10:
        return ["STRLEN", k], "exact"
    if c == 11:
        return [r.choice(["GETRANGE", "SUBSTR"]), k, idx(r), idx(r)], "exact"
    if c == 12:
        off = r.choice(["0", "1", "3", "5", "10", "-1", "100", "536870911", "536870912", "a", "2", "4"])
        v = val(r)
        if off in ("536870911",) and v != "":
            off = "1000"
        return ["SETRANGE", k, off, v], "exact"
    if c in (13, 14):
        return [r.choice(["INCR", "DECR"]), k], "exact"
    if c in (15, 16):
        return [r.choice(["INCRBY", "DECRBY"]), k, num(r)], "exact"
    if c in (17, 18):
        return ["INCRBYFLOAT", k, num(r)], "exact"
    if c == 19:
        return ["SETBIT", k, r.choice(["0", "1", "7", "8", "15", "23", "31", "63", "100", "-1", "4294967296", "a", "3", "9"]), r.choice(["0", "1", "1", "0", "2", "-1", "a"])], "exact"
    if c == 20:
        return ["GETBIT", k, r.choice(["0", "1", "7", "8", "100", "-1", "4294967296", "a"])], "exact"
    if c in (21, 22):
        a = ["BITCOUNT", k]
        if r.random() < 0.8:
            a += [idx(r), idx(r)]
            if r.random() < 0.5:
                a.append(r.choice(["BIT", "BYTE", "bit", "WORD"]))
        elif r.random() < 0.3:
            a.append(idx(r))
        return a, "exact"
    if c in (23, 24):
        a = ["BITPOS", k, r.choice(["0", "1", "1", "0", "2", "a"])]
        if r.random() < 0.8:
            a.append(idx(r))
            if r.random() < 0.7:
                a.append(idx(r))
                if r.random() < 0.5:
                    a.append(r.choice(["BIT", "BYTE", "bit", "X"]))
        return a, "exact"
    if c == 25:
        op = r.choice(["AND", "OR", "XOR", "NOT", "and", "NAND"])
        srcs = keys(r, 1, 1 if op in ("NOT",) and r.random() < 0.8 else 3)
        return ["BITOP", op, key(r)] + srcs, "exact"
    if c in (26, 27):
        a = ["LCS", k, key(r)]
        opts = []
        if r.random() < 0.3:
            opts.append("LEN")
        if r.random() < 0.4:
            opts.append("IDX")
        if r.random() < 0.3:
            opts += ["MINMATCHLEN", r.choice(["0", "1", "2", "3", "-1", "a"])]
        if r.random() < 0.3:
            opts.append("WITHMATCHLEN")
        r.shuffle(opts)
        return a + opts, "exact"
    if c == 28:
        a = [r.choice(["BITFIELD", "BITFIELD", "BITFIELD_RO"]), k]
        for _ in range(r.randint(1, 3)):
            t = r.choice(["u8", "i8", "u1", "i16", "u63", "i64", "u64", "i65", "u0", "x8", "i1", "u32", "i32"])
            off = r.choice(["0", "1", "7", "#1", "#0", "-1", "100", "a", "#2"])
            op = r.choice(["GET", "SET", "INCRBY", "OVERFLOW"])
            if op == "GET":
                a += ["GET", t, off]
            elif op == "SET":
                a += ["SET", t, off, num(r)]
            elif op == "INCRBY":
                a += ["INCRBY", t, off, num(r)]
            else:
                a += ["OVERFLOW", r.choice(["WRAP", "SAT", "FAIL", "BAD"])]
        return a, "exact"
    if c == 29:
        return ["SET", k, r.choice(NUMS)], "exact"
    if c == 30:
        return ["SET", k, r.choice(["\xff\xf0\x00", "\x80", "\x00\x00\x00\x01", "\xaa\x55", "abc", "\xff\xff",
                                    "\x00", "\xff", "\x0f\xf0"])], "exact"
    if c == 31:
        return ["OBJECT", "ENCODING", k], "enc"
    if c == 32:
        return ["LCS", k, key(r), "IDX", "MINMATCHLEN", r.choice(["0", "1", "2"]), "WITHMATCHLEN"], "exact"
    return g_set(r)


def g_keys(r):
    k = key(r)
    c = r.randrange(30)
    if c in (0, 1):
        return [r.choice(["DEL", "UNLINK", "EXISTS", "TOUCH"])] + keys(r), "exact"
    if c in (2, 3, 4, 5):
        cmd = r.choice(["EXPIRE", "PEXPIRE", "EXPIREAT", "PEXPIREAT"])
        v = expv(r)
        if cmd == "PEXPIREAT" and r.random() < 0.5:
            v = r.choice([FARMS, str(int(FARMS) + 5000), str(int(FARMS) - 5000), "1000"])
        if cmd == "EXPIREAT" and r.random() < 0.5:
            v = r.choice([FAR, str(int(FAR) + 5), str(int(FAR) - 5)])
        a = [cmd, k, v]
        if r.random() < 0.6:
            a.append(r.choice(["NX", "XX", "GT", "LT", "nx", "gt"]))
            if r.random() < 0.2:
                a.append(r.choice(["NX", "XX", "GT", "LT", "FOO"]))
        return a, "exact"
    if c in (6, 7):
        return [r.choice(["TTL", "PTTL"]), k], "ttl"
    if c == 8:
        return [r.choice(["EXPIRETIME", "PEXPIRETIME"]), k], "ttl"
    if c == 9:
        return ["PERSIST", k], "exact"
    if c in (10, 11):
        return [r.choice(["RENAME", "RENAMENX"]), k, key(r)], "exact"
    if c in (12, 13):
        a = ["COPY", k, key(r)]
        if r.random() < 0.5:
            a.append("REPLACE")
        if r.random() < 0.2:
            a += ["DB", r.choice(["0", "1", "a", "-1", "16"])]
        if r.random() < 0.05:
            a.append("FOO")
        return a, "exact"
    if c in (14, 15):
        return ["TYPE", k], "exact"
    if c == 16:
        return ["OBJECT", "ENCODING", k], "enc"
    if c == 17:
        return ["DBSIZE"], "exact"
    if c == 18:
        return ["KEYS", r.choice(["*", "k*", "k[0-3]", "k?", "*1", "[^k]*", "k[!1]", "\\k*", "k[1-", ""])], "sorted"
    if c == 19:
        a = ["SCAN", "0", "COUNT", "1000"]
        if r.random() < 0.4:
            a += ["MATCH", r.choice(["k[0-3]", "*", "k1*", "x*"])]
        if r.random() < 0.4:
            a += ["TYPE", r.choice(["string", "list", "set", "zset", "hash", "stream", "foo"])]
        return a, "scan"
    if c == 20:
        return ["RANDOMKEY"], "rand:randomkey"
    if c in (21, 22, 23):
        a = [r.choice(["SORT", "SORT", "SORT_RO"]), k]
        if r.random() < 0.3:
            a += ["BY", r.choice(["nosort", "k*", "w_*", "k1"])]
        if r.random() < 0.3:
            a += ["LIMIT", small(r), small(r)]
        if r.random() < 0.2:
            a += ["GET", r.choice(["#", "k*", "k*->f0"])]
        if r.random() < 0.4:
            a.append(r.choice(["ASC", "DESC"]))
        if r.random() < 0.4:
            a.append("ALPHA")
        if a[0] == "SORT" and r.random() < 0.2:
            a += ["STORE", key(r)]
        return a, "exact"
    if c == 24:
        return ["SELECT", "0"], "exact"
    if c == 25:
        return ["OBJECT", "REFCOUNT", k], "refcount"
    return ["EXISTS"] + keys(r), "exact"


def multi_pop(r, cmd, ends):
    """LMPOP / ZMPOP numkeys key… end [COUNT n]: numkeys usually right, sometimes not."""
    ks = keys(r, 1, 3)
    a = [cmd, r.choice([str(len(ks))] * 5 + ["0", "-1", str(len(ks) + 1)])] + ks + [r.choice(ends)]
    if r.random() < 0.5:
        a += ["COUNT", r.choice(["1", "2", "5", "0", "-1", "a"])]
    return a, "exact"


def random_picks(r, cmd, k, with_word):
    """HRANDFIELD / SRANDMEMBER / ZRANDMEMBER key [count [WITH…]]: counts of every sign and edge."""
    a = [cmd, k]
    if r.random() < 0.8:
        a.append(r.choice(["0", "1", "2", "-1", "-3", "5", "-10", "10", "a", "-9223372036854775808",
                           "9223372036854775807", "3", "-5"]))
        if with_word and r.random() < 0.5:
            a.append(with_word)
    return a, "rand:" + cmd.lower()


def g_hash(r):
    k = key(r)
    c = r.randrange(24)
    f = r.choice(FIELDS)
    if c in (0, 1, 2):
        a = [r.choice(["HSET", "HSET", "HMSET"]), k]
        for _ in range(r.randint(1, 3)):
            a += [r.choice(FIELDS), val(r)]
        if r.random() < 0.05:
            a.append("f")
        return a, "exact"
    if c == 3:
        return ["HSETNX", k, f, val(r)], "exact"
    if c == 4:
        return ["HGET", k, f], "exact"
    if c == 5:
        return ["HMGET", k] + [r.choice(FIELDS) for _ in range(r.randint(1, 3))], "exact"
    if c == 6:
        return ["HDEL", k] + [r.choice(FIELDS) for _ in range(r.randint(1, 3))], "exact"
    if c == 7:
        return ["HLEN", k], "exact"
    if c == 8:
        return ["HSTRLEN", k, f], "exact"
    if c == 9:
        return ["HEXISTS", k, f], "exact"
    if c in (10, 11):
        return ["HINCRBY", k, f, num(r)], "exact"
    if c in (12, 13, 14):
        return ["HINCRBYFLOAT", k, f, num(r)], "exact"
    if c in (15, 16):
        return [r.choice(["HKEYS", "HVALS", "HGETALL"]), k], "hashorder"
    if c in (17, 18, 19):
        return random_picks(r, "HRANDFIELD", k, "WITHVALUES")
    if c == 20:
        return ["OBJECT", "ENCODING", k], "enc"
    if c == 21:
        return ["HSET", k, r.choice(FIELDS), "v" * r.choice([64, 65])], "exact"
    return ["HGET", k, f], "exact"


def g_set_t(r):
    k = key(r)
    c = r.randrange(24)
    if c in (0, 1, 2):
        return ["SADD", k] + [mem(r) for _ in range(r.randint(1, 4))], "exact"
    if c == 3:
        return ["SREM", k] + [mem(r) for _ in range(r.randint(1, 3))], "exact"
    if c == 4:
        return ["SCARD", k], "exact"
    if c == 5:
        return ["SISMEMBER", k, mem(r)], "exact"
    if c == 6:
        return ["SMISMEMBER", k] + [mem(r) for _ in range(r.randint(1, 3))], "exact"
    if c == 7:
        return ["SMEMBERS", k], "sorted"
    if c in (8, 9):
        return [r.choice(["SINTER", "SUNION", "SDIFF"])] + keys(r), "sorted"
    if c in (10, 11):
        return [r.choice(["SINTERSTORE", "SUNIONSTORE", "SDIFFSTORE"]), key(r)] + keys(r), "exact"
    if c in (12, 13):
        ks = keys(r)
        a = ["SINTERCARD", r.choice([str(len(ks))] * 5 + ["0", "-1", str(len(ks) + 1), "a"])] + ks
        if r.random() < 0.6:
            a += ["LIMIT", r.choice(["0", "1", "2", "3", "-1", "a", "100"])]
        return a, "exact"
    if c in (14, 15):
        return ["SMOVE", k, key(r), mem(r)], "exact"
    if c in (16, 17):
        a = ["SPOP", k]
        if r.random() < 0.7:
            a.append(r.choice(["0", "1", "2", "3", "-1", "100", "a", "1.5"]))
        return a, "spop"
    if c in (18, 19):
        return random_picks(r, "SRANDMEMBER", k, None)
    if c == 20:
        return ["SADD", k] + [str(r.randint(-5, 20)) for _ in range(r.randint(1, 4))], "exact"
    return ["SMISMEMBER", k, mem(r)], "exact"


def g_list(r):
    k = key(r)
    c = r.randrange(30)
    if c in (0, 1, 2, 3):
        return [r.choice(["LPUSH", "RPUSH", "LPUSHX", "RPUSHX"]), k] + [mem(r) for _ in range(r.randint(1, 4))], "exact"
    if c in (4, 5):
        a = [r.choice(["LPOP", "RPOP"]), k]
        if r.random() < 0.5:
            a.append(r.choice(["0", "1", "2", "5", "-1", "a", "100"]))
        return a, "exact"
    if c == 6:
        return ["LLEN", k], "exact"
    if c == 7:
        return ["LINDEX", k, idx(r)], "exact"
    if c == 8:
        return ["LSET", k, idx(r), mem(r)], "exact"
    if c in (9, 10):
        return ["LRANGE", k, idx(r), idx(r)], "exact"
    if c == 11:
        return ["LTRIM", k, idx(r), idx(r)], "exact"
    if c in (12, 13):
        return ["LINSERT", k, r.choice(["BEFORE", "AFTER", "before", "MIDDLE"]), mem(r), mem(r)], "exact"
    if c in (14, 15):
        return ["LREM", k, r.choice(["0", "1", "-1", "2", "-2", "5", "-5", "a"]), mem(r)], "exact"
    if c in (16, 17, 18):
        a = ["LPOS", k, mem(r)]
        opts = []
        if r.random() < 0.6:
            opts += ["RANK", r.choice(["1", "-1", "2", "-2", "0", "3", "a", "-9223372036854775808",
                                       "9223372036854775807"])]
        if r.random() < 0.5:
            opts += ["COUNT", r.choice(["0", "1", "2", "-1", "5"])]
        if r.random() < 0.4:
            opts += ["MAXLEN", r.choice(["0", "1", "2", "3", "-1"])]
        r.shuffle(opts) if r.random() < 0.1 else None
        return a + opts, "exact"
    if c in (19, 20):
        return ["LMOVE", k, key(r), r.choice(["LEFT", "RIGHT"]), r.choice(["LEFT", "RIGHT", "UP"])], "exact"
    if c == 21:
        return ["RPOPLPUSH", k, key(r)], "exact"
    if c in (22, 23):
        return multi_pop(r, "LMPOP", ["LEFT", "RIGHT", "left", "UP"])
    if c == 24:
        return ["BLMPOP", "0.01", "1", k, "LEFT"], "exact"
    if c == 25:
        return ["OBJECT", "ENCODING", k], "enc"
    return ["RPUSH", k] + [r.choice(["a", "b", "c"]) for _ in range(r.randint(1, 5))], "exact"


def g_zset(r):
    k = key(r)
    c = r.randrange(48)
    if c in (0, 1, 2, 3, 4):
        a = ["ZADD", k]
        flags = []
        for fl in ["NX", "XX", "GT", "LT", "CH", "INCR"]:
            if r.random() < 0.18:
                flags.append(fl)
        a += flags
        for _ in range(1 if "INCR" in flags and r.random() < 0.8 else r.randint(1, 3)):
            a += [r.choice(SCORES), mem(r)]
        if r.random() < 0.04:
            a.append("x")
        return a, "exact"
    if c in (5, 6):
        return ["ZINCRBY", k, r.choice(SCORES), mem(r)], "exact"
    if c == 7:
        return ["ZSCORE", k, mem(r)], "exact"
    if c == 8:
        return ["ZMSCORE", k] + [mem(r) for _ in range(r.randint(1, 3))], "exact"
    if c == 9:
        return ["ZCARD", k], "exact"
    if c == 10:
        return ["ZCOUNT", k, r.choice(RANGE_SCORES), r.choice(RANGE_SCORES)], "exact"
    if c == 11:
        return ["ZLEXCOUNT", k, r.choice(LEX), r.choice(LEX)], "exact"
    if c == 12:
        a = [r.choice(["ZRANK", "ZREVRANK"]), k, mem(r)]
        return a, "exact"
    if c in (13, 14, 15, 16, 17):
        mode = r.choice(["idx", "BYSCORE", "BYLEX"])
        a = ["ZRANGE", k]
        rev = r.random() < 0.4
        if mode == "idx":
            a += [idx(r), idx(r)]
        elif mode == "BYSCORE":
            a += [r.choice(RANGE_SCORES), r.choice(RANGE_SCORES), "BYSCORE"]
        else:
            a += [r.choice(LEX), r.choice(LEX), "BYLEX"]
        if rev:
            a.append("REV")
        if r.random() < 0.4:
            a += ["LIMIT", small(r), small(r)]
        if r.random() < 0.4:
            a.append("WITHSCORES")
        return a, "exact"
    if c in (18, 19):
        cmd = r.choice(["ZRANGEBYSCORE", "ZREVRANGEBYSCORE"])
        a = [cmd, k, r.choice(RANGE_SCORES), r.choice(RANGE_SCORES)]
        if r.random() < 0.4:
            a.append("WITHSCORES")
        if r.random() < 0.4:
            a += ["LIMIT", small(r), small(r)]
        return a, "exact"
    if c in (20, 21):
        cmd = r.choice(["ZRANGEBYLEX", "ZREVRANGEBYLEX"])
        a = [cmd, k, r.choice(LEX), r.choice(LEX)]
        if r.random() < 0.4:
            a += ["LIMIT", small(r), small(r)]
        return a, "exact"
    if c == 22:
        return ["ZREVRANGE", k, idx(r), idx(r)] + (["WITHSCORES"] if r.random() < 0.5 else []), "exact"
    if c in (23, 24):
        mode = r.choice(["idx", "BYSCORE", "BYLEX"])
        a = ["ZRANGESTORE", key(r), k]
        if mode == "idx":
            a += [idx(r), idx(r)]
        elif mode == "BYSCORE":
            a += [r.choice(RANGE_SCORES), r.choice(RANGE_SCORES), "BYSCORE"]
        else:
            a += [r.choice(LEX), r.choice(LEX), "BYLEX"]
        if r.random() < 0.3:
            a.append("REV")
        if r.random() < 0.4:
            a += ["LIMIT", small(r), small(r)]
        if r.random() < 0.1:
            a.append("WITHSCORES")
        return a, "exact"
    if c == 25:
        return ["ZREM", k] + [mem(r) for _ in range(r.randint(1, 3))], "exact"
    if c == 26:
        return ["ZREMRANGEBYRANK", k, idx(r), idx(r)], "exact"
    if c == 27:
        return ["ZREMRANGEBYSCORE", k, r.choice(RANGE_SCORES), r.choice(RANGE_SCORES)], "exact"
    if c == 28:
        return ["ZREMRANGEBYLEX", k, r.choice(LEX), r.choice(LEX)], "exact"
    if c in (29, 30):
        a = [r.choice(["ZPOPMIN", "ZPOPMAX"]), k]
        if r.random() < 0.6:
            a.append(r.choice(["0", "1", "2", "5", "-1", "a", "100"]))
        return a, "exact"
    if c in (31, 32):
        return multi_pop(r, "ZMPOP", ["MIN", "MAX", "min", "MID"])
    if c in (33, 34, 35, 36, 37):
        cmd = r.choice(["ZINTER", "ZUNION", "ZDIFF", "ZINTERSTORE", "ZUNIONSTORE", "ZDIFFSTORE"])
        ks = keys(r, 1, 3)
        nk = r.choice([str(len(ks))] * 8 + ["0", "-1", str(len(ks) + 1), "a"])
        a = [cmd] + ([key(r)] if cmd.endswith("STORE") else []) + [nk] + ks
        if cmd not in ("ZDIFF", "ZDIFFSTORE") or r.random() < 0.1:
            if r.random() < 0.5:
                a += ["WEIGHTS"] + [r.choice(["1", "2", "0", "-1", "0.5", "inf", "-inf", "nan", "a", "1e308",
                                              "-0"]) for _ in range(len(ks) if r.random() < 0.9 else len(ks) + 1)]
            if r.random() < 0.5:
                a += ["AGGREGATE", r.choice(["SUM", "MIN", "MAX", "sum", "AVG"])]
        if not cmd.endswith("STORE") and r.random() < 0.5:
            a.append("WITHSCORES")
        return a, "exact"
    if c == 38:
        ks = keys(r, 1, 3)
        a = ["ZINTERCARD", r.choice([str(len(ks))] * 5 + ["0", "-1", str(len(ks) + 1)])] + ks
        if r.random() < 0.5:
            a += ["LIMIT", r.choice(["0", "1", "2", "-1", "a"])]
        return a, "exact"
    if c in (39, 40):
        return random_picks(r, "ZRANDMEMBER", k, "WITHSCORES")
    if c == 41:
        return ["ZADD", k] + sum([[str(r.randint(-3, 3)), r.choice("abcdef")] for _ in range(r.randint(1, 4))], []), "exact"
    if c == 42:
        return ["ZADD", k, "0", r.choice(["a", "b", "c", "aa", "ab", "", "\xff", "B"])], "exact"
    if c == 43:
        return ["ZRANGE", k, "0", "-1", "WITHSCORES"], "exact"
    return ["ZSCORE", k, mem(r)], "exact"


def g_pf(r):
    k = key(r)
    c = r.randrange(4)
    if c == 0:
        return ["PFADD", k] + [mem(r) for _ in range(r.randint(0, 3))], "exact"
    if c == 1:
        return ["PFCOUNT"] + keys(r, 1, 2), "exact"
    if c == 2:
        return ["PFMERGE", k] + keys(r, 0, 2), "exact"
    return ["PFADD", k, mem(r)], "exact"


# ------------------------------------------------------------------ streams
# Stream IDs are mostly explicit and in the far future (year 2255): after one of them, `*` and
# `<ms>-*` give the next ID from the last one, the same on both servers. `*` on a stream whose
# last ID is in the past takes the clock's time, which the servers read a moment apart: see
# compare()'s "xadd" kind.
STREAM_MS = 9000000000000
GROUPS = ["g1", "g2"]
CONSUMERS = ["c1", "c2", "c3"]
SFIELDS = ["f0", "f1", "a", "", "name"]
ID_EDGES = ["0-0", "0-1", "0", "1", "1-1", "18446744073709551615-18446744073709551615", "18446744073709551615",
            "18446744073709551616", "-1", "abc", "", "1-", "9000000000003-a", "9000000000003-18446744073709551615",
            " 1", "0x10", "1.5", "9000000000003-1-1", "-0", "+1"]


def sid(r):
    """A stream ID: mostly <ms>-<seq> near STREAM_MS, sometimes ms alone, sometimes an edge."""
    c = r.random()
    ms = STREAM_MS + r.randint(0, 6)
    if c < 0.65:
        return "%d-%d" % (ms, r.randint(0, 3))
    if c < 0.85:
        return str(ms)
    return r.choice(ID_EDGES)


def sbound(r):
    """An XRANGE bound: -, +, an ID, or an exclusive (ID."""
    c = r.random()
    if c < 0.2:
        return r.choice(["-", "+"])
    if c < 0.4:
        return "(" + r.choice([sid(r), "-", "+", "0-0", "18446744073709551615-18446744073709551615"])
    return sid(r)


def trim_opts(r):
    """MAXLEN|MINID [=|~] threshold [LIMIT n], sometimes malformed."""
    a = [r.choice(["MAXLEN", "MAXLEN", "MINID", "maxlen"])]
    op = r.choice(["", "", "=", "~", "~"])
    if op:
        a.append(op)
    if a[0].upper() == "MAXLEN":
        a.append(r.choice(["0", "1", "2", "3", "5", "-1", "a", "100"]))
    else:
        a.append(sid(r))
    if r.random() < 0.3:
        a += ["LIMIT", r.choice(["0", "1", "2", "10", "-1", "a"])]
    return a


def sfields(r):
    a = []
    for _ in range(r.randint(1, 3)):
        a += [r.choice(SFIELDS), val(r) if r.random() < 0.5 else r.choice(["v", "1", "x"])]
    if r.random() < 0.04:
        a.append("f")  # odd count: an error
    return a


def xadd(r, k, auto=True):
    """XADD: explicit IDs mostly, `*` and `<ms>-*` (kind "xadd" if `*` may read the clock)."""
    a = ["XADD", k]
    if r.random() < 0.12:
        a.append("NOMKSTREAM")
    if r.random() < 0.3:
        a += trim_opts(r)
    c = r.random()
    if c < 0.7:
        i = sid(r)
    elif c < 0.85 or not auto:
        i = "%d-*" % (STREAM_MS + r.randint(0, 6))
    else:
        i = r.choice(["*", "*", "5-*", "0-*"])
    return a + [i] + sfields(r), ("xadd" if i == "*" else "exact")


def xread_ids(r, n, dollar=True):
    return [r.choice(["0", "0-0", "$", sid(r), sid(r)] if dollar else ["0", sid(r), sid(r)]) for _ in range(n)]


def g_stream(r):
    k = key(r)
    g = r.choice(GROUPS)
    cn = r.choice(CONSUMERS)
    c = r.randrange(44)
    if c < 9:
        return xadd(r, k)
    if c == 9:
        return ["XLEN", k], "exact"
    if c in (10, 11, 12):
        cmd = r.choice(["XRANGE", "XREVRANGE"])
        a = [cmd, k, sbound(r), sbound(r)]
        if r.random() < 0.3:
            a = [cmd, k] + (["-", "+"] if cmd == "XRANGE" else ["+", "-"])
        if r.random() < 0.4:
            a += ["COUNT", r.choice(["0", "1", "2", "3", "-1", "a", "100"])]
        return a, "exact"
    if c == 13:
        return ["XDEL", k] + [sid(r) for _ in range(r.randint(1, 3))], "exact"
    if c == 14:
        return ["XTRIM", k] + trim_opts(r), "exact"
    if c in (15, 16):
        ks = keys(r, 1, 2)
        a = ["XREAD"]
        if r.random() < 0.4:
            a += ["COUNT", r.choice(["0", "1", "2", "-1", "a"])]
        ids = xread_ids(r, len(ks) if r.random() < 0.95 else len(ks) + 1)
        return a + ["STREAMS"] + ks + ids, "exact"
    if c in (17, 18):
        a = ["XGROUP", "CREATE", k, g, r.choice(["$", "0", "0-0", sid(r), sid(r)])]
        if r.random() < 0.4:
            a.append("MKSTREAM")
        if r.random() < 0.25:
            a += ["ENTRIESREAD", r.choice(["0", "1", "2", "5", "-1", "-2", "a"])]
        return a, "exact"
    if c == 19:
        return ["XGROUP", r.choice(["CREATECONSUMER", "DELCONSUMER", "CREATECONSUMER"]), k, g, cn], "exact"
    if c == 20:
        return ["XGROUP", "DESTROY", k, g], "exact"
    if c == 21:
        a = ["XGROUP", "SETID", k, g, r.choice(["$", "0", sid(r)])]
        if r.random() < 0.3:
            a += ["ENTRIESREAD", r.choice(["0", "1", "3", "-1", "a"])]
        return a, "exact"
    if c in (22, 23, 24, 25):
        ks = [k] if r.random() < 0.8 else keys(r, 1, 2)
        a = ["XREADGROUP", "GROUP", g, cn]
        if r.random() < 0.4:
            a += ["COUNT", r.choice(["1", "2", "0", "-1", "3"])]
        if r.random() < 0.2:
            a.append("NOACK")
        ids = [">" if r.random() < 0.7 else r.choice(["0", "0-0", sid(r), "$"]) for _ in ks]
        return a + ["STREAMS"] + ks + ids, "exact"
    if c in (26, 27):
        return ["XACK", k, g] + [sid(r) for _ in range(r.randint(1, 3))], "exact"
    if c == 28:
        return ["XPENDING", k, g], "exact"
    if c in (29, 30):
        a = ["XPENDING", k, g]
        if r.random() < 0.3:
            # Idle thresholds 0 or far above a sequence's length: which entries pass is then
            # the same on both servers, which answer a moment apart.
            a += ["IDLE", r.choice(["0", "100000000", "-1", "a"])]
        a += [sbound(r), sbound(r), r.choice(["10", "1", "2", "0", "-1", "a"])]
        if r.random() < 0.4:
            a.append(cn)
        return a, "xpending"
    if c in (31, 32):
        # Minimum idle times 0 (everything pending qualifies) or an hour (only what IDLE/TIME
        # made that old): the same on both servers however long a sequence takes.
        a = ["XCLAIM", k, g, cn, r.choice(["0", "0", "3600000", "-1", "a"])]
        a += [sid(r) for _ in range(r.randint(1, 3))]
        opts = []
        if r.random() < 0.2:
            opts += ["IDLE", r.choice(["0", "100", "7200000", "-1"])]
        if r.random() < 0.15:
            opts += ["TIME", r.choice(["1000", FARMS, "-1"])]
        if r.random() < 0.2:
            opts += ["RETRYCOUNT", r.choice(["0", "5", "-1"])]
        if r.random() < 0.25:
            opts.append("FORCE")
        if r.random() < 0.4:
            opts.append("JUSTID")
        if r.random() < 0.15:
            opts += ["LASTID", sid(r)]
        r.shuffle(opts) if r.random() < 0.2 else None
        return a + opts, "exact"
    if c in (33, 34):
        a = ["XAUTOCLAIM", k, g, cn, r.choice(["0", "0", "3600000", "-1"]), r.choice(["0", "0-0", "-", sid(r)])]
        if r.random() < 0.4:
            a += ["COUNT", r.choice(["1", "2", "10", "0", "-1"])]
        if r.random() < 0.4:
            a.append("JUSTID")
        return a, "exact"
    if c in (35, 36):
        a = ["XINFO", "STREAM", k]
        if r.random() < 0.4:
            a.append("FULL")
            if r.random() < 0.5:
                a += ["COUNT", r.choice(["0", "1", "2", "-1", "a"])]
        return a, "xinfo"
    if c == 37:
        return ["XINFO", "GROUPS", k], "xinfo"
    if c == 38:
        return ["XINFO", "CONSUMERS", k, g], "xinfo"
    if c == 39:
        a = ["XSETID", k, sid(r)]
        if r.random() < 0.4:
            a += ["ENTRIESADDED", r.choice(["0", "1", "3", "10", "-1"])]
        if r.random() < 0.4:
            a += ["MAXDELETEDID", sid(r)]
        return a, "exact"
    if c == 40:
        return ["XADD", k, "%d-%d" % (STREAM_MS + r.randint(0, 3), r.randint(0, 3)), "f", r.choice(["1", "2"])], "exact"
    if c == 41:
        return ["XGROUP", "CREATE", k, g, r.choice(["0", "$"]), "MKSTREAM"], "exact"
    if c == 42:
        return ["XREADGROUP", "GROUP", g, cn, "STREAMS", k, ">"], "exact"
    return ["XRANGE", k, "-", "+"], "exact"


def g_arity(r):
    """Take another command and truncate / extend its argument list."""
    g = r.choice([g_strings, g_keys, g_hash, g_set_t, g_list, g_zset, g_set, g_stream])
    a, kind = g(r)
    if r.random() < 0.6:
        a = a[:r.randrange(1, len(a))] if len(a) > 1 else a
    else:
        a = a + [val(r) for _ in range(r.randint(1, 2))]
    if kind.startswith("rand") or kind in ("spop",):
        return a, kind
    if kind in ("sorted", "hashorder", "scan", "ttl", "enc", "refcount", "xadd", "xinfo", "xpending"):
        return a, kind
    return a, "exact"


def g_misc(r):
    c = r.randrange(6)
    if c == 0:
        return [r.choice(["FOO", "GETT", "set"]) , key(r)], "exact"
    if c == 1:
        return ["ECHO", val(r)], "exact"
    if c == 2:
        return ["PING"] + ([val(r)] if r.random() < 0.5 else []), "exact"
    if c == 3:
        return ["EXISTS", key(r)], "exact"
    if c == 4:
        return ["TYPE", key(r)], "exact"
    return ["STRLEN", key(r)], "exact"


FAMILIES = {
    "strings": (g_strings, 6),
    "set": (g_set, 2),
    "keys": (g_keys, 4),
    "hash": (g_hash, 4),
    "sets": (g_set_t, 4),
    "list": (g_list, 4),
    "zset": (g_zset, 6),
    "pf": (g_pf, 0.5),
    "stream": (g_stream, 5),
    "arity": (g_arity, 1.5),
    "misc": (g_misc, 0.5),
}


def pick_cmd(r, fams):
    names = list(fams)
    weights = [FAMILIES[n][1] for n in names]
    n = r.choices(names, weights)[0]
    return FAMILIES[n][0](r)


def plain(a, kind):
    """A command that MULTI blocks and the other connection's steps may hold: exact replies,
    nothing that blocks, reads a clock or depends on the order of ties."""
    return kind == "exact" and a[0] not in ("BLMPOP", "SELECT", "DBSIZE", "GETEX", "SORT", "SORT_RO") \
        and "LEX" not in a[0] and "BYLEX" not in a and "~" not in a  # `~`: compare()'s XTRIM


def gen_multi(r, fams):
    """MULTI block with possibly queued errors."""
    cmds = [(["MULTI"], "exact")]
    for _ in range(r.randint(0, 5)):
        if r.random() < 0.1:
            a = [r.choice(["FOO", "GET", "SET", "ZADD", "EXEC2"])]  # unknown or wrong arity
            cmds.append((a, "exact"))
        else:
            a, kind = pick_cmd(r, fams)
            if not plain(a, kind):
                continue
            cmds.append((a, "exact"))
    if r.random() < 0.05:
        cmds.append((["MULTI"], "exact"))
    if r.random() < 0.05:
        cmds.append((["WATCH", key(r)], "exact"))
    cmds.append(([r.choice(["EXEC"] * 9 + ["DISCARD"])], "exact"))
    return cmds


# ------------------------------------------------------------------ two connections
class Scenario(list):
    """Commands over two or three connections to each server (A, the sequence's own, B and C),
    run on Redis and then on Strata as one step of a sequence. steps holds (who, args, kind):
    who is A or B (a command and its reply), B< or C< (a blocking command sent; the run goes on
    once the server counts it among blocked_clients or its reply has come), B>long, B>short,
    C>long, C>short (the reply to it: see Runner.settle), or sleep (args[0] seconds). The list
    is what reports print."""

    def __init__(self, name, steps):
        self.name = name
        self.steps = steps
        toks = ["<%s>" % name]
        for who, a, _kind in steps:
            if who[1:2] == ">":
                toks.append("@" + who)  # the reply to a blocking command
            elif who == "sleep":
                toks += ["@sleep", a[0]]
            else:
                toks += ["@" + who] + [str(x) for x in a]
        super().__init__(toks)


def block_timeout(r, long_, stream):
    """A timeout: long ones end by a wake-up or CLIENT UNBLOCK, short ones expire; a bad one
    is an error at once."""
    if r.random() < 0.05:
        return r.choice(["-1", "a", "0.1x", ""] if not stream else ["-1", "a", "1.5", ""])
    if long_:
        return r.choice(["0", "5", "10"]) if not stream else r.choice(["0", "5000"])
    return r.choice(["0.05", "0.1", "0.2", "0.3"]) if not stream else r.choice(["50", "100", "200"])


def blocking_cmd(r, typ, ks, t, g, cn):
    if typ == "list":
        c = r.randrange(5)
        if c == 0:
            return [r.choice(["BLPOP", "BRPOP"])] + ks + [t]
        if c == 1:
            return ["BLMOVE", ks[0], key(r), r.choice(["LEFT", "RIGHT"]), r.choice(["LEFT", "RIGHT"]), t]
        if c == 2:
            return ["BRPOPLPUSH", ks[0], key(r), t]
        a = ["BLMPOP", t, str(len(ks))] + ks + [r.choice(["LEFT", "RIGHT"])]
        if r.random() < 0.5:
            a += ["COUNT", r.choice(["1", "2", "3", "0"])]
        return a
    if typ == "zset":
        if r.random() < 0.6:
            return [r.choice(["BZPOPMIN", "BZPOPMAX"])] + ks + [t]
        a = ["BZMPOP", t, str(len(ks))] + ks + [r.choice(["MIN", "MAX"])]
        if r.random() < 0.5:
            a += ["COUNT", r.choice(["1", "2", "3", "0"])]
        return a
    count = ["COUNT", r.choice(["1", "2", "0"])] if r.random() < 0.4 else []
    if typ == "stream":
        ids = [r.choice(["$", "$", "$", "0", sid(r)]) for _ in ks]
        return ["XREAD"] + count + ["BLOCK", t, "STREAMS"] + ks + ids
    noack = ["NOACK"] if r.random() < 0.2 else []
    ids = [">" if r.random() < 0.9 else r.choice(["0", sid(r)]) for _ in ks]
    return ["XREADGROUP", "GROUP", g, cn] + count + noack + ["BLOCK", t, "STREAMS"] + ks + ids


def wake_writes(r, typ, ks, g):
    """What A writes while B waits: to B's keys (waking it, or not: a wrong type, a DEL, a
    MULTI that adds and takes away again) or to others."""
    out = []
    for _ in range(r.randint(0, 3)):
        k = r.choice(ks) if r.random() < 0.75 else key(r)
        c = r.random()
        if c < 0.12:
            out.append(r.choice([["SET", k, "x"], ["DEL", k], ["EXPIRE", k, "100"], ["RENAME", key(r), k]]))
            continue
        if c < 0.24:
            if typ == "list":
                body = [["RPUSH", k, "a"], ["LPOP", k]]
            elif typ == "zset":
                body = [["ZADD", k, "1", "a"], ["ZREM", k, "a"]]
            else:
                i = "%d-*" % (STREAM_MS + 7)
                body = [["XADD", k, i, "f", "v"], ["DEL", k]] if r.random() < 0.5 else \
                       [["XADD", k, i, "f", "v"], ["XTRIM", k, "MAXLEN", "0"]]
            if r.random() < 0.4:
                body = body[:1] + [["RPUSH", key(r), "z"]]
            out += [["MULTI"]] + body + [["EXEC"]]
            continue
        if typ == "list":
            vals = [r.choice(["a", "b", "c", "1", ""]) for _ in range(r.randint(1, 3))]
            out.append(r.choice([["RPUSH", k] + vals, ["LPUSH", k] + vals, ["LPUSHX", k, "x"],
                                 ["LMOVE", key(r), k, "LEFT", "RIGHT"], ["RPUSH", k, "x"]]))
        elif typ == "zset":
            out.append(r.choice([["ZADD", k] + sum([[str(r.randint(-2, 3)), r.choice("abcd")] for _ in range(r.randint(1, 3))], []),
                                 ["ZINCRBY", k, "1", "a"], ["ZADD", k, "XX", "5", "a"], ["ZUNIONSTORE", k, "1", key(r)]]))
        else:
            i = r.choice(["%d-*" % (STREAM_MS + r.randint(0, 8)), sid(r)])
            c2 = r.random()
            if c2 < 0.6:
                out.append(["XADD", k, i, "f", r.choice(["1", "2"])])
            elif c2 < 0.7:
                out.append(["XADD", k, "MAXLEN", "0", i, "f", "1"])
            elif c2 < 0.8:
                out.append(["XGROUP", r.choice(["DESTROY", "CREATE"]), k, g] + (["$"] if r.random() < 0.5 else []))
            elif c2 < 0.9:
                out.append(["XGROUP", "SETID", k, g, r.choice(["0", "$"])])
            else:
                out.append(["XDEL", k, sid(r)])
    # A MULTI's inner commands come out as separate steps, each answered +QUEUED.
    return out


def gen_block(r, fams):
    """A blocking command on B while A writes, or not: BLPOP and friends, BZPOP*, XREAD and
    XREADGROUP BLOCK; timeouts that expire, wake-ups, wrong types."""
    typ = r.choice(["list", "list", "zset", "zset", "stream", "group"])
    long_ = r.random() < 0.6
    ks = keys(r, 1, 3) if r.random() < 0.7 else [key(r)]
    g, cn = r.choice(GROUPS), r.choice(CONSUMERS)
    steps = []
    if r.random() < 0.6:
        steps.append(("A", ["DEL"] + ks, "exact"))  # mostly start empty, so that B waits
    if typ == "group":
        for k in dict.fromkeys(ks):
            if r.random() < 0.85:
                steps.append(("A", ["XGROUP", "CREATE", k, g, r.choice(["$", "$", "0"]), "MKSTREAM"], "exact"))
    t = block_timeout(r, long_, typ in ("stream", "group"))
    steps.append(("B<", blocking_cmd(r, typ, ks, t, g, cn), "exact"))
    if r.random() < 0.3:
        # A second client waiting on (some of) the same keys: Redis serves them in the order
        # they blocked (docs/redis.md: so does Strata, with one I/O thread).
        steps.append(("C<", blocking_cmd(r, typ, [r.choice(ks)] if r.random() < 0.5 else ks, t, g,
                                          r.choice(CONSUMERS)), "exact"))
    blocked = [st for st in steps if st[0].endswith("<")]
    if long_:
        writes = wake_writes(r, typ, ks, g)
        if r.random() < 0.12:
            # Ends B's wait (1), or finds it not waiting (0). $B: B's CLIENT ID on each server.
            writes.insert(r.randint(0, len(writes)), ["CLIENT", "UNBLOCK", "$B"] +
                          r.choice([[], ["TIMEOUT"], ["ERROR"], ["error"], ["FOO"]]))
    else:
        # Only keys B does not wait on: its timeout must be what ends it.
        others = [k for k in KEYS if k not in ks]
        writes = [w for w in wake_writes(r, typ, [r.choice(others)], g) if w[0] in ("MULTI", "EXEC") or
                  all(x not in ks for x in w[1:])] if others else []
        if writes.count(["MULTI"]) != writes.count(["EXEC"]):
            writes = [w for w in writes if w[0] not in ("MULTI", "EXEC")]
    steps += [("A", w, "exact") for w in writes]
    for who, blk, _k in blocked:
        steps.append((who[0] + (">long" if long_ else ">short"), blk, "exact"))
    if r.random() < 0.3:
        steps.append(("A", [r.choice(["LRANGE", "ZRANGE"]), r.choice(ks), "0", "-1"], "exact")
                     if typ in ("list", "zset") else ("A", ["XRANGE", r.choice(ks), "-", "+"], "exact"))
    return Scenario("BLOCK", steps)


# Writes that touch a watched key without changing it, or change it to what it was.
def watch_touches(r, k, v):
    return r.choice([
        ["SET", k, v], ["SET", k, v, "NX"], ["SET", k, v, "XX"], ["SET", k, v, "KEEPTTL"], ["DEL", k], ["UNLINK", k],
        ["EXPIRE", k, "1000"], ["EXPIRE", k, "1000", "NX"], ["PERSIST", k], ["PEXPIRE", k, "0"], ["APPEND", k, ""],
        ["SETRANGE", k, "0", ""], ["INCRBY", k, "0"], ["LPUSHX", k, "a"], ["SADD", k, "a"], ["SREM", k, "zz"],
        ["HSET", k, "f0", v], ["HDEL", k, "zz"], ["ZADD", k, "1", "a"], ["ZADD", k, "NX", "1", "a"], ["ZREM", k, "zz"],
        ["LREM", k, "0", "zz"], ["LTRIM", k, "0", "-1"], ["FLUSHALL"], ["FLUSHDB"], ["GET", k], ["EXISTS", k],
        ["TOUCH", k], ["OBJECT", "ENCODING", k], ["SETBIT", k, "0", "0"], ["PFADD", k], ["PFADD", k, "a"],
        ["XADD", k, "%d-*" % STREAM_MS, "f", "v"], ["XTRIM", k, "MAXLEN", "100"], ["XDEL", k, "1-1"],
        ["RENAME", k, k], ["RENAME", key(r), k], ["COPY", key(r), k, "REPLACE"], ["COPY", k, key(r)],
        ["SWAPDB", "0", "1"], ["MOVE", k, "1"], ["GETDEL", k], ["GETEX", k, "PERSIST"], ["LPOP", k, "0"],
        ["SINTERSTORE", k, key(r)], ["SUNIONSTORE", key(r), k], ["BITOP", "OR", k, k], ["SORT", k, "STORE", key(r)],
        ["MSETNX", k, v, key(r), v], ["HINCRBY", k, "f0", "0"], ["ZINCRBY", k, "0", "a"], ["SMOVE", k, k, "a"],
    ])


# Commands that change a stream's groups move its key's change stamp here, so WATCH sees
# them; Redis invalidates WATCH only for XADD, XDEL, XTRIM and stream creation (docs/redis.md,
# limitations: streams). Left out between WATCH and EXEC.
GROUP_CHANGERS = ("XREADGROUP", "XACK", "XCLAIM", "XAUTOCLAIM", "XGROUP", "XSETID")


def gen_watch(r, fams):
    """WATCH on A, B changing the watched keys (or not, or others, or to the same value, or
    touching without a change), then A's MULTI … EXEC: compares EXEC's nil or results."""
    wk = list(dict.fromkeys(keys(r, 1, 2)))
    v = r.choice(["v", "1", "hello", ""])
    steps = []
    c = r.random()
    if c < 0.1:
        # A key that expires between WATCH and EXEC: Redis 7.0 fails the EXEC (nil). 400 ms
        # and 0.8 s leave room for a slow server to WATCH before the expiry.
        steps += [("A", ["SET", wk[0], v, "PX", "400"], "exact"), ("A", ["WATCH"] + wk, "exact"),
                  ("sleep", ["0.8"], None)]
    elif c < 0.2:
        # A key already expired when WATCHed: its deletion by expiry is no change, a write is.
        steps += [("A", ["SET", wk[0], v, "PX", "1"], "exact"), ("sleep", ["0.05"], None),
                  ("A", ["WATCH"] + wk, "exact")]
        if r.random() < 0.5:
            # Reads and writes that delete it lazily first (Redis: no change), FLUSHDB (the
            # same), writes that then store a value (a change).
            steps.append(("B", r.choice([["SET", wk[0], v], ["DEL", wk[0]], ["EXISTS", wk[0]], ["SET", key(r), v],
                                         ["FLUSHDB"], ["FLUSHALL"], ["GETDEL", wk[0]], ["PERSIST", wk[0]],
                                         ["EXPIRE", wk[0], "100"], ["LPOP", wk[0]], ["GET", wk[0]], ["APPEND", wk[0], "x"],
                                         ["SETNX", wk[0], v], ["INCR", wk[0]]]), "exact"))
    else:
        if r.random() < 0.5:
            steps.append(("A", ["SET", wk[0], v], "exact"))
        elif r.random() < 0.3:
            steps.append(("A", r.choice([["RPUSH", wk[0], "a"], ["SADD", wk[0], "a"], ["ZADD", wk[0], "1", "a"],
                                         ["HSET", wk[0], "f0", v], ["XADD", wk[0], "%d-1" % STREAM_MS, "f", v]]),
                          "exact"))
        steps.append(("A", ["WATCH"] + wk, "exact"))
        if r.random() < 0.15:
            steps.append(("A", ["WATCH", key(r)], "exact"))
        for _ in range(r.choice([0, 1, 1, 1, 2, 2, 3])):
            who = "B" if r.random() < 0.85 else "A"
            if r.random() < 0.5:
                a = watch_touches(r, r.choice(wk), v)
            else:
                a, kind = pick_cmd(r, fams)
                if not plain(a, kind):
                    continue
            if a[0] in GROUP_CHANGERS:
                continue
            steps.append((who, a, "exact"))
        if r.random() < 0.1:
            steps.append(("A", ["UNWATCH"], "exact"))
    steps.append(("A", ["MULTI"], "exact"))
    if r.random() < 0.05:
        steps.append(("A", ["WATCH", wk[0]], "exact"))  # not allowed inside MULTI
    for _ in range(r.randint(0, 3)):
        a, kind = pick_cmd(r, fams)
        if plain(a, kind):
            steps.append(("A", a, "exact"))
    steps.append(("A", ["GET", wk[0]], "exact"))
    steps.append(("A", [r.choice(["EXEC"] * 9 + ["DISCARD"])], "exact"))
    if r.random() < 0.2:
        steps += [("A", ["EXEC"], "exact")]  # no MULTI any more
    # OBJECT ENCODING among them is compared as elsewhere (compare()'s "enc" kind).
    steps = [(who, a, "enc" if who in ("A", "B") and [str(x).upper() for x in a[:2]] == ["OBJECT", "ENCODING"]
              else kind) for who, a, kind in steps]
    return Scenario("WATCH", steps)


SCENARIOS = {"blocking": gen_block, "watch": gen_watch}


# A negative count asks HRANDFIELD, SRANDMEMBER and ZRANDMEMBER for that many picks with
# repeats: Redis 7.0 builds the whole reply, so -4294967297 runs it out of memory (it was
# OOM-killed). -2^63 is safe (refused before anything is built); other counts below this
# bound are replaced. Strata refuses the huge ones (docs/redis.md, limitations: ZRANDMEMBER).
MIN_RANDOM_COUNT = -1000
LONG_MIN = "-9223372036854775808"


def tame(args):
    """args, with a huge negative count of a random-pick command replaced by -10."""
    if len(args) >= 3 and args[0].upper() in ("HRANDFIELD", "SRANDMEMBER", "ZRANDMEMBER") and args[2] != LONG_MIN:
        try:
            count = int(args[2].strip(" "))  # leniently: anything that might parse as a count
        except ValueError:
            return args
        if count < MIN_RANDOM_COUNT:
            return args[:2] + ["-10"] + args[3:]
    return args


ALL = list(FAMILIES) + ["multi"] + list(SCENARIOS)


def families(only, skip):
    """The families --only and --skip leave (in ALL's order), and the names neither knows."""
    o = [f for f in only.split(",") if f]
    k = [f for f in skip.split(",") if f]
    return [f for f in ALL if (not o or f in o) and f not in k], [f for f in o + k if f not in ALL]


def gen_sequence(r, length, fams):
    """length steps: single commands of the families in fams, MULTI blocks ("multi": each
    command one step) and two-connection scenarios ("blocking", "watch": one step each)."""
    singles = [f for f in fams if f in FAMILIES]
    pool = singles or list(FAMILIES)  # what MULTI blocks and scenarios draw their commands from
    scen = [f for f in fams if f in SCENARIOS]
    seq = []
    while len(seq) < length:
        c = r.random()
        if "multi" in fams and (c < 0.06 or not singles and not scen):
            seq.extend(gen_multi(r, pool))
        elif scen and (0.06 <= c < 0.09 or not singles):
            seq.append((SCENARIOS[r.choice(scen)](r, pool), "scenario"))
        elif singles:
            seq.append(pick_cmd(r, singles))
    return [(tame(args), kind) for args, kind in seq]


# ------------------------------------------------------------------ comparison
def same_but_negative_zero(a, b):
    """True if a (Redis) and b (Strata) differ only where Redis says -0 and Strata 0."""
    if a[0] != b[0]:
        return False
    if a[0] == "$":
        return a == b or (a[1] == b"-0" and b[1] == b"0")
    if a[0] == "*" and a[1] is not None and b[1] is not None and len(a[1]) == len(b[1]):
        return all(same_but_negative_zero(x, y) for x, y in zip(a[1], b[1]))
    return a == b


def sort_key(x):
    return repr(x)


def is_err(x):
    return x[0] == "-"


def arr(x):
    return x[1] if x[0] == "*" and x[1] is not None else None


# ------------------------------------------------------------------ stream replies
# What XINFO and XPENDING say that reads a clock (idle times, delivery and seen times) is
# replaced by TIME before comparing: the servers answer a moment apart. XINFO's
# radix-tree-keys/radix-tree-nodes count Strata's nodes, not a radix tree's (docs/redis.md,
# limitations: streams), and are left out.
TIME = ("~", b"<time>")
CLOCK_FIELDS = (b"seen-time", b"active-time", b"idle", b"inactive")
RADIX_FIELDS = (b"radix-tree-keys", b"radix-tree-nodes")


def fields(x):
    """A flat field/value array as [(name, value)], or None."""
    l = arr(x)
    if l is None or len(l) % 2 or any(f[0] not in "$+" for f in l[::2]):
        return None
    return [(f[1], v) for f, v in zip(l[::2], l[1::2])]


def untime(entry, pos):
    """A PEL entry array with its clock reading at pos replaced."""
    l = arr(entry)
    if l is None or len(l) <= pos:
        return entry
    return ("*", l[:pos] + [TIME] + l[pos + 1:])


def norm_map(x, fn):
    fs = fields(x)
    if fs is None:
        return x
    out = []
    for f, v in fs:
        if f in RADIX_FIELDS:
            continue
        out += [("$", f), fn(f, v)]
    return ("*", out)


def norm_consumer(f, v):
    if f in CLOCK_FIELDS:
        return TIME
    if f == b"pending" and arr(v) is not None:  # XINFO STREAM FULL: [id, delivery time, delivery count]
        return ("*", [untime(e, 1) for e in arr(v)])
    return v


def norm_group(f, v):
    if f == b"pending" and arr(v) is not None:  # XINFO STREAM FULL: [id, consumer, delivery time, delivery count]
        return ("*", [untime(e, 2) for e in arr(v)])
    if f == b"consumers" and arr(v) is not None:
        return ("*", [norm_map(c, norm_consumer) for c in arr(v)])
    return v


def norm_stream_info(f, v):
    if f == b"groups" and arr(v) is not None:
        return ("*", [norm_map(g, norm_group) for g in arr(v)])
    return v


def norm_stream_reply(args, x):
    """An XINFO or extended XPENDING reply without its clock readings."""
    if x[0] != "*" or x[1] is None:
        return x
    up = [str(a).upper() for a in args]
    if up[0] == "XPENDING":
        return ("*", [untime(e, 2) for e in x[1]])  # [id, consumer, idle, deliveries]
    if len(up) > 1 and up[1] == "STREAM":
        return norm_map(x, norm_stream_info)
    if len(up) > 1 and up[1] == "CONSUMERS":
        return ("*", [norm_map(c, norm_consumer) for c in x[1]])
    return x


def auto_id(x):
    """The ms of an ID `*` took from a clock within ten minutes of now, or None."""
    if x[0] != "$" or x[1] is None:
        return None
    try:
        ms = int(x[1].split(b"-")[0])
    except ValueError:
        return None
    return ms if abs(ms - time.time() * 1000) < 600000 else None


class Runner:
    def __init__(self, ref_port, dut_port):
        self.ref_port, self.dut_port = ref_port, dut_port
        self.copy_after = None  # a key compare() found unsettled: Strata's copy becomes Redis's
        self.connect()

    def connect(self):
        self.ref = Conn(self.ref_port)
        self.dut = Conn(self.dut_port)
        # B and C, the other connections of the scenarios, and their CLIENT IDs.
        self.ref2, self.ref3 = Conn(self.ref_port), Conn(self.ref_port)
        self.dut2, self.dut3 = Conn(self.dut_port), Conn(self.dut_port)
        self.ref2_id, self.ref3_id = self.ref2.call("CLIENT", "ID")[1], self.ref3.call("CLIENT", "ID")[1]
        self.dut2_id, self.dut3_id = self.dut2.call("CLIENT", "ID")[1], self.dut3.call("CLIENT", "ID")[1]

    def reset(self):
        for c in (self.ref, self.dut, self.ref2, self.dut2, self.ref3, self.dut3):
            c.close()
        self.connect()
        self.ref.call("FLUSHALL")
        self.dut.call("FLUSHALL")

    def compare(self, args, kind, a, b):
        """Return None if equivalent, else a description."""
        if a == b:
            return None
        if same_but_negative_zero(a, b):
            return None  # a stored -0 score reads back 0 (docs/redis.md, limitations)
        up_ = str(args[0]).upper()
        if kind in ("xinfo", "xpending") and norm_stream_reply(args, a) == norm_stream_reply(args, b):
            return None  # equal but for clock readings and radix-tree counts (above)
        if up_ == "XTRIM" and "~" in args and a[0] == ":" and b[0] == ":":
            # `~` trims whole nodes; Redis closes a node at 100 entries or 4096 bytes, Strata at
            # 100 entries (docs/redis.md, limitations: streams). How many go is allowed to
            # differ, and Strata's stream becomes a copy of Redis's.
            self.copy_after = args[1]
            return None
        if kind == "xadd" and auto_id(a) is not None and auto_id(b) is not None:
            # `*` took the time, read a moment apart on the two servers: the IDs are allowed to
            # differ, and Strata's stream becomes a copy of Redis's (run_seq).
            self.copy_after = args[1]
            return None
        # Unordered replies (KEYS, SMEMBERS, SINTER, ...): Redis leaves their order unspecified.
        if kind == "sorted":
            la, lb = arr(a), arr(b)
            if la is not None and lb is not None and sorted(la, key=sort_key) == sorted(lb, key=sort_key):
                return None
        if kind == "hashorder":
            la, lb = arr(a), arr(b)
            if la is not None and lb is not None:
                if args[0].upper() == "HGETALL":
                    pa = sorted(zip(la[::2], la[1::2]), key=sort_key)
                    pb = sorted(zip(lb[::2], lb[1::2]), key=sort_key)
                else:
                    pa, pb = sorted(la, key=sort_key), sorted(lb, key=sort_key)
                if pa == pb:
                    # Hash-table order is unspecified (docs/redis.md); a listpack's is insertion order.
                    enc = self.ref.call("OBJECT", "ENCODING", args[1])
                    if enc != ("$", b"listpack"):
                        return None
                    return "ORDER differs (redis listpack)"
        # SCAN 0 COUNT 1000 returns everything at once: same cursor, elements in any order.
        if kind == "scan":
            la, lb = arr(a), arr(b)
            if la and lb and len(la) == 2 and len(lb) == 2 and la[0] == lb[0]:
                if sorted(la[1][1], key=sort_key) == sorted(lb[1][1], key=sort_key):
                    return None
        # TTLs read a clock: the two servers answer a few milliseconds apart.
        if kind == "ttl":
            if a[0] == ":" and b[0] == ":":
                if a[1] < 0 or b[1] < 0:
                    return "differs"
                tol = 1500 if args[0].upper() in ("PTTL", "PEXPIRETIME") else 2
                if abs(a[1] - b[1]) <= tol:
                    return None
        if kind == "enc":
            t = self.ref.call("TYPE", args[2]) if len(args) > 2 else None
            # Every sorted set says skiplist here (docs/redis.md, limitations: the -0 score).
            if t == ("+", b"zset") and b == ("$", b"skiplist"):
                return None
            # Sets have no intset/listpack form here and say hashtable (SetCommands' Javadoc;
            # docs/redis.md: "other types have no in-memory encoding").
            if t == ("+", b"set") and b == ("$", b"hashtable"):
                return None
            # A string Redis edited in place says raw there; here it is judged by its value
            # (docs/redis.md, limitations: OBJECT ENCODING of strings changed in place).
            if t == ("+", b"string") and a == ("$", b"raw") and b in (("$", b"embstr"), ("$", b"int")):
                return None
            # An integral INCRBYFLOAT result: Redis keeps the text it formatted (embstr), here
            # the value's digits make it int (the same limitation).
            if t == ("+", b"string") and a == ("$", b"embstr") and b == ("$", b"int"):
                return None
        if kind == "refcount":
            # The same values read as shared integers here (REFCOUNT INT_MAX, as Redis's shared
            # integers), where Redis holds its own copy (1).
            t = self.ref.call("TYPE", args[2]) if len(args) > 2 else None
            if t == ("+", b"string") and a == (":", 1) and b == (":", 2147483647):
                return None
        up = args[0].upper()
        words = [str(x).upper() for x in args]
        if up in ("SORT", "SORT_RO") and "BY" in words and self.ref.call("TYPE", args[1])[1] in (b"set", b"zset"):
            # BY over a set: ties and nosort come in dict order, unspecified; with LIMIT, so
            # is which elements come.
            la, lb = arr(a), arr(b)
            if la is not None and lb is not None and (sorted(la, key=sort_key) == sorted(lb, key=sort_key)
                                                      or ("LIMIT" in words and len(la) == len(lb))):
                return None
        if up in ("SORT", "SORT_RO") and "ALPHA" in words and "BY" not in words:
            # ALPHA compares with strcoll, up to the first NUL: elements equal to there are
            # ties, and ties come in an unspecified order.
            la, lb = arr(a), arr(b)
            if la is not None and lb is not None and sorted(la, key=sort_key) == sorted(lb, key=sort_key) and \
                    [x[1].split(b"\0")[0] for x in la] == [x[1].split(b"\0")[0] for x in lb]:
                return None
        if up == "DBSIZE" and a[0] == ":" and b[0] == ":":
            # Both servers count keys that expired but are not reclaimed yet; when that happens
            # is unspecified (Redis also reclaims one when a read finds it, Strata's reads stay reads).
            if len(self.ref.call("KEYS", "*")[1]) == b[1] or len(self.dut.call("KEYS", "*")[1]) == a[1]:
                return None
        if ("LEX" in up or any(str(x).upper() == "BYLEX" for x in args)) and len(args) > 1:
            src = args[2] if up == "ZRANGESTORE" else args[1]
            sc = self.ref.call("ZRANGE", src, "0", "-1", "WITHSCORES")
            if sc[0] == "*" and len(set(x[1] for x in sc[1][1::2])) > 1:
                return None  # lex ranges over unequal scores: unspecified (run_seq settles writes)
        # Random picks (RANDOMKEY, SRANDMEMBER, HRANDFIELD, ZRANDMEMBER, SPOP): checked for
        # shape, size and membership, not for which elements.
        if kind.startswith("rand:"):
            return self.check_random(args, kind[5:], a, b)
        if kind == "spop":
            return self.check_spop(args, a, b)
        return "differs"

    def check_random(self, args, what, a, b):
        if is_err(a) or is_err(b):
            return "differs"
        if what == "randomkey":
            if (a[1] is None) != (b[1] is None):
                return "nil-ness differs"
            return None
        if a[0] != b[0]:
            return "type differs"
        if a[0] == "$":
            if (a[1] is None) != (b[1] is None):
                return "nil-ness differs"
            if b[1] is None:
                return None
            # single member: must be in the collection
            coll = self.collection(args[1])
            return None if b[1] in coll else "member not in collection"
        la, lb = arr(a), arr(b)
        if la is None or lb is None:
            return "differs"
        if len(la) != len(lb):
            return "length differs (%d vs %d)" % (len(la), len(lb))
        coll = self.collection(args[1], with_values=True)
        withv = len(args) > 3
        items = list(zip(lb[::2], lb[1::2])) if withv else [(x, None) for x in lb]
        for m, v in items:
            if m[1] not in coll:
                return "member %r not in collection" % (m,)
            if withv and coll[m[1]] != v[1]:
                return "value for %r wrong: %r vs %r" % (m, v, coll[m[1]])
        try:
            cnt = int(args[2])
        except (ValueError, IndexError):
            cnt = None
        if cnt is not None and cnt > 0:
            mems = [m for m, _ in items]
            if len(set(x[1] for x in mems)) != len(mems):
                return "duplicates with positive count"
        return None

    def collection(self, k, with_values=False):
        t = self.ref.call("TYPE", k)[1]
        if t == b"set":
            return {x[1]: None for x in self.ref.call("SMEMBERS", k)[1]}
        if t == b"hash":
            l = self.ref.call("HGETALL", k)[1]
            return {l[i][1]: l[i + 1][1] for i in range(0, len(l), 2)}
        if t == b"zset":
            l = self.ref.call("ZRANGE", k, "0", "-1", "WITHSCORES")[1]
            return {l[i][1]: l[i + 1][1] for i in range(0, len(l), 2)}
        return {}

    def check_spop(self, args, a, b):
        # compare sizes, then align DUT with REF: re-add what DUT popped, remove what REF popped
        if is_err(a) or is_err(b) or a[0] != b[0]:
            return "differs"
        k = args[1]
        if a[0] == "$":
            pa = [] if a[1] is None else [a[1]]
            pb = [] if b[1] is None else [b[1]]
        else:
            if (a[1] is None) != (b[1] is None):
                return "nil-ness differs"
            pa = [x[1] for x in (a[1] or [])]
            pb = [x[1] for x in (b[1] or [])]
        if len(pa) != len(pb):
            return "length differs"
        if sorted(pa) != sorted(pb):
            self.align_spop(k, pa, pb)
        return None

    def unspecified_write(self, args):
        """The key a write is about to change in a way Redis leaves unspecified, or None:
        ZREMRANGEBYLEX and ZRANGESTORE ... BYLEX over unequal scores, SORT ... BY ... STORE
        over a set (ties and nosort in dict order)."""
        up = args[0].upper()
        words = [str(x).upper() for x in args]
        if (up == "ZREMRANGEBYLEX" or (up == "ZRANGESTORE" and "BYLEX" in words)) and len(args) > 2:
            src = args[2] if up == "ZRANGESTORE" else args[1]
            sc = self.ref.call("ZRANGE", src, "0", "-1", "WITHSCORES")
            if sc[0] == "*" and len(set(x[1] for x in sc[1][1::2])) > 1:
                return args[1]
        if up == "SORT" and "BY" in words and "STORE" in words[:-1] and len(args) > 1 and \
                self.ref.call("TYPE", args[1])[1] in (b"set", b"zset"):
            return args[words.index("STORE") + 1]
        return None

    def copy_key(self, k):
        """After a reply whose effect is unspecified: makes Strata's key k Redis's (DUMP/RESTORE)."""
        payload = self.ref.call("DUMP", k)
        self.dut.call("DEL", k)
        if payload[0] == "$" and payload[1] is not None:
            ttl = self.ref.call("PTTL", k)[1]
            got = self.dut.call("RESTORE", k, str(max(ttl, 0)), payload[1].decode("latin-1"))
            if got != ("+", b"OK"):
                return "copying %s to Strata failed: %s" % (k, fmt(got))
        return None

    def align_spop(self, k, pa, pb):
        self.spop_aligned = True
        if pb:
            self.dut.call("SADD", k, *pb)
        if pa:
            self.dut.call("SREM", k, *pa)

    def state(self, c):
        out = {}
        c.call("DISCARD")
        ks = sorted(x[1] for x in c.call("KEYS", "*")[1])
        for k in ks:
            t = c.call("TYPE", k)[1]
            if t == b"string":
                v = c.call("GET", k)
            elif t == b"list":
                v = c.call("LRANGE", k, "0", "-1")
            elif t == b"set":
                v = sorted(c.call("SMEMBERS", k)[1], key=sort_key)
            elif t == b"zset":
                v = c.call("ZRANGE", k, "0", "-1", "WITHSCORES")
                # a stored -0 score reads back 0 (docs/redis.md, limitations)
                v = ("*", [("$", b"0") if i % 2 and x == ("$", b"-0") else x for i, x in enumerate(v[1])])
            elif t == b"hash":
                l = c.call("HGETALL", k)[1]
                v = sorted(zip(l[::2], l[1::2]), key=sort_key)
            elif t == b"stream":
                # Entries, then everything XINFO STREAM FULL says (groups, their PELs and
                # consumers; COUNT 0: all entries) but clock readings and radix-tree counts.
                full = ["XINFO", "STREAM", k, "FULL", "COUNT", "0"]
                v = (c.call("XRANGE", k, "-", "+"), norm_stream_reply(full, c.call(*full)))
            else:
                v = t
            ttl = c.call("PTTL", k)[1]
            out[k] = (t, v, ttl >= 0)
        return out

    # ------------------------------------------------------------ two connections
    # How long Strata may take to wake a blocked client after the write that serves it, before
    # it is counted as not woken (and CLIENT UNBLOCKed). Redis serves blocked clients before it
    # answers the write, so it gets a token wait.
    GRACE_REF, GRACE_DUT = 0.02, 0.5

    # The longest pending expiry a scenario waits out before it starts (ms): see run_scenario.
    SHORT_EXPIRY_MS = 2000

    def run_scenario(self, sc):
        """Runs a Scenario on Redis, then on Strata; (why, Redis's replies, Strata's replies).

        A key of the scenario that expires within SHORT_EXPIRY_MS would expire during Redis's
        run (which may wait out a blocking timeout) and before Strata's: the scenario then
        starts once such keys have expired on both servers, so both runs see them gone."""
        named = {a for _, args, _ in sc.steps for a in args if isinstance(a, str) and a in KEYS}
        pending = [c.call("PTTL", k)[1] for k in sorted(named) for c in (self.ref, self.dut)]
        last_gone = max([t for t in pending if isinstance(t, int) and 0 <= t <= self.SHORT_EXPIRY_MS], default=None)
        if last_gone is not None:
            time.sleep(last_gone / 1000 + 0.05)
        ra = self.exec_steps({"A": self.ref, "B": self.ref2, "C": self.ref3}, {"B": self.ref2_id, "C": self.ref3_id},
                             sc.steps, self.GRACE_REF)
        rb = self.exec_steps({"A": self.dut, "B": self.dut2, "C": self.dut3}, {"B": self.dut2_id, "C": self.dut3_id},
                             sc.steps, self.GRACE_DUT)
        why = None
        for j, ((who, args, kind), a, b) in enumerate(zip(sc.steps, ra, rb)):
            if a is None:
                continue
            w = self.compare(args, kind, a, b)
            if w and who[1:2] == ">" and args[0].upper() in ("XREAD", "XREADGROUP") and b[0] in "*-" and \
                    arr(a) and all(len(arr(x) or []) == 2 and arr(x)[1] == ("*", []) for x in arr(a)):
                # Redis 7.0 serves a waiting XREAD/XREADGROUP once the stream's last ID passes
                # the one it waits after, even when the new entries are gone again (XADD …
                # MAXLEN 0, a MULTI's XADD and XTRIM): the key with no entries (and, for a
                # group, the consumer created). Its synchronous path, and Redis 7.2, which
                # re-runs the command, keep waiting, as Strata does (docs/redis.md, streams),
                # until a later entry, an error (NOGROUP) or the end of the wait. Strata's
                # streams become copies of Redis's.
                up = [str(x).upper() for x in args]
                n = (len(args) - up.index("STREAMS") - 1) // 2
                for k in args[up.index("STREAMS") + 1:up.index("STREAMS") + 1 + n]:
                    w = self.copy_key(k)
                    if w:
                        break
            if w:
                why = "@%s %s (step %d): %s" % (who, args[0], j, w)
                break
        return why, ("*", [x for x in ra if x is not None]), ("*", [x for x in rb if x is not None])

    @staticmethod
    def blocked_clients(c):
        info = c.call("INFO", "clients")[1] or b""
        for line in info.split(b"\r\n"):
            if line.startswith(b"blocked_clients:"):
                return int(line.split(b":")[1])
        return -1

    def exec_steps(self, conns, ids, steps, grace):
        """Runs steps on one server: conns and ids map A, B, C to connections and CLIENT IDs."""
        A = conns["A"]
        out = []
        waiting = []  # connections with a blocking command sent and its reply not read
        for who, args, _kind in steps:
            if who in ("A", "B"):
                out.append(conns[who].call(*[ids.get(x[1:], x) if x in ("$B", "$C") else x for x in args]))
            elif who == "sleep":
                time.sleep(float(args[0]))
                out.append(None)
            elif who.endswith("<"):
                X = conns[who[0]]
                X.send(*args)
                waiting.append(X)
                # On until the server counts X as blocked too, or X has its answer (no wait).
                end = time.time() + 10
                while not X.ready(0) and time.time() < end and \
                        self.blocked_clients(A) < sum(1 for w in waiting if not w.ready(0)):
                    time.sleep(0.002)
                out.append(None)
            elif who[1:] == ">long":
                X = conns[who[0]]
                self.settle(A, X, ids[who[0]], grace, len(waiting) == 1)
                waiting.remove(X)
                out.append(X.read())
            elif who[1:] == ">short":
                X = conns[who[0]]
                waiting.remove(X)
                out.append(X.read())  # its timeout ends it: nothing it waits on was written
            else:
                raise ValueError(who)
        return out

    def settle(self, A, X, x_id, grace, alone):
        """After the writes that may wake X: X's reply is there, or coming (X, the only one
        waiting, no longer counted as blocked), or after grace seconds X is CLIENT UNBLOCKed
        (and answers as on a timeout)."""
        end = time.time() + grace
        while not X.ready(0.002):
            if alone and self.blocked_clients(A) == 0:
                X.ready(10)
                return
            if time.time() > end:
                A.call("CLIENT", "UNBLOCK", str(x_id))
                return

    def run_seq(self, seq, stop_at=None):
        """Run a sequence; return list of (i, args, a, b, why) mismatches."""
        self.reset()
        self.spop_aligned = False
        bad = []
        for i, (args, kind) in enumerate(seq):
            if isinstance(args, Scenario):
                why, a, b = self.run_scenario(args)
                if why:
                    bad.append((i, args, a, b, why))
                continue
            unsettled = self.unspecified_write(args)
            a = self.ref.call(*args)
            b = self.dut.call(*args)
            self.copy_after = None
            why = self.compare(args, kind, a, b)
            unsettled = unsettled or self.copy_after
            if not unsettled and not why and args[0].upper() == "XADD" and "~" in args and \
                    self.ref.call("XLEN", args[1]) != self.dut.call("XLEN", args[1]):
                unsettled = args[1]  # XADD's `~` trimming: as XTRIM's in compare()
            if unsettled and not why:
                why = self.copy_key(unsettled)
            if why:
                bad.append((i, args, a, b, why))
            if stop_at is not None and i >= stop_at:
                break
        return bad


def fmt_args(args):
    out = []
    for a in args:
        if isinstance(a, str):
            if a == "" or any(ord(ch) < 33 or ord(ch) > 126 or ch in "\"'\\" for ch in a):
                out.append('"' + "".join(ch if 33 <= ord(ch) <= 126 and ch not in "\"\\" else
                                         (" " if ch == " " else "\\x%02x" % ord(ch)) for ch in a) + '"')
            else:
                out.append(a)
        else:
            out.append(str(a))
    return " ".join(out)


def summ(x):
    if x[0] == "-":
        return x[1][:40].decode("latin-1")
    if x[0] == "*" and x[1]:
        return "*" + "".join(summ(e) if e[0] == "-" else e[0] for e in x[1])
    return x[0]


def known(args, a, b):
    """Differences left on purpose, listed under docs/redis.md's limitations; compare() and
    state() already allow for those that depend on a reply's kind. Nothing else is left."""
    return False


def minimize(runner, seq, idx, check_state=False):
    """ddmin: smallest subsequence whose last command still mismatches."""
    target = seq[idx]

    def fails_with(prefix, last):
        s = prefix + [last]
        try:
            bad = runner.run_seq(s)
        except Exception:
            runner.reset()
            return True
        return any(i == len(s) - 1 for (i, *_rest) in bad)

    def fails(prefix):
        return fails_with(prefix, target)

    prefix = seq[:idx]
    if not fails(prefix):
        return None
    n = 2
    while len(prefix) >= 1:
        chunk = max(1, len(prefix) // n)
        removed = False
        for start in range(0, len(prefix), chunk):
            cand = prefix[:start] + prefix[start + chunk:]
            if fails(cand):
                prefix = cand
                n = max(n - 1, 2)
                removed = True
                break
        if not removed:
            if chunk == 1:
                break
            n = min(len(prefix), n * 2)
    if isinstance(target[0], Scenario):
        target = (shrink_scenario(target[0], lambda sc: fails_with(prefix, (sc, target[1]))), target[1])
    return prefix + [target]


def shrink_scenario(sc, fails):
    """Drops a Scenario's steps one at a time while it still mismatches (a B< or C< step
    together with the B> or C> that reads its reply)."""
    steps = list(sc.steps)
    changed = True
    while changed:
        changed = False
        for j, (who, _a, _k) in enumerate(steps):
            if who[1:2] == ">":
                continue
            cand = [st for n, st in enumerate(steps)
                    if n != j and not (who.endswith("<") and st[0].startswith(who[0] + ">"))]
            if cand and fails(Scenario(sc.name, cand)):
                steps, changed = cand, True
                break
    return Scenario(sc.name, steps)


def main():
    ap = argparse.ArgumentParser(description="Differential fuzzer: Strata's Redis server against redis-server.")
    ap.add_argument("--seed", type=int, default=int(time.time()), help="seed (default: the time)")
    ap.add_argument("--seqs", type=int, default=200, help="number of sequences (default 200)")
    ap.add_argument("--len", type=int, default=40, help="commands per sequence (default 40)")
    ap.add_argument("--redis-port", type=int, default=6395, help="the reference redis-server (default 6395)")
    ap.add_argument("--strata-port", type=int, default=6419, help="strata serve redis (default 6419)")
    ap.add_argument("--only", default="", help="comma-separated families (default all): %s" % ",".join(ALL))
    ap.add_argument("--skip", default="", help="comma-separated families to leave out")
    ap.add_argument("--minimize", action="store_true", help="shrink each mismatch to a minimal repro")
    ap.add_argument("--out", help="also append the mismatch reports to this file")
    ap.add_argument("--max-per-cmd", type=int, default=3,
                    help="print at most this many mismatches of one kind (all are counted)")
    args = ap.parse_args()
    fams, unknown = families(args.only, args.skip)
    if unknown:
        ap.error("unknown family: %s" % ",".join(unknown))
    if not fams:
        ap.error("no family left")
    runner = Runner(args.redis_port, args.strata_port)
    out = open(args.out, "a") if args.out else None

    def report(text):
        print(text, flush=True)
        if out:
            out.write(text + "\n")
            out.flush()

    print("seed %d, %d sequences of %d commands, redis-server on %d, Strata on %d"
          % (args.seed, args.seqs, args.len, args.redis_port, args.strata_port), flush=True)
    seen = {}
    failed = 0
    t0 = time.time()
    for s in range(args.seqs):
        r = random.Random(args.seed * 100003 + s)
        seq = gen_sequence(r, args.len, fams)
        try:
            bad = runner.run_seq(seq)
        except Exception as e:
            failed += 1
            report("=== seq %d seed %d EXCEPTION %r\n%s" % (s, args.seed, e, traceback.format_exc())
                   + "".join("  " + fmt_args(a) + "\n" for a, _k in seq))
            time.sleep(1)
            try:
                runner.connect()
            except Exception:
                report("cannot reconnect; stopping")
                break
            continue
        sa, sb = runner.state(runner.ref), runner.state(runner.dut)
        if sa != sb:
            bad.append((len(seq) - 1, ["<STATE>"], ("+", repr(sa).encode()), ("+", repr(sb).encode()), "state"))
        bad = [b for b in bad if not known(b[1], b[2], b[3])]
        if bad:
            failed += 1
            i, a_, ra, rb, why = bad[0]  # one report per sequence: later ones often follow from it
            name = a_[0].upper()
            sig = (name, why.split(" ")[0], summ(ra), summ(rb))
            seen[sig] = seen.get(sig, 0) + 1
            if seen[sig] <= args.max_per_cmd:
                rep = "=== seq %d seed %d cmd#%d %s [%s]\n" % (s, args.seed, i, name, why)
                rep += "  cmd:   %s\n  redis: %s\n  strata:%s\n" % (fmt_args(a_), fmt(ra)[:2000], fmt(rb)[:2000])
                m = minimize(runner, seq, i) if args.minimize and name != "<STATE>" else None
                if m:
                    rep += "  minimal repro:\n" + "".join("    " + fmt_args(x) + "\n" for x, _ in m)
                else:
                    rep += "  prefix:\n" + "".join("    " + fmt_args(x) + "\n" for x, _ in seq[:i + 1])
                report(rep)
        if s % 20 == 0:
            print("seq %d done, %.0fs, mismatched sequences %d" % (s, time.time() - t0, failed), flush=True)
    print("%d sequences in %.0fs, %d mismatched" % (args.seqs, time.time() - t0, failed))
    for k, v in sorted(seen.items(), key=lambda kv: -kv[1]):
        print("  %5d %s" % (v, k))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
