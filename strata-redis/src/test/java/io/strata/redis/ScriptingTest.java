package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.exceptions.JedisDataException;

/** EVAL and its siblings over TCP with Jedis: round trips, RESP2 conversions, errors, MULTI, atomicity, libraries. */
class ScriptingTest extends SharedServerTestSupport {

    @Test
    void evalSeesKeysAndArgvAndRunsCommands() {
        Object r = jedis.eval("redis.call('set', KEYS[1], ARGV[1]) return {KEYS[1], redis.call('get', KEYS[1]), ARGV[2]}",
                1, "k", "v", "extra");
        assertThat(r).isEqualTo(List.of("k", "v", "extra"));
        assertThat(jedis.get("k")).isEqualTo("v");
    }

    @Test
    void scriptLoadThenEvalshaAndTheCacheCommands() {
        String sha = jedis.scriptLoad("return 'loaded ' .. ARGV[1]");
        assertThat(sha).hasSize(40);
        assertThat(jedis.evalsha(sha, 0, "x")).isEqualTo("loaded x");
        assertThat(jedis.evalsha(sha.toUpperCase(), 0, "y")).isEqualTo("loaded y");
        assertThat(jedis.scriptExists(sha, "0000000000000000000000000000000000000000")).containsExactly(true, false);
        assertThat(jedis.scriptFlush()).isEqualTo("OK");
        assertThat(jedis.scriptExists(sha)).isFalse();
        assertThatThrownBy(() -> jedis.evalsha(sha, 0)).hasMessage("NOSCRIPT No matching script. Please use EVAL.");
        assertThatThrownBy(() -> jedis.evalsha("abc", 0)).hasMessage("NOSCRIPT No matching script. Please use EVAL.");
    }

    @Test
    void shaIsTheSha1OfTheBody() {
        String body = "return 42";
        assertThat(jedis.scriptLoad(body)).isEqualTo(jedis.eval("return redis.sha1hex(ARGV[1])", 0, body));
        assertThat(jedis.eval("return redis.sha1hex('')")).isEqualTo("da39a3ee5e6b4b0d3255bfef95601890afd80709");
    }

    @Test
    void luaValuesBecomeRedisRepliesAsRedisDocuments() {
        assertThat(jedis.eval("return 3.99")).isEqualTo(3L);
        assertThat(jedis.eval("return -3.99")).isEqualTo(-3L);
        assertThat(jedis.eval("return true")).isEqualTo(1L);
        assertThat(jedis.eval("return false")).isNull();
        assertThat(jedis.eval("return nil")).isNull();
        assertThat(jedis.eval("return {1, 'two', 3.5, nil, 'after nil'}")).isEqualTo(List.of(1L, "two", 3L));
        assertThat(jedis.eval("return {1, {2, {'three'}}}")).isEqualTo(List.of(1L, List.of(2L, List.of("three"))));
        assertThat(jedis.eval("return redis.status_reply('FINE')")).isEqualTo("FINE");
        assertThat(jedis.eval("return {ok = 'ALSO'}")).isEqualTo("ALSO");
        assertThatThrownBy(() -> jedis.eval("return redis.error_reply('MYCODE went wrong')")).hasMessage("MYCODE went wrong");
        assertThatThrownBy(() -> jedis.eval("return redis.error_reply('oneword')")).hasMessage("ERR oneword");
        assertThatThrownBy(() -> jedis.eval("return {err = 'RAW'}")).hasMessage("RAW");
    }

    @Test
    void redisRepliesBecomeLuaValuesInResp2() {
        jedis.hset("h", "f", "v");
        assertThat(jedis.eval("local v = redis.call('get', 'nokey') return type(v) .. ':' .. tostring(v)")).isEqualTo("boolean:false");
        assertThat(jedis.eval("return type(redis.call('incr', 'n'))")).isEqualTo("number");
        assertThat(jedis.eval("return redis.call('set', 'x', 1).ok")).isEqualTo("OK");
        assertThat(jedis.eval("return redis.pcall('hget', 'x', 'f').err")).asString().startsWith("WRONGTYPE");
        assertThat(jedis.eval("return redis.call('hgetall', 'h')")).isEqualTo(List.of("f", "v"));
        // Numbers are sent to commands as %.17g, so integral ones stay integers.
        assertThat(jedis.eval("redis.call('set', 'num', 10) return redis.call('get', 'num')")).isEqualTo("10");
        assertThat(jedis.eval("redis.call('set', 'num', 0.5) return redis.call('get', 'num')")).isEqualTo("0.5");
    }

    @Test
    void commandErrorsNameTheScriptAndLineInRedis7Words() {
        jedis.set("s", "abc");
        String body = "local x = 1\nreturn redis.call('incr', 's')";
        String sha = jedis.scriptLoad(body);
        assertThatThrownBy(() -> jedis.eval(body))
                .hasMessage("ERR value is not an integer or out of range script: " + sha + ", on @user_script:2.");
        String undefined = "return nosuch";
        assertThatThrownBy(() -> jedis.eval(undefined)).hasMessage("ERR user_script:1: Script attempted to access "
                + "nonexistent global variable 'nosuch' script: " + jedis.scriptLoad(undefined) + ", on @user_script:1.");
        String global = "x = 5";
        assertThatThrownBy(() -> jedis.eval(global)).hasMessage("ERR user_script:1: Attempt to modify a readonly table script: "
                + jedis.scriptLoad(global) + ", on @user_script:1.");
        assertThatThrownBy(() -> jedis.eval("redis.call = nil")).hasMessageContaining("Attempt to modify a readonly table");
        assertThatThrownBy(() -> jedis.eval("error('boom')")).hasMessageStartingWith("ERR user_script:1: boom script: ");
        assertThatThrownBy(() -> jedis.eval("return redis.call('nosuch')"))
                .hasMessageStartingWith("ERR Unknown Redis command called from script script: ");
        assertThatThrownBy(() -> jedis.eval("return redis.call('get')"))
                .hasMessageStartingWith("ERR Wrong number of args calling Redis command from script script: ");
        assertThatThrownBy(() -> jedis.eval("return redis.call('multi')"))
                .hasMessageStartingWith("ERR This Redis command is not allowed from script script: ");
        assertThatThrownBy(() -> jedis.eval("return redis.call({})"))
                .hasMessageStartingWith("ERR Lua redis lib command arguments must be strings or integers script: ");
        assertThatThrownBy(() -> jedis.eval("x = = 1"))
                .hasMessage("ERR Error compiling script (new function): user_script:1: unexpected symbol near '='");
    }

    @Test
    void pcallAndRedisPcallCatchCommandErrors() {
        jedis.set("s", "abc");
        assertThat(jedis.eval("local ok, e = pcall(redis.call, 'incr', 's') return {tostring(ok), e}"))
                .isEqualTo(List.of("false", "ERR value is not an integer or out of range"));
        assertThat(jedis.eval("local r = redis.pcall('incr', 's') return r.err")).isEqualTo("ERR value is not an integer or out of range");
    }

    @Test
    void numkeysIsCheckedAsRedis70Does() {
        assertThatThrownBy(() -> jedis.eval("return 1", 2, "a")).hasMessage("ERR Number of keys can't be greater than number of args");
        assertThatThrownBy(() -> jedis.sendCommand(redis.clients.jedis.Protocol.Command.EVAL, "return 1", "-1"))
                .hasMessage("ERR Number of keys can't be negative");
        assertThatThrownBy(() -> jedis.sendCommand(redis.clients.jedis.Protocol.Command.EVAL, "return 1", "x"))
                .hasMessage("ERR value is not an integer or out of range");
    }

    @Test
    void readOnlyScriptsCannotWrite() {
        assertThatThrownBy(() -> jedis.evalReadonly("return redis.call('set', 'a', 'b')", List.of(), List.of()))
                .hasMessageStartingWith("ERR Write commands are not allowed from read-only scripts. script: ");
        assertThat(jedis.get("a")).isNull();
        jedis.set("a", "1");
        assertThat(jedis.evalReadonly("return redis.call('get', 'a')", List.of(), List.of())).isEqualTo("1");
        assertThatThrownBy(() -> jedis.eval("#!lua flags=no-writes\nreturn redis.call('set', 'a', 'b')"))
                .hasMessageStartingWith("ERR Write commands are not allowed from read-only scripts. script: ");
        assertThatThrownBy(() -> jedis.evalReadonly("#!lua\nreturn 1", List.of(), List.of()))
                .hasMessage("ERR Can not execute a script with write flag using *_ro command.");
        assertThat(jedis.evalReadonly("#!lua flags=no-writes\nreturn 2", List.of(), List.of())).isEqualTo(2L);
        assertThatThrownBy(() -> jedis.eval("#!lua flags=bogus\nreturn 1")).hasMessage("ERR Unexpected flag in script shebang: bogus");
        assertThatThrownBy(() -> jedis.eval("#!python\nreturn 1")).hasMessage("ERR Unexpected engine in script shebang: #!python");
        // The shebang line is skipped but counted: errors keep the body's line numbers.
        assertThatThrownBy(() -> jedis.eval("#!lua\nreturn redis.call('nosuch')")).hasMessageEndingWith("on @user_script:2.");
    }

    @Test
    void aScriptQueuedInMultiRunsInsideExecsTransaction() {
        Transaction t = jedis.multi();
        t.set("counter", "10");
        t.eval("return redis.call('incrby', KEYS[1], ARGV[1])", 1, "counter", "5");
        t.get("counter");
        assertThat(t.exec()).isEqualTo(List.of("OK", 15L, "15"));
    }

    @Test
    void aScriptIsAtomicAgainstConcurrentScripts() throws Exception {
        // A read-then-write increment: lost updates would show if scripts were not atomic.
        String sha = jedis.scriptLoad("local v = tonumber(redis.call('get', KEYS[1]) or '0') "
                + "redis.call('set', KEYS[1], v + 1) return v + 1");
        int threads = 8;
        int each = 25;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> work = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                work.add(pool.submit(() -> {
                    try (Jedis c = server.jedis()) {
                        for (int j = 0; j < each; j++) {
                            c.evalsha(sha, 1, "counter");
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : work) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        assertThat(jedis.get("counter")).isEqualTo(String.valueOf(threads * each));
    }

    @Test
    void aScriptsPushServesAClientBlockedOnTheList() throws Exception {
        java.util.concurrent.CompletableFuture<List<String>> blocked = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try (Jedis c = server.jedis()) {
                return c.blpop(10, "queue");
            }
        });
        Thread.sleep(200);
        assertThat(jedis.eval("return redis.call('lpush', KEYS[1], ARGV[1])", 1, "queue", "job")).isEqualTo(1L);
        assertThat(blocked.get(10, java.util.concurrent.TimeUnit.SECONDS)).containsExactly("queue", "job");
    }

    @Test
    void writesBeforeAnErrorStayAsInRedis() {
        assertThatThrownBy(() -> jedis.eval("redis.call('set', 'kept', '1') error('after the write')"))
                .isInstanceOf(JedisDataException.class);
        assertThat(jedis.get("kept")).isEqualTo("1");
    }

    @Test
    void cjsonRoundTripsAndBitOperate() {
        assertThat(jedis.eval("return cjson.encode({1, 2, {a = 1.5}, 'x/y'})")).isEqualTo("[1,2,{\"a\":1.5},\"x\\/y\"]");
        assertThat(jedis.eval("local t = cjson.decode(ARGV[1]) return {t.name, t.list[2], tostring(t.none == cjson.null)}",
                0, "{\"name\":\"n\",\"list\":[1,\"b\"],\"none\":null}")).isEqualTo(List.of("n", "b", "true"));
        assertThat(jedis.eval("return cjson.encode(cjson.decode(ARGV[1]))", 0, "{\"k\":[true,false]}"))
                .isEqualTo("{\"k\":[true,false]}");
        assertThat(jedis.eval("return {bit.band(0xff, 0x0f), bit.bor(1, 2), bit.bxor(3, 1), bit.bnot(0), bit.lshift(1, 4), bit.tohex(255, 4)}"))
                .isEqualTo(Arrays.asList(15L, 3L, 2L, -1L, 16L, "00ff"));
    }

    @Test
    void structPacksAndUnpacksAsRedisStructLibrary() {
        String hex = "local s = struct.pack(ARGV[1], tonumber(ARGV[2])) local h = '' "
                + "for i = 1, #s do h = h .. string.format('%02x', string.byte(s, i)) end return h";
        assertThat(jedis.eval(hex, 0, ">I2", "258")).isEqualTo("0102");
        assertThat(jedis.eval(hex, 0, "<i", "-2")).isEqualTo("feffffff");
        assertThat(jedis.eval(hex, 0, ">b", "-1")).isEqualTo("ff");
        assertThat(jedis.eval("local a, b, c, next = struct.unpack('>HsB', struct.pack('>HsB', 513, 'hi', 7)) "
                + "return {a, b, c, next}")).isEqualTo(List.of(513L, "hi", 7L, 7L));
        assertThat(jedis.eval("return {struct.unpack('<I1c0', struct.pack('<I1c0', 3, 'abc'))}")).isEqualTo(List.of("abc", 5L));
        assertThat(jedis.eval("return struct.size('>iHd')")).isEqualTo(14L);
        assertThatThrownBy(() -> jedis.eval("return struct.size('s')")).hasMessageContaining("options 'c0' - 's' have undefined sizes");
    }

    @Test
    void cmsgpackPacksAsLuaCmsgpackAndRoundTrips() {
        String hex = "local s = cmsgpack.pack(ARGV[1] == 'd' and 0.1 or -1099511627776) local h = '' "
                + "for i = 1, #s do h = h .. string.format('%02x', string.byte(s, i)) end return h";
        assertThat(jedis.eval(hex, 0, "d")).isEqualTo("cb3fb999999999999a");
        assertThat(jedis.eval(hex, 0, "i")).isEqualTo("d3ffffff0000000000");
        assertThat(jedis.eval("local t = cmsgpack.unpack(cmsgpack.pack({1, 'two', {k = 'v'}, true})) "
                + "return {t[1], t[2], t[3].k, tostring(t[4])}")).isEqualTo(List.of(1L, "two", "v", "true"));
        assertThat(jedis.eval("local packed = cmsgpack.pack('a', 'b', 'c') "
                + "local offset, first = cmsgpack.unpack_one(packed) local last, second, third = cmsgpack.unpack_limit(packed, 2, offset) "
                + "return {offset, first, last, second, third}")).isEqualTo(List.of(2L, "a", -1L, "b", "c"));
    }

    @Test
    void theRedisTableHasItsConstantsAndHelpers() {
        assertThat(jedis.eval("return redis.REDIS_VERSION")).isEqualTo("7.0.15");
        assertThat(jedis.eval("return redis.REDIS_VERSION_NUM")).isEqualTo(0x07000FL); // a byte per part: 7, 0, 15
        assertThat(jedis.eval("redis.set_repl(redis.REPL_ALL) redis.replicate_commands() "
                + "redis.log(redis.LOG_NOTICE, 'from a test') return {redis.LOG_WARNING, unpack({1, 2})}"))
                .isEqualTo(List.of(3L, 1L, 2L));
        assertThatThrownBy(() -> jedis.eval("redis.setresp(4)")).hasMessageStartingWith("ERR RESP version must be 2 or 3. script: ");
    }

    @Test
    void loadstringCompilesTextChunksOnly() {
        assertThat(jedis.eval("return loadstring('return 1 + 1')()")).isEqualTo(2L);
        assertThat(jedis.eval("local f, e = loadstring('return +') return {tostring(f), e}"))
                .isEqualTo(List.of("nil", "[string \"return +\"]:1: unexpected symbol near '+'"));
        // As Redis's Lua, which parses a binary chunk as text: no bytecode gets in.
        assertThatThrownBy(() -> jedis.eval("return loadstring(string.dump(function() return 1 end))()"))
                .hasMessageStartingWith("ERR user_script:1: attempt to call a nil value");
        assertThat(jedis.eval("local f, e = load(string.dump(function() return 1 end)) return tostring(f)")).isEqualTo("nil");
        assertThat(jedis.eval("return load('return 3')()")).isEqualTo(3L);
    }

    @Test
    void runtimeErrorsNameWhatWasCalledOrIndexedAsLuaDoes() {
        String[][] cases = {
            {"redis.foo()", "attempt to call field 'foo' (a nil value)"},
            {"local f = nil; f()", "attempt to call local 'f' (a nil value)"},
            {"local t = {} ; t:m()", "attempt to call method 'm' (a nil value)"},
            {"redis()", "attempt to call global 'redis' (a table value)"},
            {"return (nil)()", "attempt to call a nil value"},
            {"local t = nil; return t.x", "attempt to index local 't' (a nil value)"},
            {"return redis.nope.x", "attempt to index field 'nope' (a nil value)"},
            {"local t = {}; t.a.b = 1", "attempt to index field 'a' (a nil value)"},
            {"local t = {}; return t[1].x", "attempt to index field '?' (a nil value)"},
        };
        for (String[] c : cases) {
            assertThatThrownBy(() -> jedis.eval(c[0])).as(c[0]).hasMessageStartingWith("ERR user_script:1: " + c[1] + " script: ");
        }
    }

    @Test
    void sortOfASetWithoutOrderIsSortedForScripts() {
        jedis.sadd("myset", "b", "aa", "a", "z");
        assertThat(jedis.eval("return redis.call('sort', KEYS[1], 'by', '_')", 1, "myset")).isEqualTo(List.of("a", "aa", "b", "z"));
    }

    @Test
    void resp3ConversionsBothWays() throws Exception {
        jedis.hset("h", "f", "v");
        jedis.zadd("z", 1.5, "m");
        try (RawConnection c = new RawConnection(server.port())) {
            c.resp3();
            assertThat(c.call("EVAL", "return redis.call('hgetall', 'h')", "0")).isEqualTo("*2");
            c.line();
            c.line();
            c.line();
            c.line();
            assertThat(c.call("EVAL", "redis.setresp(3) return redis.call('hgetall', 'h')", "0")).isEqualTo("%1");
            c.line();
            c.line();
            c.line();
            c.line();
            assertThat(c.call("EVAL", "redis.setresp(3) return redis.call('zscore', 'z', 'm').double * 2", "0")).isEqualTo(":3");
            assertThat(c.call("EVAL", "return redis.call('zscore', 'z', 'm')", "0")).isEqualTo("$3");
            assertThat(c.line()).isEqualTo("1.5");
            assertThat(c.call("EVAL", "return {double = 3.5}", "0")).isEqualTo(",3.5");
            assertThat(c.call("EVAL", "return true", "0")).isEqualTo(":1");
            assertThat(c.call("EVAL", "redis.setresp(3) return true", "0")).isEqualTo("#t");
            assertThat(c.call("EVAL", "redis.setresp(3) return false", "0")).isEqualTo("#f");
            assertThat(c.call("EVAL", "return nil", "0")).isEqualTo("_");
            assertThat(c.call("EVAL", "redis.setresp(3) return type(redis.call('get', 'nokey'))", "0")).isEqualTo("$3");
            assertThat(c.line()).isEqualTo("nil");
            assertThat(c.call("EVAL", "return {big_number = '12345678901234567890'}", "0")).isEqualTo("(12345678901234567890");
            assertThat(c.call("EVAL", "return {set = {a = true}}", "0")).isEqualTo("~1");
            assertThat(c.line()).isEqualTo("$1");
            assertThat(c.line()).isEqualTo("a");
            assertThat(c.call("EVAL", "return {verbatim_string = {format = 'txt', string = 'hi'}}", "0")).isEqualTo("=6");
            assertThat(c.line()).isEqualTo("txt:hi");
        }
    }

    @Test
    void monitorShowsTheScriptThenItsCommandsFromTheLuaClient() throws Exception {
        try (RawConnection monitor = new RawConnection(server.port())) {
            assertThat(monitor.call("MONITOR")).isEqualTo("+OK");
            jedis.eval("redis.call('set', KEYS[1], ARGV[1])", 1, "foo", "bar");
            assertThat(monitor.line()).contains("\"EVAL\" \"redis.call(");
            assertThat(monitor.line()).contains("[0 lua] \"set\" \"foo\" \"bar\"");
        }
    }

    @Test
    void scriptsMayReadStreamsButNotBlockOnThem() {
        jedis.xgroupCreate("s", "g", redis.clients.jedis.StreamEntryID.LAST_ENTRY, true);
        assertThat(jedis.eval("return redis.pcall('xread','STREAMS','s','$')", 1, "s")).isNull();
        assertThatThrownBy(() -> jedis.eval("return redis.pcall('xread','BLOCK',0,'STREAMS','s','$')", 1, "s"))
                .hasMessage("ERR xread command is not allowed with BLOCK option from scripts");
        assertThatThrownBy(() -> jedis.eval("return redis.pcall('XREADGROUP','group','g','c','BLOCK',0,'STREAMS','s','>')", 1, "s"))
                .hasMessage("ERR XREADGROUP command is not allowed with BLOCK option from scripts");
    }

    @Test
    void scriptCommandsAnswerAsRedis() {
        assertThatThrownBy(() -> jedis.scriptKill()).hasMessage("NOTBUSY No scripts in execution right now.");
        assertThatThrownBy(() -> jedis.sendCommand(redis.clients.jedis.Protocol.Command.SCRIPT, "FLUSH", "LATER"))
                .hasMessage("ERR SCRIPT FLUSH only support SYNC|ASYNC option");
        assertThatThrownBy(() -> jedis.sendCommand(redis.clients.jedis.Protocol.Command.SCRIPT, "DEBUG", "YES"))
                .hasMessageContaining("not supported");
        assertThat(jedis.sendCommand(redis.clients.jedis.Protocol.Command.SCRIPT, "FLUSH", "ASYNC")).isNotNull();
    }
}
