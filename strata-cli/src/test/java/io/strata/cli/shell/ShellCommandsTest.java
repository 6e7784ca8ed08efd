package io.strata.cli.shell;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Each data command's output, usage and errors, as fdbcli prints them. */
class ShellCommandsTest {
    @AutoClose
    private final ShellSession shell = ShellSession.inMemory();

    @Test
    void setCommitsAtOnceAndGetPrintsTheValue() {
        shell.ok("writemode on");
        assertThat(shell.ok("set hello world")).matches("Committed \\(\\d+\\)\n");
        assertThat(shell.ok("get hello")).isEqualTo("`hello' is `world'\n");
        assertThat(shell.ok("get nothing")).isEqualTo("`nothing': not found\n");
    }

    @Test
    void binaryKeysAndValuesRoundTrip() {
        shell.ok("writemode on");
        shell.ok("set \\x00\\xff\\\\k \"a value; with \\\"quotes\\\"\"");
        assertThat(shell.ok("get \\x00\\xff\\\\k")).isEqualTo("`\\x00\\xff\\\\k' is `a value; with \"quotes\"'\n");
        // What getrangekeys prints can be typed back in.
        String printed = shell.ok("getrangekeys \\x00").split("\n")[2];
        assertThat(printed).isEqualTo("`\\x00\\xff\\\\k'");
        String key = printed.substring(1, printed.length() - 1);
        assertThat(shell.ok("get " + key)).startsWith("`\\x00\\xff\\\\k' is ");
        // The bytes really are the escaped ones, as fdb-java sees them.
        byte[] value = shell.database().run(tr -> tr.get(new byte[] {0, (byte) 0xff, '\\', 'k'}).join());
        assertThat(new String(value)).isEqualTo("a value; with \"quotes\"");
    }

    @Test
    void writesAreRefusedUntilWritemodeIsOn() {
        String refusal = "ERROR: writemode must be enabled to set or clear keys in the database.\n";
        for (String command : new String[] {"set a b", "clear a", "clearrange a b"}) {
            ShellSession.Output o = shell.run(command);
            assertThat(o.err()).as(command).isEqualTo(refusal);
            assertThat(o.failed()).isTrue();
        }
        shell.ok("writemode on");
        shell.ok("set a b");
        shell.ok("writemode off");
        assertThat(shell.run("clear a").err()).isEqualTo(refusal);
        assertThat(shell.run("writemode maybe").out()).isEqualTo("Usage: writemode <on|off>\n");
    }

    @Test
    void clearAndClearrangeCommit() {
        shell.ok("writemode on");
        for (String k : new String[] {"a", "b", "c", "d"}) {
            shell.ok("set " + k + " v");
        }
        assertThat(shell.ok("clear a")).startsWith("Committed (");
        assertThat(shell.ok("clearrange b d")).startsWith("Committed (");
        assertThat(shell.ok("getrangekeys \"\"")).isEqualTo("\nRange limited to 25 keys\n`d'\n\n");
        assertThat(shell.run("clearrange d a").err()).isEqualTo("ERROR: Range begin key larger than end key (2005)\n");
    }

    @Test
    void getrangeFormatsLimitsAndPrefixes() {
        shell.ok("writemode on");
        for (int i = 0; i < 30; i++) {
            shell.ok(String.format("set k%02d v%d", i, i));
        }
        shell.ok("set l x");
        String all = shell.ok("getrange k");
        assertThat(all).startsWith("\nRange limited to 25 keys\n`k00' is `v0'\n`k01' is `v1'\n").endsWith("`k24' is `v24'\n\n");
        assertThat(all.lines().filter(l -> l.startsWith("`")).count()).isEqualTo(25);
        assertThat(shell.ok("getrange k00 k03")).isEqualTo("\nRange limited to 25 keys\n`k00' is `v0'\n`k01' is `v1'\n`k02' is `v2'\n\n");
        assertThat(shell.ok("getrangekeys k k99 2")).isEqualTo("\nRange limited to 2 keys\n`k00'\n`k01'\n\n");
        assertThat(shell.ok("getrange k k99 0")).isEqualTo("\nRange limited to 0 keys\n\n");
        assertThat(shell.ok("getrange k k99 \"\"")).as("an empty limit is 0").isEqualTo("\nRange limited to 0 keys\n\n");
        assertThat(shell.ok("getrange l")).isEqualTo("\nRange limited to 25 keys\n`l' is `x'\n\n");
    }

    @Test
    void badLimitsAndRangesAreRefused() {
        assertThat(shell.run("getrange a b x").err()).isEqualTo("ERROR: bad limit\n");
        assertThat(shell.run("getrange a b 1234567890").err()).isEqualTo("ERROR: bad limit\n");
        assertThat(shell.run("getrange b a").err()).isEqualTo("ERROR: Range begin key larger than end key (2005)\n");
        assertThat(shell.run("getrange \\xff\\xff").err()).isEqualTo("ERROR: Key outside legal range (2004)\n");
        assertThat(shell.run("getrange").out()).isEqualTo("Usage: getrange <BEGINKEY> [ENDKEY] [LIMIT]\n");
        assertThat(shell.run("getrangekeys a b 1 2").out()).isEqualTo("Usage: getrangekeys <BEGINKEY> [ENDKEY] [LIMIT]\n");
    }

    @Test
    void systemKeysNeedAnOption() {
        ShellSession.Output o = shell.run("get \\xff/x");
        assertThat(o.err()).isEqualTo("ERROR: Key outside legal range (2004)\n");
        assertThat(o.failed()).isTrue();
    }

    @Test
    void usageLinesGoToStdoutAndFail() {
        ShellSession.Output o = shell.run("get");
        assertThat(o.out()).isEqualTo("Usage: get <KEY>\n");
        assertThat(o.err()).isEmpty();
        assertThat(o.failed()).isTrue();
        shell.ok("writemode on");
        assertThat(shell.run("set a").out()).isEqualTo("Usage: set <KEY> <VALUE>\n");
        assertThat(shell.run("clear").out()).isEqualTo("Usage: clear <KEY>\n");
        assertThat(shell.run("clearrange a").out()).isEqualTo("Usage: clearrange <BEGINKEY> <ENDKEY>\n");
        assertThat(shell.run("getversion x").out()).isEqualTo("Usage: getversion\n");
        assertThat(shell.run("help a b").out()).isEqualTo("Usage: help [topic]\n");
    }

    @Test
    void getversionPrintsAReadVersionThatFollowsCommits() {
        long before = Long.parseLong(shell.ok("getversion").strip());
        shell.ok("writemode on");
        long committed = Long.parseLong(shell.ok("set a b").replaceAll("\\D", ""));
        long after = Long.parseLong(shell.ok("getversion").strip());
        assertThat(committed).isGreaterThan(before);
        assertThat(after).isGreaterThanOrEqualTo(committed);
    }

    @Test
    void severalCommandsOnALineAreEchoedAndStopAtTheFirstFailure() {
        ShellSession.Output o = shell.run("writemode on; set \"a b\" 1; get nope; bogus; get \"a b\"");
        assertThat(o.out()).matches(">>> writemode on\n>>> set a\\\\x20b 1\nCommitted \\(\\d+\\)\n"
                + ">>> get nope\n`nope': not found\n>>> bogus\n"
                + "WARNING: the previous command failed, the remaining commands will not be executed.\n");
        assertThat(o.err()).isEqualTo("ERROR: Unknown command `bogus'. Try `help'?\n");
        assertThat(o.failed()).isTrue();
        assertThat(shell.ok("get \"a b\"")).isEqualTo("`a b' is `1'\n");
    }

    @Test
    void unsupportedCommandsSayOneLineAndTheSessionGoesOn() {
        for (String command : new String[] {"configure new single memory", "coordinators auto", "exclude 1.2.3.4:4500",
                "kill", "tenant create t", "lock", "throttle list", "usetenant t"}) {
            ShellSession.Output o = shell.run(command);
            assertThat(o.err()).as(command).matches("ERROR: `\\w+' is not supported on a single-process database .*\n")
                    .doesNotContain("\n\n");
            assertThat(o.failed()).isTrue();
            assertThat(o.outcome()).isEqualTo(Shell.Outcome.CONTINUE);
        }
        assertThat(shell.ok("get a")).isEqualTo("`a': not found\n");
    }

    @Test
    void parseErrorsRunTheCommandsBeforeThemAndRefuseTheRest() {
        ShellSession.Output o = shell.run("get a; get \\q");
        assertThat(o.out()).isEqualTo("ERROR: malformed escape sequence\n>>> get a\n`a': not found\n get\n");
        assertThat(o.err()).isEqualTo("ERROR: Command failed to completely parse.\nERROR: Not running partial or malformed command:");
        assertThat(o.failed()).isTrue();
        o = shell.run("get \"open");
        assertThat(o.out()).isEqualTo("ERROR: unterminated quote\n get open\n");
    }

    @Test
    void exitAndQuitEndTheSession() {
        assertThat(shell.run("exit").outcome()).isEqualTo(Shell.Outcome.EXIT);
        assertThat(shell.run("quit").outcome()).isEqualTo(Shell.Outcome.EXIT);
        assertThat(shell.run("get a; quit; get b").outcome()).isEqualTo(Shell.Outcome.EXIT);
        assertThat(shell.run("  ").outcome()).isEqualTo(Shell.Outcome.CONTINUE);
    }

    @Test
    void waitopenAndSleepAreAccepted() {
        shell.ok("waitopen");
        shell.ok("waitconnected");
        shell.ok("sleep 0.01");
        assertThat(shell.run("sleep x").out()).isEqualTo("Usage: sleep <SECONDS>\n");
    }
}
