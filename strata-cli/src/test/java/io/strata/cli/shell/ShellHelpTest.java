package io.strata.cli.shell;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code help} and its pages, completion, history filtering. */
class ShellHelpTest {
    @AutoClose
    private final ShellSession shell = ShellSession.inMemory();

    @Test
    void theOverviewListsEachCommandOnce() {
        String help = shell.ok("help");
        assertThat(help).startsWith("\nList of commands:\n\n begin:\n      start a transaction\n");
        assertThat(help).contains(" getrange:\n", " writemode:\n", " status:\n", "type `help escaping'");
        assertThat(help).doesNotContain(" quit:").contains("configure", "tenant");
        assertThat(help.lines()).allMatch(l -> l.length() <= 80);
        assertThat(shell.ok("help help")).isEqualTo(help);
    }

    @Test
    void aCommandsPageHasItsUsageLine() {
        assertThat(shell.ok("help getrange")).startsWith("\ngetrange <BEGINKEY> [ENDKEY] [LIMIT]\n\nRead the keys and values of a range.\n\n")
                .contains("LIMIT is 25");
        assertThat(shell.ok("help exit")).isEqualTo("\nexit\n\nLeave the shell.\n\n");
        assertThat(shell.ok("help zzz")).isEqualTo("I don't know anything about `zzz'\n");
        assertThat(shell.ok("help configure")).isEqualTo("`configure' is not supported on a single-process database.\n");
    }

    @Test
    void escapingAndOptionsHaveTheirPages() {
        assertThat(shell.ok("help escaping")).contains("\\x20", "\\u0000", "\"hello world\"");
        String options = shell.ok("help options");
        assertThat(options).startsWith("\nThe following options are available to be set using the `option' command:\n\n");
        assertThat(options).contains("TIMEOUT - ", "(Int) Value in milliseconds of timeout", "ACCESS_SYSTEM_KEYS - ");
        assertThat(options).as("undocumented and deprecated options are not listed")
                .doesNotContain("DURABILITY_RISKY", "READ_AHEAD_DISABLE");
        assertThat(options.lines()).allMatch(l -> l.length() <= 80);
        // Each entry ends with a blank line, as fdbcli's printAtCol prints a trailing line feed.
        assertThat(options).contains("\n\nACCESS_SYSTEM_KEYS - ");
    }

    @Test
    void wrappingBreaksAtTheLastBlankBeforeTheColumn() {
        assertThat(LineWrap.printAtCol("aaa bbb ccc ddd", 8)).isEqualTo("aaa bbb\nccc ddd\n");
        assertThat(LineWrap.printAtCol("abcdefghij", 4)).isEqualTo("abcd\nefgh\nij\n");
        assertThat(LineWrap.printAtCol("one\n\ntwo\n", 80)).isEqualTo("one\n\ntwo\n\n");
        assertThat(LineWrap.lineWrap("aaa bbb ccc", 8)).isEqualTo("aaa bbb\nccc\n");
    }

    @Test
    void completionOffersCommandsThenTheirWords() {
        assertThat(ShellCompleter.candidates(List.of(""), 0)).contains("get", "getrange", "writemode", "status");
        assertThat(ShellCompleter.candidates(List.of("option", ""), 1)).containsExactly("on", "off");
        assertThat(ShellCompleter.candidates(List.of("option", "on", ""), 2)).contains("TIMEOUT").doesNotContain("DURABILITY_RISKY");
        assertThat(ShellCompleter.candidates(List.of("status", ""), 1)).containsExactly("minimal", "details", "json");
        assertThat(ShellCompleter.candidates(List.of("help", ""), 1)).contains("escaping", "options", "get");
        assertThat(ShellCompleter.candidates(List.of("get", ""), 1)).isEmpty();
    }

    @Test
    void historyLeavesOutWhatFdbcliLeavesOut() {
        assertThat(TerminalLineSource.remembered("get a")).isTrue();
        assertThat(TerminalLineSource.remembered("writemode on; set a b")).isFalse();
        assertThat(TerminalLineSource.remembered("unlock 00")).isFalse();
        assertThat(TerminalLineSource.remembered("")).isFalse();
    }
}
