package io.strata.redis.scripting;

import io.strata.redis.protocol.RedisDoubles;
import io.strata.redis.protocol.Reply;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Redis 7.0's conversions between command replies and Lua values, both ways, as its
 * documentation lists them. Commands to Lua: integers are numbers, bulk strings strings,
 * nil replies {@code false} (RESP2) or nil (RESP3), status and error replies tables with an
 * {@code ok} or {@code err} field; in RESP3 maps, sets, doubles and verbatim strings are tables
 * with a {@code map}, {@code set}, {@code double} or {@code verbatim_string} field, booleans
 * booleans. Lua to the caller: numbers are truncated to integers, {@code true} is 1 (RESP2) or
 * true, {@code false} and nil are nil, a table is an error, a status, a double, a map, a set,
 * or an array that stops at its first nil.
 */
final class LuaReplies {
    private static final LuaString OK = LuaValue.valueOf("ok");
    private static final LuaString ERR = LuaValue.valueOf("err");
    /**
     * Set on the error table of a command's error (Redis 7.0's field of that name): the error
     * was counted in the error statistics when the command answered it, so a script that
     * raises or returns it does not count it again.
     */
    private static final LuaString IGNORE_STATS = LuaValue.valueOf("ignore_error_stats_update");
    private static final LuaString DOUBLE = LuaValue.valueOf("double");
    private static final LuaString BIG_NUMBER = LuaValue.valueOf("big_number");
    private static final LuaString VERBATIM = LuaValue.valueOf("verbatim_string");
    private static final LuaString MAP = LuaValue.valueOf("map");
    private static final LuaString SET = LuaValue.valueOf("set");

    private LuaReplies() {
    }

    /** A command's reply as the script sees it, in protocol {@code resp} (2 or 3, {@code redis.setresp}). */
    static LuaValue toLua(Reply r, int resp) {
        if (r instanceof Reply.Int i) {
            return LuaValue.valueOf((double) i.value());
        }
        if (r instanceof Reply.Bulk b) {
            return LuaString.valueOf(b.value());
        }
        if (r instanceof Reply.Simple s) {
            return single(OK, LuaValue.valueOf(s.text()));
        }
        if (r instanceof Reply.Error e) {
            LuaTable t = single(ERR, LuaValue.valueOf(e.message()));
            t.rawset(IGNORE_STATS, LuaValue.TRUE);
            return t;
        }
        if (r instanceof Reply.Null) {
            return resp == 2 ? LuaValue.FALSE : LuaValue.NIL;
        }
        if (r instanceof Reply.DoubleReply d) {
            return resp == 2 ? LuaValue.valueOf(RedisDoubles.format(d.value())) : single(DOUBLE, LuaValue.valueOf(d.value()));
        }
        if (r instanceof Reply.Bool b) {
            return resp == 2 ? LuaValue.valueOf(b.value() ? 1 : 0) : LuaValue.valueOf(b.value());
        }
        if (r instanceof Reply.BigNumber b) {
            return resp == 2 ? LuaValue.valueOf(b.digits()) : single(BIG_NUMBER, LuaValue.valueOf(b.digits()));
        }
        if (r instanceof Reply.Verbatim v) {
            if (resp == 2) {
                return LuaValue.valueOf(v.text());
            }
            LuaTable inner = new LuaTable();
            inner.rawset("string", LuaValue.valueOf(v.text()));
            inner.rawset("format", LuaValue.valueOf("txt"));
            return single(VERBATIM, inner);
        }
        if (r instanceof Reply.MapReply m && resp == 3) {
            LuaTable inner = new LuaTable();
            List<Reply> kv = m.items();
            for (int i = 0; i + 1 < kv.size(); i += 2) {
                inner.rawset(toLua(kv.get(i), resp), toLua(kv.get(i + 1), resp));
            }
            return single(MAP, inner);
        }
        if (r instanceof Reply.SetReply s && resp == 3) {
            LuaTable inner = new LuaTable();
            for (Reply item : s.items()) {
                inner.rawset(toLua(item, resp), LuaValue.TRUE);
            }
            return single(SET, inner);
        }
        if (r instanceof Reply.Array a) {
            return array(a.items(), resp);
        }
        if (r instanceof Reply.Sequence s) {
            return array(s.replies(), resp);
        }
        return LuaValue.NIL;
    }

    private static LuaTable array(List<Reply> items, int resp) {
        LuaTable t = new LuaTable(items.size(), 0);
        for (int i = 0; i < items.size(); i++) {
            t.rawset(i + 1, toLua(items.get(i), resp));
        }
        return t;
    }

    private static LuaTable single(LuaValue key, LuaValue value) {
        LuaTable t = new LuaTable();
        t.rawset(key, value);
        return t;
    }

    /** A table holding {@code {err = message}}, what {@code redis.call} raises and {@code redis.pcall} returns. */
    static LuaTable errorTable(String message) {
        return single(ERR, LuaValue.valueOf(message));
    }

    /** Whether {@code v} is a command's error table, counted when the command answered it. */
    static boolean countedAlready(LuaValue v) {
        return v != null && v.istable() && v.rawget(IGNORE_STATS).toboolean();
    }

    /** The {@code err} field of an error table, or null when {@code v} is not one. */
    static String errorOf(LuaValue v) {
        if (v.istable()) {
            LuaValue err = v.rawget(ERR);
            if (err.type() == LuaValue.TSTRING) {
                return err.tojstring();
            }
        }
        return null;
    }

    /** Nesting deeper than this ends in an error element, as Redis's Lua stack limit does (a table may contain itself). */
    static final int MAX_NESTING = 1000;

    /** The script's return value as the reply to its caller ({@code resp}: the script's protocol, for booleans). */
    static Reply toReply(LuaValue v, int resp) {
        return toReply(v, resp, 0);
    }

    private static Reply toReply(LuaValue v, int resp, int depth) {
        switch (v.type()) {
            case LuaValue.TSTRING:
                return Reply.bulk(bytes(v));
            case LuaValue.TBOOLEAN:
                if (resp == 2) {
                    return v.toboolean() ? Reply.ONE : Reply.NULL_BULK;
                }
                return Reply.bool(v.toboolean());
            case LuaValue.TNUMBER:
                return Reply.integer((long) v.todouble());
            case LuaValue.TTABLE:
                return depth >= MAX_NESTING ? Reply.error("ERR reached lua stack limit") : tableReply(v, resp, depth + 1);
            default:
                return Reply.NULL_BULK;
        }
    }

    private static Reply tableReply(LuaValue t, int resp, int depth) {
        LuaValue err = t.rawget(ERR);
        if (err.type() == LuaValue.TSTRING) {
            return countedAlready(t) ? Reply.countedError(oneLine(err.tojstring())) : Reply.error(oneLine(err.tojstring()));
        }
        LuaValue ok = t.rawget(OK);
        if (ok.type() == LuaValue.TSTRING) {
            return Reply.simple(oneLine(ok.tojstring()));
        }
        LuaValue d = t.rawget(DOUBLE);
        if (d.type() == LuaValue.TNUMBER) {
            return Reply.doubleValue(d.todouble());
        }
        LuaValue big = t.rawget(BIG_NUMBER);
        if (big.type() == LuaValue.TSTRING) {
            return Reply.bigNumber(oneLine(big.tojstring()));
        }
        LuaValue verbatim = t.rawget(VERBATIM);
        if (verbatim.istable()) {
            LuaValue format = verbatim.rawget("format");
            LuaValue text = verbatim.rawget("string");
            if (format.type() == LuaValue.TSTRING && text.type() == LuaValue.TSTRING) {
                return Reply.verbatim(text.tojstring());
            }
        }
        LuaValue map = t.rawget(MAP);
        if (map.istable()) {
            List<Reply> kv = new ArrayList<>();
            for (Varargs n = map.next(LuaValue.NIL); !n.arg1().isnil(); n = map.next(n.arg1())) {
                kv.add(toReply(n.arg1(), resp, depth));
                kv.add(toReply(n.arg(2), resp, depth));
            }
            return Reply.map(kv);
        }
        LuaValue set = t.rawget(SET);
        if (set.istable()) {
            List<Reply> members = new ArrayList<>();
            for (Varargs n = set.next(LuaValue.NIL); !n.arg1().isnil(); n = set.next(n.arg1())) {
                members.add(toReply(n.arg1(), resp, depth));
            }
            return Reply.set(members);
        }
        List<Reply> items = new ArrayList<>();
        for (int i = 1; ; i++) {
            LuaValue item = t.rawget(i);
            if (item.isnil()) {
                break;
            }
            items.add(toReply(item, resp, depth));
        }
        return Reply.array(items);
    }

    /** Redis writes status and error replies on one line: CR and LF become spaces. */
    static String oneLine(String s) {
        return s.replace('\r', ' ').replace('\n', ' ');
    }

    static byte[] bytes(LuaValue s) {
        LuaString str = s.checkstring();
        byte[] out = new byte[str.m_length];
        str.copyInto(0, out, 0, out.length);
        return out;
    }

    static String text(LuaValue s) {
        return new String(bytes(s), StandardCharsets.UTF_8);
    }
}
