package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Transaction;

/** Redis 7 functions over Jedis: FUNCTION LOAD/LIST/DELETE/FLUSH/STATS/KILL and FCALL/FCALL_RO. */
class FunctionsTest extends SharedServerTestSupport {
    private static final String LIB = "#!lua name=mylib\n"
            + "redis.register_function('echo_key', function(keys, args) return {keys[1], args[1]} end)\n"
            + "redis.register_function{function_name='setter', callback=function(keys, args) "
            + "return redis.call('set', keys[1], args[1]) end, description='sets a key'}\n"
            + "redis.register_function{function_name='reader', callback=function(keys) return redis.call('get', keys[1]) end, "
            + "flags={'no-writes'}}";

    @BeforeEach
    void noLibraries() {
        jedis.functionFlush();
    }

    @Test
    void loadThenCallWithKeysAndArgs() {
        assertThat(jedis.functionLoad(LIB)).isEqualTo("mylib");
        assertThat(jedis.fcall("echo_key", List.of("k"), List.of("a"))).isEqualTo(List.of("k", "a"));
        assertThat(jedis.fcall("setter", List.of("k"), List.of("v"))).isEqualTo("OK");
        assertThat(jedis.fcallReadonly("reader", List.of("k"), List.of())).isEqualTo("v");
        assertThatThrownBy(() -> jedis.fcallReadonly("setter", List.of("k"), List.of("w")))
                .hasMessage("ERR Can not execute a script with write flag using *_ro command.");
        assertThatThrownBy(() -> jedis.fcall("nosuch", List.of(), List.of())).hasMessage("ERR Function not found");
    }

    @Test
    void dumpAndRestoreMoveLibrariesWithEachPolicy() {
        jedis.functionLoad(LIB);
        byte[] payload = jedis.functionDump();
        jedis.functionFlush();
        assertThat(jedis.functionRestore(payload)).isEqualTo("OK");
        assertThat(jedis.fcall("echo_key", List.of("k"), List.of("a"))).isEqualTo(List.of("k", "a"));

        // APPEND (the default) refuses a library that exists; REPLACE replaces it; FLUSH drops the rest.
        assertThatThrownBy(() -> jedis.functionRestore(payload)).hasMessage("ERR Library mylib already exists");
        assertThat(jedis.functionRestore(payload, redis.clients.jedis.args.FunctionRestorePolicy.REPLACE)).isEqualTo("OK");
        jedis.functionLoad("#!lua name=other\nredis.register_function('other_fn', function() return 1 end)");
        assertThat(jedis.functionRestore(payload, redis.clients.jedis.args.FunctionRestorePolicy.FLUSH)).isEqualTo("OK");
        assertThat(jedis.functionList()).extracting(l -> l.getLibraryName()).containsExactly("mylib");

        // A function of the payload that another library registers: nothing changes.
        jedis.functionFlush();
        jedis.functionLoad("#!lua name=clash\nredis.register_function('SETTER', function() return 1 end)");
        assertThatThrownBy(() -> jedis.functionRestore(payload)).hasMessage("ERR Function setter already exists");
        assertThat(jedis.functionList()).extracting(l -> l.getLibraryName()).containsExactly("clash");

        byte[] broken = payload.clone();
        broken[broken.length - 1] ^= 1;
        assertThatThrownBy(() -> jedis.functionRestore(broken)).hasMessage("ERR payload version or checksum are wrong");
        assertThatThrownBy(() -> jedis.sendCommand(redis.clients.jedis.Protocol.Command.FUNCTION, "RESTORE".getBytes(), payload,
                "MERGE".getBytes())).hasMessage("ERR Wrong restore policy given, value should be either FLUSH, APPEND or REPLACE.");
        // A key's DUMP is not a library.
        jedis.set("k", "v");
        assertThatThrownBy(() -> jedis.functionRestore(jedis.dump("k"))).hasMessage("ERR given type is not a function");
    }

    @Test
    void aFunctionCannotRegisterFunctionsEvenThroughAReferenceItsBodyKept() {
        jedis.functionLoad("#!lua name=inside\nredis.register_function('f1', function() "
                + "redis.register_function('f2', function() return 2 end) return 1 end)");
        assertThatThrownBy(() -> jedis.fcall("f1", List.of(), List.of()))
                .hasMessageContaining("attempt to call field 'register_function' (a nil value)");
        jedis.functionLoad("#!lua name=kept\nlocal lib = redis\n"
                + "lib.register_function('g1', function() lib.register_function('g1', function() return 1 end) end)\n"
                + "lib.register_function('g2', function() lib.math = math end)");
        assertThatThrownBy(() -> jedis.fcall("g1", List.of(), List.of()))
                .hasMessageContaining("redis.register_function can only be called on FUNCTION LOAD command");
        assertThatThrownBy(() -> jedis.fcall("g2", List.of(), List.of())).hasMessageContaining("Attempt to modify a readonly table");
    }

    @Test
    void functionNamesAreCaseInsensitiveAsInRedis70() {
        jedis.functionLoad(LIB);
        assertThat(jedis.fcall("ECHO_KEY", List.of("k"), List.of("a"))).isEqualTo(List.of("k", "a"));
        assertThat(jedis.fcallReadonly("Reader", List.of("k"), List.of())).isNull();
        assertThatThrownBy(() -> jedis.functionLoad("#!lua name=other\nredis.register_function('SETTER', function() return 1 end)"))
                .hasMessage("ERR Function SETTER already exists");
        assertThatThrownBy(() -> jedis.functionLoad("#!lua name=twice\nredis.register_function('f', function() return 1 end)\n"
                + "redis.register_function('F', function() return 2 end)"))
                .hasMessageContaining("Function already exists in the library");
        jedis.functionDelete("mylib");
        assertThatThrownBy(() -> jedis.fcall("echo_key", List.of("k"), List.of())).hasMessage("ERR Function not found");
    }

    @Test
    void librariesLiveInTheDatabaseAndSurviveFlushall() {
        jedis.functionLoad(LIB);
        jedis.flushAll();
        assertThat(jedis.fcall("echo_key", List.of("k"), List.of("a"))).isEqualTo(List.of("k", "a"));
        try (Jedis other = server.jedis()) {
            assertThat(other.fcall("echo_key", List.of("x"), List.of("y"))).isEqualTo(List.of("x", "y"));
        }
    }

    @Test
    void loadChecksAsRedis70() {
        jedis.functionLoad(LIB);
        assertThatThrownBy(() -> jedis.functionLoad(LIB)).hasMessage("ERR Library 'mylib' already exists");
        assertThatThrownBy(() -> jedis.functionLoad("#!lua name=other\nredis.register_function('echo_key', function() end)"))
                .hasMessage("ERR Function echo_key already exists");
        assertThatThrownBy(() -> jedis.functionLoad("return 1")).hasMessage("ERR Missing library metadata");
        assertThatThrownBy(() -> jedis.functionLoad("#!lua name=empty\nlocal x = 1")).hasMessage("ERR No functions registered");
        assertThatThrownBy(() -> jedis.functionLoad("#!js name=x\n")).hasMessage("ERR Engine 'js' not found");
        assertThatThrownBy(() -> jedis.functionLoad("#!lua name=a-b\n")).hasMessageStartingWith("ERR Library names can only contain");
        // The metadata line is split as Redis splits arguments: quotes group.
        assertThat(jedis.functionLoad("#!lua name=\"quoted\"\nredis.register_function('q', function() return 1 end)"))
                .isEqualTo("quoted");
        assertThatThrownBy(() -> jedis.functionLoad("#!lua name=\"open\nredis.register_function('o', function() return 1 end)"))
                .hasMessage("ERR Invalid library metadata");
        assertThatThrownBy(() -> jedis.functionLoad("#!lua name=bad\nredis.register_function('f', 5)"))
                .hasMessage("ERR Error registering functions: ERR second argument to redis.register_function must be a function");
        assertThatThrownBy(() -> jedis.functionLoad("#!lua name=bad\nlocal n = string.len('a')")).hasMessage(
                "ERR Error registering functions: ERR user_function:2: Script attempted to access nonexistent global variable 'string'");
        assertThatThrownBy(() -> jedis.functionLoad("#!lua name=bad\nredis.call('ping')")).hasMessage(
                "ERR Error registering functions: ERR user_function:2: Script attempted to access nonexistent global variable 'call'");
        assertThatThrownBy(() -> jedis.functionLoad("#!lua name=bad\nwhile true do end"))
                .hasMessage("ERR Error registering functions: ERR FUNCTION LOAD timeout");
        assertThatThrownBy(() -> jedis.functionLoad("#!lua name=bad\nx = = 1"))
                .hasMessage("ERR Error compiling function: user_function:2: unexpected symbol near '='");
        assertThat(jedis.functionLoadReplace("#!lua name=mylib\nredis.register_function('nine', function() return 9 end)"))
                .isEqualTo("mylib");
        assertThat(jedis.fcall("nine", List.of(), List.of())).isEqualTo(9L);
        assertThatThrownBy(() -> jedis.fcall("echo_key", List.of(), List.of())).hasMessage("ERR Function not found");
    }

    @Test
    void errorsNameTheFunctionAndLine() {
        jedis.functionLoad("#!lua name=errs\nredis.register_function('boom', function() error('boom') end)\n"
                + "redis.register_function('incr_it', function(keys) return redis.call('incr', keys[1]) end)");
        jedis.set("s", "x");
        assertThatThrownBy(() -> jedis.fcall("boom", List.of(), List.of()))
                .hasMessage("ERR user_function:2: boom script: boom, on @user_function:2.");
        assertThatThrownBy(() -> jedis.fcall("incr_it", List.of("s"), List.of()))
                .hasMessage("ERR value is not an integer or out of range script: incr_it, on @user_function:3.");
    }

    @Test
    void listDeleteAndStats() {
        jedis.functionLoad(LIB);
        List<Object> all = Raw.list(Raw.call(jedis, "FUNCTION", "LIST", "WITHCODE", "LIBRARYNAME", "MY*"));
        assertThat(all).hasSize(1);
        List<Object> lib = Raw.list(all.get(0));
        assertThat(lib.subList(0, 4)).containsExactly("library_name", "mylib", "engine", "LUA");
        assertThat(lib.get(6)).isEqualTo("library_code");
        assertThat(lib.get(7)).isEqualTo(LIB);
        List<Object> functions = Raw.list(lib.get(5));
        assertThat(functions).hasSize(3);
        assertThat(Raw.list(functions.get(1))).containsExactly("name", "setter", "description", "sets a key", "flags", List.of());
        assertThat(Raw.list(functions.get(2))).containsExactly("name", "reader", "description", null, "flags", List.of("no-writes"));
        assertThat(Raw.list(Raw.call(jedis, "FUNCTION", "LIST", "LIBRARYNAME", "other*"))).isEmpty();
        assertThatThrownBy(() -> Raw.call(jedis, "FUNCTION", "LIST", "LIBRARYNAME")).hasMessage("ERR library name argument was not given");
        List<Object> stats = Raw.list(Raw.call(jedis, "FUNCTION", "STATS"));
        assertThat(stats.subList(0, 3)).containsExactly("running_script", null, "engines");
        assertThat(Raw.list(stats.get(3))).containsExactly("LUA", List.of("libraries_count", 1L, "functions_count", 3L));
        assertThatThrownBy(() -> jedis.functionDelete("nosuch")).hasMessage("ERR Library not found");
        assertThat(jedis.functionDelete("mylib")).isEqualTo("OK");
        assertThatThrownBy(() -> jedis.fcall("echo_key", List.of(), List.of())).hasMessage("ERR Function not found");
    }

    @Test
    void fcallInsideMultiRunsInExecsTransaction() {
        jedis.functionLoad(LIB);
        Transaction t = jedis.multi();
        t.fcall("setter", List.of("m"), List.of("1"));
        t.get("m");
        assertThat(t.exec()).isEqualTo(List.of("OK", "1"));
    }

    @Test
    void functionKillStopsABusyFunctionAndScriptKillSaysSo() throws Exception {
        jedis.functionLoad("#!lua name=spin\nredis.register_function{function_name='spin', callback=function() while true do end end, "
                + "flags={'no-writes'}}");
        jedis.configSet("busy-reply-threshold", "50");
        try (Jedis other = server.jedis()) {
            CompletableFuture<String> spinning = CompletableFuture.supplyAsync(() -> {
                try (Jedis c = server.jedis()) {
                    return String.valueOf(c.fcall("spin", List.of(), List.of()));
                } catch (RuntimeException e) {
                    return e.getMessage();
                }
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (System.nanoTime() < deadline) {
                try {
                    other.ping();
                    Thread.sleep(10);
                } catch (RuntimeException e) {
                    assertThat(e).hasMessage("BUSY Redis is busy running a script. You can only call FUNCTION KILL or SHUTDOWN NOSAVE.");
                    break;
                }
            }
            assertThatThrownBy(other::scriptKill)
                    .hasMessage("BUSY Redis is busy running a script. You can only call FUNCTION KILL or SHUTDOWN NOSAVE.");
            List<Object> stats = Raw.list(Raw.call(other, "FUNCTION", "STATS"));
            assertThat(Raw.list(stats.get(1)).subList(0, 4)).containsExactly("name", "spin", "command", List.of("FCALL", "spin", "0"));
            assertThat(other.functionKill()).isEqualTo("OK");
            assertThat(spinning.get(10, TimeUnit.SECONDS)).startsWith("ERR Script killed by user with SCRIPT KILL... script: spin");
        } finally {
            jedis.configSet("busy-reply-threshold", "5000");
        }
    }

    @Test
    void theLibraryCodeIsReturnedAsLoaded() {
        jedis.functionLoad(LIB);
        assertThat(jedis.functionListWithCode("mylib").get(0).getLibraryCode()).isEqualTo(LIB);
    }
}
