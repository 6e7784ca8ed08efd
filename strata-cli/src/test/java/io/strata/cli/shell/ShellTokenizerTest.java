package io.strata.cli.shell;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** fdbcli's {@code parseLine} rules, case by case. */
class ShellTokenizerTest {
    /** The commands of {@code line}, each word decoded as ISO-8859-1 (one char per byte). */
    private static List<List<String>> words(String line) {
        return Tokenizer.parse(line).commands().stream()
                .map(c -> c.stream().map(w -> new String(w, StandardCharsets.ISO_8859_1)).toList())
                .toList();
    }

    @Test
    void blanksSeparateWordsAndSemicolonsCommands() {
        assertThat(words("  set  a   b ")).containsExactly(List.of("set", "a", "b"));
        assertThat(words("get a;get b ;  get c")).containsExactly(List.of("get", "a"), List.of("get", "b"), List.of("get", "c"));
        assertThat(words("get\ta\r\nb")).containsExactly(List.of("get", "a", "b"));
    }

    @Test
    void emptyLinesAndTrailingSemicolonsGiveEmptyCommands() {
        assertThat(words("")).containsExactly(List.of());
        assertThat(words("    ")).containsExactly(List.of());
        assertThat(words("get a;")).containsExactly(List.of("get", "a"), List.of());
    }

    @Test
    void quotesKeepBlanksAndSemicolonsAndMayBeEmpty() {
        assertThat(words("set \"a b;c\" v")).containsExactly(List.of("set", "a b;c", "v"));
        assertThat(words("get \"\"")).containsExactly(List.of("get", ""));
        assertThat(words("get a\"b c\"d")).containsExactly(List.of("get", "ab cd"));
        assertThat(words("get \"\";get x")).containsExactly(List.of("get", ""), List.of("get", "x"));
    }

    @Test
    void backslashEscapesAreLiteralBytes() {
        assertThat(words("get a\\ b")).containsExactly(List.of("get", "a b"));
        assertThat(words("get \\\"x\\\"")).containsExactly(List.of("get", "\"x\""));
        assertThat(words("get a\\;b")).containsExactly(List.of("get", "a;b"));
        assertThat(words("get a\\\\b")).containsExactly(List.of("get", "a\\b"));
        assertThat(words("get \\x00\\xFFz")).containsExactly(List.of("get", "\u0000\u00ffz"));
        assertThat(words("get \\u0041\\u00ff")).containsExactly(List.of("get", "A\u00ff"));
        // An escaped quote or semicolon neither quotes nor separates.
        assertThat(words("get \\x22a b")).containsExactly(List.of("get", "\"a", "b"));
        assertThat(words("get a\\x3bb")).containsExactly(List.of("get", "a;b"));
    }

    @Test
    void badEscapesAreMalformedAndKeepTheWordsBeforeThem() {
        Tokenizer.Line line = Tokenizer.parse("get a; get b \\q c");
        assertThat(line.malformed()).isTrue();
        assertThat(line.commands()).hasSize(2);
        assertThat(line.commands().get(1)).hasSize(2);
        assertThat(Tokenizer.parse("get \\").malformed()).isTrue();
        assertThat(Tokenizer.parse("get \\x4").malformed()).isTrue();
        assertThat(Tokenizer.parse("get \\xzz").malformed()).isTrue();
        assertThat(Tokenizer.parse("get \\u0100").malformed()).as("above one byte").isTrue();
        assertThat(Tokenizer.parse("get \\u00").malformed()).isTrue();
    }

    @Test
    void anOpenQuoteIsPartial() {
        Tokenizer.Line line = Tokenizer.parse("set \"a b");
        assertThat(line.partial()).isTrue();
        assertThat(line.malformed()).isFalse();
        assertThat(words("set \"a b")).containsExactly(List.of("set", "a b"));
    }

    @Test
    void textIsTokenizedAsUtf8Bytes() {
        assertThat(Tokenizer.parse("get é").commands().get(0).get(1)).containsExactly(0xc3, 0xa9);
    }

    @Test
    void hexDigitsAreReadAsStrtoulReadsThem() {
        assertThat(Tokenizer.strtoul16("ff")).isEqualTo(255L);
        assertThat(Tokenizer.strtoul16("0x1f")).isEqualTo(31L);
        assertThat(Tokenizer.strtoul16(" 1")).isEqualTo(1L);
        assertThat(Tokenizer.strtoul16("-1")).isEqualTo(-1L);
        assertThat(Tokenizer.strtoul16("1g")).isNull();
        assertThat(Tokenizer.strtoul16("  ")).isNull();
        // fdbcli keeps the low byte of strtoul's answer: \x-1 is 0xff.
        assertThat(words("get \\x-1")).containsExactly(List.of("get", "\u00ff"));
    }
}
