"""A small RESP2 client over a plain socket: arguments go out as bulk strings (str as
Latin-1, so each char is one byte), replies come back as (type, value) pairs."""
import select
import socket


class RespError(Exception):
    pass


class Conn:
    def __init__(self, port, host="127.0.0.1", timeout=15.0):
        self.port = port
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.sock.settimeout(timeout)
        self.buf = b""

    def close(self):
        try:
            self.sock.close()
        except Exception:
            pass

    @staticmethod
    def encode(args):
        out = [b"*%d\r\n" % len(args)]
        for a in args:
            if isinstance(a, str):
                a = a.encode("latin-1")
            elif isinstance(a, int):
                a = str(a).encode()
            out.append(b"$%d\r\n%s\r\n" % (len(a), a))
        return b"".join(out)

    def _fill(self):
        d = self.sock.recv(65536)
        if not d:
            raise ConnectionError("connection closed by port %d" % self.port)
        self.buf += d

    def _line(self):
        while True:
            i = self.buf.find(b"\r\n")
            if i >= 0:
                line = self.buf[:i]
                self.buf = self.buf[i + 2:]
                return line
            self._fill()

    def _exact(self, n):
        while len(self.buf) < n + 2:
            self._fill()
        d = self.buf[:n]
        self.buf = self.buf[n + 2:]
        return d

    def read(self):
        line = self._line()
        t, rest = line[:1], line[1:]
        if t == b"+":
            return ("+", rest)
        if t == b"-":
            return ("-", rest)
        if t == b":":
            return (":", int(rest))
        if t == b"$":
            n = int(rest)
            if n < 0:
                return ("$", None)
            return ("$", self._exact(n))
        if t == b"*":
            n = int(rest)
            if n < 0:
                return ("*", None)
            return ("*", [self.read() for _ in range(n)])
        raise RespError("bad reply type %r line %r" % (t, line))

    def call(self, *args):
        self.sock.sendall(self.encode(args))
        return self.read()

    def send(self, *args):
        """Sends a command without reading its reply (a blocking command on a second connection)."""
        self.sock.sendall(self.encode(args))

    def ready(self, timeout=0.0):
        """True if a reply (or part of one) has arrived, waiting up to timeout seconds for it."""
        if self.buf:
            return True
        return bool(select.select([self.sock], [], [], timeout)[0])

    def pipeline(self, cmds):
        self.sock.sendall(b"".join(self.encode(c) for c in cmds))
        return [self.read() for _ in cmds]


def fmt(r, depth=0):
    """Human-readable rendering of a parsed reply."""
    t, v = r
    if t == "+":
        return "+" + v.decode("latin-1")
    if t == "-":
        return "(error) " + v.decode("latin-1")
    if t == ":":
        return "(integer) %d" % v
    if t == "$":
        return "(nil)" if v is None else repr(v)[1:]
    if t == "*":
        if v is None:
            return "(nil array)"
        return "[" + ", ".join(fmt(x, depth + 1) for x in v) + "]"
    return repr(r)
