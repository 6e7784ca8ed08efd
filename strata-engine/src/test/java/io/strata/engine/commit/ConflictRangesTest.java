package io.strata.engine.commit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConflictRangesTest {
    private static byte[] b(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    @Test
    void aSingleKeyIsKeptAsItsKeyAndItsEndIsBuiltOnDemand() {
        ConflictRanges r = new ConflictRanges();
        r.addKey(b("k"));
        r.add(b("m"), b("m\0")); // [m, m\x00) holds one key: stored the same way
        r.add(b("a"), b("c"));

        assertThat(r.size()).isEqualTo(3);
        assertThat(r.isSingleKey(0)).isTrue();
        assertThat(r.end(0)).isEqualTo(b("k\0"));
        assertThat(r.isSingleKey(1)).isTrue();
        assertThat(r.end(1)).isEqualTo(b("m\0"));
        assertThat(r.isSingleKey(2)).isFalse();
        assertThat(r.begin(2)).isEqualTo(b("a"));
        assertThat(r.end(2)).isEqualTo(b("c"));
    }

    @Test
    void growsPastItsFirstCapacityInOrder() {
        ConflictRanges r = ConflictRanges.ofKey(b("first"));
        for (int i = 0; i < 100; i++) {
            r.add(b("r" + i), b("s" + i));
        }
        assertThat(r.size()).isEqualTo(101);
        assertThat(r.begin(0)).isEqualTo(b("first"));
        assertThat(r.end(100)).isEqualTo(b("s99"));
    }

    @Test
    void anIndexOutsideIsRefused() {
        ConflictRanges r = new ConflictRanges();
        assertThat(r.isEmpty()).isTrue();
        assertThatThrownBy(() -> r.begin(0)).isInstanceOf(IndexOutOfBoundsException.class);
    }
}
