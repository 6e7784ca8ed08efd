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
        assertThat(c.value()).isEqualTo(A);
        assertThat(c.pruneAfter(second)).isFalse();
        assertThat(c.value()).as("the first value, out of every admitted reader's reach").isNull();
        assertThat(c.valueAt(20)).isEqualTo(B);
        assertThat(c.valueAt(Long.MAX_VALUE)).isEqualTo(B);
    }

    @Test
    void aSecondWriteInTheSameVersionReplacesTheFirst() {
        VersionChain c = chain(10, A);
        VersionNode replacement = c.write(10, B);
        assertThat(c.valueAt(10)).isEqualTo(B);
        assertThat(c.value()).isNull();
        assertThat(c.pruneAfter(replacement)).isFalse();
        assertThat(c.valueAt(10)).isEqualTo(B);
    }

    @Test
    void shortValuesHeldInlineComeBackWhole() {
        for (int length = 0; length <= VersionNode.INLINE_MAX + 1; length++) {
            byte[] value = new byte[length];
            for (int i = 0; i < length; i++) {
                value[i] = (byte) (0xF9 - 17 * i); // high bits set: no sign may leak into the next byte
            }
            VersionChain c = chain(10, value);
            VersionNode second = c.write(20, value.clone());
            assertThat(c.valueAt(10)).as("first write, %d bytes", length).isEqualTo(value);
            assertThat(c.valueAt(20)).as("second write, %d bytes", length).isEqualTo(value);
            assertThat(c.latestValue()).isEqualTo(value);
            assertThat(c.latestIsTombstone()).isFalse();
            assertThat(second.value()).isEqualTo(value);
        }
    }

    @Test
    void anInlineValueIsAFreshArrayEachTime() {
        VersionChain c = chain(10, new byte[] {1, 2, 3});
        byte[] first = c.valueAt(10);
        first[0] = 9;
        assertThat(c.valueAt(10)).containsExactly(1, 2, 3);
        assertThat(c.valueAt(10)).isNotSameAs(c.valueAt(10));
    }

    @Test
    void anEmptyValueIsNotATombstone() {
        VersionChain c = chain(10, new byte[0]);
        assertThat(c.valueAt(10)).isEmpty();
        assertThat(c.latestIsTombstone()).isFalse();
        c.write(20, null);
        assertThat(c.latestIsTombstone()).isTrue();
        assertThat(c.valueAt(20)).isNull();
        assertThat(c.valueAt(10)).isEmpty();
    }

    @Test
    void aChainLeftWithAnOldTombstoneCanGo() {
        VersionChain c = chain(10, A);
        VersionNode cleared = c.write(20, null);
        assertThat(c.pruneAfter(cleared)).isTrue();
        assertThat(c.valueAt(25)).isNull();
    }
}
