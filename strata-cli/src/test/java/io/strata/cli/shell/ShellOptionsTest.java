package io.strata.cli.shell;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The {@code option} command: fdbcli's names, messages, and where an option applies. */
class ShellOptionsTest {
    @AutoClose
    private final ShellSession shell = ShellSession.inMemory();

    @Test
    void anOptionForAllTransactionsAppliesToEachNewOne() {
        assertThat(shell.run("get \\xff/x").failed()).isTrue();
        assertThat(shell.ok("option on READ_SYSTEM_KEYS")).isEqualTo("Option enabled for all transactions\n");
        assertThat(shell.ok("get \\xff/x")).isEqualTo("`\\xff/x': not found\n");
        assertThat(shell.ok("get \\xff/y")).as("and to the next").isEqualTo("`\\xff/y': not found\n");
        assertThat(shell.ok("option off READ_SYSTEM_KEYS")).isEqualTo("Option disabled for all transactions\n");
        assertThat(shell.run("get \\xff/x").err()).isEqualTo("ERROR: Key outside legal range (2004)\n");
    }

    @Test
    void anOptionInsideATransactionAppliesToItAlone() {
        shell.ok("begin");
        assertThat(shell.ok("option on READ_SYSTEM_KEYS")).isEqualTo("Option enabled for current transaction\n");
        assertThat(shell.ok("get \\xff/x")).isEqualTo("`\\xff/x': not found\n");
        ShellSession.Output off = shell.run("option off READ_SYSTEM_KEYS");
        assertThat(off.err()).isEqualTo("ERROR: Cannot turn option off when using a transaction created with `begin'\n");
        assertThat(off.failed()).isTrue();
        shell.ok("commit");
        assertThat(shell.run("get \\xff/x").failed()).as("the global options did not change").isTrue();
    }

    @Test
    void globalOptionsCarryIntoBegin() {
        shell.ok("option on READ_SYSTEM_KEYS");
        shell.ok("begin");
        assertThat(shell.ok("get \\xff/x")).isEqualTo("`\\xff/x': not found\n");
        assertThat(shell.ok("option")).isEqualTo("\nCurrently enabled options:\n\nREAD_SYSTEM_KEYS\n\n");
    }

    @Test
    void listingShowsNamesInOrderAndParametersAsTheirBytes() {
        ShellSession.Output none = shell.run("option");
        assertThat(none.err()).isEqualTo("There are no options enabled\n");
        assertThat(none.failed()).isFalse();
        shell.ok("option on TIMEOUT 1000");
        shell.ok("option on DEBUG_TRANSACTION_IDENTIFIER my\\x01id");
        shell.ok("option on CAUSAL_READ_RISKY");
        assertThat(shell.ok("option")).isEqualTo("\nCurrently enabled options:\n\n"
                + "CAUSAL_READ_RISKY\n"
                + "DEBUG_TRANSACTION_IDENTIFIER: `my\\x01id'\n"
                + "TIMEOUT: `\\xe8\\x03\\x00\\x00\\x00\\x00\\x00\\x00'\n\n");
    }

    @Test
    void mistakesGetFdbclisMessages() {
        assertThat(shell.run("option on timeout 10").err())
                .isEqualTo("ERROR: invalid option 'timeout'. Try `help options' for a list of available options.\n");
        assertThat(shell.run("option on TIMEOUT").err()).isEqualTo("ERROR: option expected a parameter\n");
        assertThat(shell.run("option on LOCK_AWARE yes").err()).isEqualTo("ERROR: option did not expect a parameter\n");
        assertThat(shell.run("option on TIMEOUT 10ms").err()).isEqualTo("ERROR: could not parse value `10ms' as an integer\n");
        assertThat(shell.run("option maybe TIMEOUT").err())
                .isEqualTo("ERROR: Invalid option state `maybe': option must be turned `on' or `off'\n");
        assertThat(shell.run("option off TIMEOUT 10").err())
                .isEqualTo("ERROR: Cannot specify option argument when turning option off\n");
        assertThat(shell.run("option on").out()).isEqualTo("Usage: option <STATE> <OPTION> <ARG>\n");
        assertThat(shell.run("option on").failed()).isTrue();
        assertThat(shell.run("option").failed()).isFalse();
    }

    @Test
    void theDatabaseJudgesTheValue() {
        // fdbcli checks only the form; the database refuses a size limit below 32 when the
        // option reaches a transaction, which is the next command outside `begin'.
        assertThat(shell.ok("option on SIZE_LIMIT 1")).isEqualTo("Option enabled for all transactions\n");
        ShellSession.Output o = shell.run("get a");
        assertThat(o.err()).matches("ERROR: .* \\(2006\\)\n");
        assertThat(o.failed()).isTrue();
    }

    @Test
    void integersAreReadAsStdStoll() {
        assertThat(Shell.parseInteger("42")).isEqualTo(42L);
        assertThat(Shell.parseInteger("  -7")).isEqualTo(-7L);
        assertThat(Shell.parseInteger("+7")).isEqualTo(7L);
        assertThat(Shell.parseInteger("7 ")).isNull();
        assertThat(Shell.parseInteger("0x10")).isNull();
        assertThat(Shell.parseInteger("")).isNull();
        assertThat(Shell.parseInteger("99999999999999999999")).isNull();
    }
}
