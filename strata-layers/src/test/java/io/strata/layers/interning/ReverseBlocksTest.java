package io.strata.layers.interning;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The reverse block encoding, byte by byte, as InternerLayout's Javadoc writes it. */
class ReverseBlocksTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void theJavadocExampleEncodesAsWritten() {
        List<byte[]> strings = List.of(b("ab"), b(""), b("c"));
        byte[] block = ReverseBlocks.encode(strings, 0, 3, 6);
        assertThat(block).containsExactly(0x02, 'a', 'b', 0x00, 0x01, 'c');
        assertThat(ReverseBlocks.entry(block, 0)).isEqualTo(b("ab"));
        assertThat(ReverseBlocks.entry(block, 1)).isEmpty();
        assertThat(ReverseBlocks.entry(block, 2)).isEqualTo(b("c"));
        assertThat(ReverseBlocks.entry(block, 3)).as("past the last entry: a gap").isNull();
        assertThat(ReverseBlocks.entry(block, -1L)).as("an unsigned index far beyond").isNull();
        assertThat(ReverseBlocks.entries(block)).containsExactly(b("ab"), b(""), b("c"));
    }

    @Test
    void lengthsAreLeb128Varints() {
        assertThat(ReverseBlocks.varintSize(0)).isEqualTo(1);
        assertThat(ReverseBlocks.varintSize(127)).isEqualTo(1);
        assertThat(ReverseBlocks.varintSize(128)).isEqualTo(2);
        assertThat(ReverseBlocks.varintSize(9_999)).isEqualTo(2);
        assertThat(ReverseBlocks.varintSize(16_384)).isEqualTo(3);
        byte[] s128 = new byte[128];
        byte[] block = ReverseBlocks.encode(List.of(s128), 0, 1, ReverseBlocks.entrySize(128));
        assertThat(block).hasSize(130);
        assertThat(block[0]).isEqualTo((byte) 0x80);
        assertThat(block[1]).isEqualTo((byte) 0x01);
        byte[] s9999 = new byte[9_999];
        block = ReverseBlocks.encode(List.of(s9999), 0, 1, ReverseBlocks.entrySize(9_999));
        assertThat(block[0]).isEqualTo((byte) 0x8F);
        assertThat(block[1]).isEqualTo((byte) 0x4E);
        assertThat(ReverseBlocks.entry(block, 0)).hasSize(9_999);
    }

    @Test
    void aTruncatedBlockIsMalformed() {
        assertThatThrownBy(() -> ReverseBlocks.entry(new byte[]{0x05, 'a'}, 0)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> ReverseBlocks.entry(new byte[]{(byte) 0x80}, 0)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> ReverseBlocks.entries(new byte[]{0x01})).isInstanceOf(IllegalStateException.class);
    }
}
