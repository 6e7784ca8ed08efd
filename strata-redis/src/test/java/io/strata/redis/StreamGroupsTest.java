package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import java.util.List;

/**
 * Consumer groups over TCP: XGROUP, XREADGROUP, XACK, XPENDING, XCLAIM, XAUTOCLAIM and XINFO,
 * with Redis 7.0's replies (entries-read and lag included) and errors. Idle times come from
 * the server's movable clock.
 */
class StreamGroupsTest extends StreamTestSupport {

    @Test
    void xgroupCreatesAndManagesGroupsWithRedisErrors() {
        assertThatThrownBy(() -> call("XGROUP", "CREATE", "s", "g", "$")).hasMessage("ERR The XGROUP subcommand requires the key "
                + "to exist. Note that for CREATE you may want to use the MKSTREAM option to create an empty stream automatically.");
        assertThat(call("XGROUP", "CREATE", "s", "g", "$", "MKSTREAM")).isEqualTo("OK");
        assertThat(call("XLEN", "s")).isEqualTo(0L);
        assertThatThrownBy(() -> call("XGROUP", "CREATE", "s", "g", "0")).hasMessage("BUSYGROUP Consumer Group name already exists");
        assertThatThrownBy(() -> call("XGROUP", "CREATE", "s", "h", "0", "ENTRIESREAD", "-5"))
                .hasMessage("ERR value for ENTRIESREAD must be positive or -1");
        assertThatThrownBy(() -> call("XGROUP", "SETID", "s", "nog", "0"))
                .hasMessage("NOGROUP No such consumer group 'nog' for key name 's'");
        assertThat(call("XGROUP", "CREATECONSUMER", "s", "g", "alice")).isEqualTo(1L);
        assertThat(call("XGROUP", "CREATECONSUMER", "s", "g", "alice")).isEqualTo(0L);
        assertThat(call("XGROUP", "DELCONSUMER", "s", "g", "alice")).isEqualTo(0L);
        assertThat(call("XGROUP", "DESTROY", "s", "g")).isEqualTo(1L);
        assertThat(call("XGROUP", "DESTROY", "s", "g")).isEqualTo(0L);
        assertThat(call("XINFO", "GROUPS", "s")).isEqualTo(List.of());
    }

    @Test
    void xreadgroupDeliversNewEntriesOnceAndTracksThePel() {
        addNumbered("s", 1, 4);
        call("XGROUP", "CREATE", "s", "g", "0");
        assertThat(call("XREADGROUP", "GROUP", "g", "alice", "COUNT", "2", "STREAMS", "s", ">").toString())
                .isEqualTo("[[s, [[1-0, [n, 1]], [2-0, [n, 2]]]]]");
        assertThat(call("XREADGROUP", "GROUP", "g", "bob", "STREAMS", "s", ">").toString())
                .isEqualTo("[[s, [[3-0, [n, 3]], [4-0, [n, 4]]]]]");
        assertThat(call("XREADGROUP", "GROUP", "g", "bob", "STREAMS", "s", ">")).isNull();
        assertThat(call("XPENDING", "s", "g").toString()).isEqualTo("[4, 1-0, 4-0, [[alice, 2], [bob, 2]]]");
        // History: the consumer's own pending entries, a deleted one as [id, nil].
        call("XDEL", "s", "1-0");
        assertThat(call("XREADGROUP", "GROUP", "g", "alice", "STREAMS", "s", "0").toString())
                .isEqualTo("[[s, [[1-0, null], [2-0, [n, 2]]]]]");
        assertThat(call("XACK", "s", "g", "1-0", "1-0", "9-0")).isEqualTo(1L);
        server.advanceMillis(50);
        List<Object> pending = Raw.list(call("XPENDING", "s", "g", "-", "+", "10", "alice"));
        assertThat(pending.toString()).isEqualTo("[[2-0, alice, 50, 2]]");
        assertThat(call("XPENDING", "s", "g", "IDLE", "60", "-", "+", "10")).isEqualTo(List.of());
        List<Object> groups = Raw.list(call("XINFO", "GROUPS", "s"));
        assertThat(groups.toString()).isEqualTo("[[name, g, consumers, 2, pending, 3, last-delivered-id, 4-0, "
                + "entries-read, 4, lag, 0]]");
        assertThatThrownBy(() -> call("XREADGROUP", "GROUP", "nog", "c", "STREAMS", "s", ">"))
                .hasMessage("NOGROUP No such key 's' or consumer group 'nog' in XREADGROUP with GROUP option");
        assertThatThrownBy(() -> call("XREADGROUP", "GROUP", "g", "c", "STREAMS", "s", "$"))
                .hasMessageStartingWith("ERR The $ ID is meaningless in the context of XREADGROUP");
        assertThatThrownBy(() -> call("XPENDING", "s", "nog")).hasMessage("NOGROUP No such key 's' or consumer group 'nog'");
    }

    @Test
    void lagIsUnknownAcrossADeletionAndExactOtherwise() {
        addNumbered("s", 1, 5);
        call("XGROUP", "CREATE", "s", "g", "0");
        call("XREADGROUP", "GROUP", "g", "c", "COUNT", "1", "STREAMS", "s", ">");
        call("XDEL", "s", "3-0");
        List<Object> g = Raw.list(Raw.list(call("XINFO", "GROUPS", "s")).get(0));
        assertThat(g.subList(8, 12).toString()).isEqualTo("[entries-read, 1, lag, null]");
        call("XREADGROUP", "GROUP", "g", "c", "STREAMS", "s", ">");
        g = Raw.list(Raw.list(call("XINFO", "GROUPS", "s")).get(0));
        assertThat(g.subList(8, 12).toString()).isEqualTo("[entries-read, 5, lag, 0]");
    }

    @Test
    void xclaimAndXautoclaimMoveIdleEntries() {
        addNumbered("s", 1, 3);
        call("XGROUP", "CREATE", "s", "g", "0");
        call("XREADGROUP", "GROUP", "g", "alice", "STREAMS", "s", ">");
        assertThat(call("XCLAIM", "s", "g", "bob", "100", "1-0", "2-0")).isEqualTo(List.of());
        server.advanceMillis(200);
        assertThat(call("XCLAIM", "s", "g", "bob", "100", "1-0", "JUSTID").toString()).isEqualTo("[1-0]");
        assertThat(call("XCLAIM", "s", "g", "bob", "0", "2-0", "RETRYCOUNT", "7").toString()).isEqualTo("[[2-0, [n, 2]]]");
        assertThat(call("XPENDING", "s", "g", "-", "+", "10").toString())
                .isEqualTo("[[1-0, bob, 0, 1], [2-0, bob, 0, 7], [3-0, alice, 200, 1]]");
        call("XDEL", "s", "2-0");
        server.advanceMillis(10);
        assertThat(call("XAUTOCLAIM", "s", "g", "carol", "100", "0", "COUNT", "1").toString())
                .isEqualTo("[3-0, [], [2-0]]");
        assertThat(call("XAUTOCLAIM", "s", "g", "carol", "100", "0").toString()).isEqualTo("[0-0, [[3-0, [n, 3]]], []]");
        assertThat(call("XPENDING", "s", "g").toString()).isEqualTo("[2, 1-0, 3-0, [[bob, 1], [carol, 1]]]");
        assertThatThrownBy(() -> call("XCLAIM", "s", "g", "bob", "0", "1-0", "BOGUS")).hasMessage("ERR Unrecognized XCLAIM option 'BOGUS'");
        assertThatThrownBy(() -> call("XAUTOCLAIM", "s", "g", "bob", "0", "0", "COUNT", "0")).hasMessage("ERR COUNT must be > 0");
        assertThatThrownBy(() -> call("XCLAIM", "s", "nog", "bob", "0", "1-0")).hasMessage("NOGROUP No such key 's' or consumer group 'nog'");
        List<Object> consumers = Raw.list(call("XINFO", "CONSUMERS", "s", "g"));
        assertThat(consumers).hasSize(3);
        assertThat(Raw.list(consumers.get(0)).subList(0, 4).toString()).isEqualTo("[name, alice, pending, 0]");
        assertThat(call("XGROUP", "DELCONSUMER", "s", "g", "carol")).isEqualTo(1L);
        assertThat(call("XPENDING", "s", "g").toString()).isEqualTo("[1, 1-0, 1-0, [[bob, 1]]]");
    }

    @Test
    void xinfoStreamFullListsGroupsConsumersAndPending() {
        addNumbered("s", 1, 2);
        call("XGROUP", "CREATE", "s", "g", "0");
        call("XREADGROUP", "GROUP", "g", "alice", "COUNT", "1", "STREAMS", "s", ">");
        List<Object> full = Raw.list(call("XINFO", "STREAM", "s", "FULL"));
        assertThat(full.get(14)).isEqualTo("entries");
        assertThat(full.get(15).toString()).isEqualTo("[[1-0, [n, 1]], [2-0, [n, 2]]]");
        List<Object> group = Raw.list(Raw.list(full.get(17)).get(0));
        assertThat(group.subList(0, 10).toString()).isEqualTo("[name, g, last-delivered-id, 1-0, entries-read, 1, lag, 1, pel-count, 1]");
        List<Object> consumer = Raw.list(Raw.list(group.get(13)).get(0));
        assertThat(consumer.get(1)).isEqualTo("alice");
        assertThat(consumer.subList(4, 6).toString()).isEqualTo("[pel-count, 1]");
        assertThatThrownBy(() -> call("XINFO", "STREAM", "nokey")).hasMessage("ERR no such key");
        assertThatThrownBy(() -> call("XINFO", "STREAM", "s", "FOO"))
                .hasMessage("ERR unknown subcommand or wrong number of arguments for 'STREAM'. Try XINFO HELP.");
    }
}
