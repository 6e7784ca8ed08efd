package io.strata.engine.store;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class VersionChainTest {
    private static final byte[] A = {'a'};
    private static final byte[] B = {'b'};

    private static VersionChain chain(long version, byte[] value) {
        return new VersionChain(new byte[] {'k'}, 0, version, value);
    }

    @Test
    void theChainIsItsFirstVersion() {
        VersionChain c = chain(10, A);
        assertThat(c.valueAt(9)).isNull();
        assertThat(c.valueAt(10)).isEqualTo(A);
        assertThat(c.latestValue()).isEqualTo(A);
    }

    @Test
    void pruningPastTheFirstVersionDropsItsValueButNotTheAnswers() {
        VersionChain c = chain(10, A);
        VersionNode second = c.write(20, B);
        assertThat(c.valueAt(15)).isEqualTo(A);
        assertThat(c.pruneAfter(c)).isFalse(); // the first version leaves the window: nothing behind it
        assertThat(c.value).isEqualTo(A);
        assertThat(c.pruneAfter(second)).isFalse();
        assertThat(c.value).as("the first value, out of every admitted reader's reach").isNull();
        assertThat(c.valueAt(20)).isEqualTo(B);
        assertThat(c.valueAt(Long.MAX_VALUE)).isEqualTo(B);
    }

    @Test
    void aSecondWriteInTheSameVersionReplacesTheFirst() {
        VersionChain c = chain(10, A);
        VersionNode replacement = c.write(10, B);
        assertThat(c.valueAt(10)).isEqualTo(B);
        assertThat(c.value).isNull();
        assertThat(c.pruneAfter(c)).as("a replaced node's pruning entry cuts nothing").isFalse();
        assertThat(c.valueAt(10)).isEqualTo(B);
        assertThat(c.pruneAfter(replacement)).isFalse();
    }

    @Test
    void aChainLeftWithAnOldTombstoneCanGo() {
        VersionChain c = chain(10, A);
        VersionNode cleared = c.write(20, null);
        assertThat(c.pruneAfter(c)).isFalse();
        assertThat(c.pruneAfter(cleared)).isTrue();
        assertThat(c.valueAt(25)).isNull();
    }
}
