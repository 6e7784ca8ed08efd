# Regenerates glibc-strtod.txt: python3 generate.py > glibc-strtod.txt (needs glibc; cases are seeded).
import ctypes, ctypes.util
import random
random.seed(7015)
hand = ["", " ", "(", "0", "-0", "+0", "1", "-1", "0x10", "0X1f", "0x1p3", "0x1.8p1", "0x", "0x.", "0x.p1", "-0x", "0xg", "0x1p", "0x1p-", "0x1P+4",
 "inf", "INF", "-inf", "+Inf", "infinity", "-INFINITY", "infinit", "infx", "in", "nan", "-nan", "NaN", "nan(", "nan()", "nan(abc_1)", "nan(a-b)",
 "1e400", "-1e309", "1e-400", "1e308", "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308", "4.9e-324", "2.4703282292062328e-324",
 "2.4703282292062327e-324", "2.2250738585072011e-308", "1e-320", "0e-400", "0e400", "0.0000e99999999999999999999", "1e99999999999999999999", "1e-99999999999999999999",
 ".5", "5.", ".", "-.", "+", "-", "1e", "1e+", "1e-", "1E5", "1.5e3x", " 1", "\t1", "\n-2", "\x0b3", "\x0c4", "\r5", "1 ", "1\x00", "\x001", "(1", "1d", "1f", "--1",
 "0x1.fffffffffffff8p1023", "0x1.fffffffffffff7p1023", "0x1p1024", "0x1p-1074", "0x1p-1075", "0x1.0000000000001p-1075", "0x0.0000000000001p-1022", "0x1p-1080",
 "0x" + "0"*400 + "1p-1074", "0x0." + "0"*300 + "1p1200", "0x" + "f"*300, "0x" + "1"*20 + "p-10000", "1" + "0"*400, "0." + "0"*400 + "1e400", "9"*800 + "e-800",
 "0x1p99999999999999999", "0x1p-99999999999999999", "0x10000000000000000000000p-100", "123456789012345678901234567890", "0.1", "0.30000000000000004",
 "9007199254740993", "9007199254740992.5", "-1.5e-310", "1e-310", "0x.8", "0x8.", "0x8.p", "1.e5", ".e5", "e5", "x", "0x1.8p1x", "+-1", "  ", " \x00", "00012", "0x00012"]
alpha = list("0123456789") * 3 + list(".eEpPxX+-") + ["inf", "nan", " ", "a", "f", "(", ")", "\x00", "\t", "0x", "e3", "e-3", "e308", "e-320", "p-1074", "p1024"]
out = set()
for h in hand: out.add(h.encode('latin1').hex())
while len(out) < 4000:
    s = "".join(random.choice(alpha) for _ in range(random.randint(1, 12)))
    out.add(s.encode('latin1').hex())
cases = sorted(out)
libc = ctypes.CDLL(ctypes.util.find_library("c"))
libc.strtod.restype = ctypes.c_double
libc.strtod.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p)]
errno_loc = libc.__errno_location; errno_loc.restype = ctypes.POINTER(ctypes.c_int)
def strtod(bs):
    buf = ctypes.create_string_buffer(bs)
    end = ctypes.c_char_p()
    errno_loc()[0] = 0
    v = libc.strtod(buf, ctypes.byref(end))
    e = errno_loc()[0]
    endi = ctypes.cast(end, ctypes.c_void_p).value - ctypes.addressof(buf)
    return v, endi, e == 34
    endi = ctypes.cast(end, ctypes.c_void_p).value - ctypes.addressof(buf)
import struct
print("# glibc strtod on %d inputs (tricky hand-picked ones plus random strings from strtod\x27s alphabet)." % len(cases))
print("# Each line: input bytes in hex, the result\x27s IEEE-754 bits as a signed long, the end index, 1 if errno was ERANGE.")
for c in cases:
    v, end, er = strtod(bytes.fromhex(c))
    print(c, struct.unpack("<q", struct.pack("<d", v))[0], end, int(er))
