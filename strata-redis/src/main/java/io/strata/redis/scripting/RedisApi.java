package io.strata.redis.scripting;

import io.strata.redis.protocol.RedisDoubles;
import io.strata.redis.protocol.Reply;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.VarArgFunction;

import java.nio.charset.StandardCharsets;

/**
 * The {@code redis} table of Redis 7.0's Lua API, bound to one run: {@code call}, {@code pcall},
 * {@code error_reply}, {@code status_reply}, {@code sha1hex}, {@code log} and its levels,
 * {@code setresp}, {@code set_repl} and its flags (accepted: there is no replication),
 * {@code replicate_commands}, {@code breakpoint}/{@code debug} (no debugger: false, nothing),
 * {@code acl_check_cmd} and the version fields. Error texts are Redis's.
 */
final class RedisApi {
    /** The Redis version this server reports, as {@code REDIS_VERSION_NUM} encodes it: a byte each, 0x00MMmmpp. */
    static final String VERSION = "7.0.15";
    static final int VERSION_NUM = 7 << 16 | 0 << 8 | 15;

    private static final System.Logger LOG = System.getLogger("io.strata.redis.scripting.lua");

    private RedisApi() {
    }

    static LuaTable create(ScriptRun run) {
        LuaTable redis = new LuaTable();
        redis.rawset("call", fn(args -> command(run, args, true)));
        redis.rawset("pcall", fn(args -> command(run, args, false)));
        redis.rawset("error_reply", fn(RedisApi::errorReply));
        redis.rawset("status_reply", fn(args -> {
            if (args.narg() != 1 || args.arg1().type() != LuaValue.TSTRING) {
                return LuaReplies.errorTable("ERR wrong number or type of arguments");
            }
            LuaTable t = new LuaTable();
            t.rawset("ok", args.arg1());
            return t;
        }));
        redis.rawset("sha1hex", fn(args -> {
            if (args.narg() != 1) {
                throw raise("wrong number of arguments");
            }
            return LuaValue.valueOf(Sha1.hex(args.arg1().isstring() ? LuaReplies.bytes(args.arg1().tostring()) : new byte[0]));
        }));
        redis.rawset("log", fn(RedisApi::log));
        redis.rawset("LOG_DEBUG", 0);
        redis.rawset("LOG_VERBOSE", 1);
        redis.rawset("LOG_NOTICE", 2);
        redis.rawset("LOG_WARNING", 3);
        redis.rawset("setresp", fn(args -> {
            if (args.narg() != 1) {
                throw raise("redis.setresp() requires one argument.");
            }
            int resp = args.arg1().isnumber() ? (int) args.arg1().todouble() : 0;
            if (resp != 2 && resp != 3) {
                throw raise("RESP version must be 2 or 3.");
            }
            run.resp(resp);
            return LuaValue.NONE;
        }));
        redis.rawset("set_repl", fn(args -> {
            if (args.narg() != 1) {
                throw raise("redis.set_repl() requires two arguments.");
            }
            int flags = args.arg1().isnumber() ? (int) args.arg1().todouble() : 0;
            if ((flags & ~3) != 0) {
                throw raise("Invalid replication flags. Use REPL_AOF, REPL_REPLICA, REPL_ALL or REPL_NONE.");
            }
            return LuaValue.NONE;
        }));
        redis.rawset("REPL_NONE", 0);
        redis.rawset("REPL_AOF", 1);
        redis.rawset("REPL_SLAVE", 2);
        redis.rawset("REPL_REPLICA", 2);
        redis.rawset("REPL_ALL", 3);
        // Scripts are always replicated by their effects in 7.0; the call stays for old scripts.
        redis.rawset("replicate_commands", fn(args -> LuaValue.TRUE));
        redis.rawset("breakpoint", fn(args -> LuaValue.FALSE));
        redis.rawset("debug", fn(args -> LuaValue.NONE));
        redis.rawset("acl_check_cmd", fn(args -> {
            byte[][] argv = arguments(args);
            if (argv == null) {
                throw new LuaError(LuaReplies.errorTable(argumentError(args)));
            }
            Boolean allowed = run.aclAllows(argv);
            if (allowed == null) {
                throw raise("Invalid command passed to redis.acl_check_cmd()");
            }
            return LuaValue.valueOf(allowed);
        }));
        redis.rawset("REDIS_VERSION", VERSION);
        redis.rawset("REDIS_VERSION_NUM", VERSION_NUM);
        return redis;
    }

    /** {@code redis.call} (raise: a command's error is raised) and {@code redis.pcall} (returned as a table). */
    private static Varargs command(ScriptRun run, Varargs args, boolean raise) {
        byte[][] argv = arguments(args);
        if (argv == null) {
            LuaTable error = LuaReplies.errorTable(argumentError(args));
            if (raise) {
                throw new LuaError(error);
            }
            return error;
        }
        Reply reply = run.call(argv);
        if (reply.isError() && raise) {
            throw new LuaError(LuaReplies.toLua(reply, run.resp()));
        }
        return LuaReplies.toLua(reply, run.resp());
    }

    private static String argumentError(Varargs args) {
        return args.narg() == 0 ? "ERR Please specify at least one argument for this redis lib call"
                : "ERR Lua redis lib command arguments must be strings or integers";
    }

    /** A command's arguments: strings as they are, numbers as {@code %.17g}; null when one is neither (or none given). */
    private static byte[][] arguments(Varargs args) {
        int n = args.narg();
        if (n == 0) {
            return null;
        }
        byte[][] argv = new byte[n][];
        for (int i = 0; i < n; i++) {
            LuaValue a = args.arg(i + 1);
            if (a.type() == LuaValue.TNUMBER) {
                argv[i] = RedisDoubles.format(a.todouble()).getBytes(StandardCharsets.US_ASCII);
            } else if (a.type() == LuaValue.TSTRING) {
                argv[i] = LuaReplies.bytes(a);
            } else {
                return null;
            }
        }
        return argv;
    }

    /** {@code redis.error_reply(msg)}: an error table; the code is msg's first word, ERR when msg has one word. */
    private static Varargs errorReply(Varargs args) {
        if (args.narg() != 1 || args.arg1().type() != LuaValue.TSTRING) {
            return LuaReplies.errorTable("ERR wrong number or type of arguments");
        }
        String text = LuaReplies.text(args.arg1());
        return LuaReplies.errorTable(withCode(text.startsWith("-") ? text : "-" + text));
    }

    /** Redis's {@code luaPushErrorBuff}: "-CODE msg" keeps CODE, "-msg" becomes "ERR msg"; trailing CR/LF trimmed. */
    static String withCode(String dashed) {
        String body = dashed.substring(1);
        int space = body.indexOf(' ');
        String code = space < 0 ? "ERR" : body.substring(0, space);
        String message = space < 0 ? body : body.substring(space + 1);
        return code + " " + message.replaceAll("^[\r\n]+|[\r\n]+$", "");
    }

    private static Varargs log(Varargs args) {
        if (args.narg() < 2) {
            throw raise("redis.log() requires two arguments or more.");
        }
        if (!args.arg1().isnumber()) {
            throw raise("First argument must be a number (log level).");
        }
        int level = (int) args.arg1().todouble();
        if (level < 0 || level > 3) {
            throw raise("Invalid debug level.");
        }
        StringBuilder line = new StringBuilder();
        for (int i = 2; i <= args.narg(); i++) {
            if (args.arg(i).isstring()) {
                if (line.length() > 0) {
                    line.append(' ');
                }
                line.append(LuaReplies.text(args.arg(i).tostring()));
            }
        }
        System.Logger.Level to = switch (level) {
            case 0 -> System.Logger.Level.TRACE;
            case 1 -> System.Logger.Level.DEBUG;
            case 2 -> System.Logger.Level.INFO;
            default -> System.Logger.Level.WARNING;
        };
        LOG.log(to, line.toString());
        return LuaValue.NONE;
    }

    /** An error the way Redis's {@code luaPushError} raises it: a table whose err starts with ERR. */
    static LuaError raise(String message) {
        return new LuaError(LuaReplies.errorTable("ERR " + message));
    }

    interface Body {
        Varargs call(Varargs args);
    }

    static VarArgFunction fn(Body body) {
        return new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                return body.call(args);
            }
        };
    }
}
