package io.strata.cli.shell;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** fdbcli's printed forms, and that what it prints reads back to the same bytes. */
class ShellPrintableTest {
    private static byte[] bytes(int... values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            b[i] = (byte) values[i];
        }
        return b;
    }

    @Test
    void printableEscapesNonPrintableBytesAndBackslashes() {
        assertThat(Printable.printable("hello world".getBytes())).isEqualTo("hello world");
        assertThat(Printable.printable(bytes(0, 0x1f, 0x7f, 0x80, 0xff))).isEqualTo("\\x00\\x1f\\x7f\\x80\\xff");
        assertThat(Printable.printable("a\\b\"c".getBytes())).isEqualTo("a\\\\b\"c");
    }

    @Test
    void theEchoFormEscapesQuotesSpacesAndBackslashes() {
        assertThat(Printable.token("a b\"c\\".getBytes(), true)).isEqualTo("a\\x20b\\\"c\\\\");
        assertThat(Printable.token("a b\\".getBytes(), false)).isEqualTo("a b\\");
        assertThat(Printable.token(bytes(1, 0xfe), false)).isEqualTo("\\x01\\xfe");
    }

    @Test
    void printedKeysReadBackToTheSameBytes() {
        Random random = new Random(42);
        for (int round = 0; round < 2_000; round++) {
            byte[] key = new byte[random.nextInt(12)];
            random.nextBytes(key);
            for (boolean echo : new boolean[] {false, true}) {
                String printed = echo ? Printable.token(key, true) : Printable.printable(key);
                // Quoted, as a user pastes a printed key that may hold blanks or semicolons; the
                // printed form leaves a quote bare, the echo form escapes it already.
                String typed = echo ? printed : printed.replace("\"", "\\\"");
                List<byte[]> words = Tokenizer.parse("get \"" + typed + "\"").commands().get(0);
                assertThat(words).as("round %d of %s", round, printed).hasSize(2);
                assertThat(words.get(1)).as(printed).isEqualTo(key);
            }
        }
    }
}
