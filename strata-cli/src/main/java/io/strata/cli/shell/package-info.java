/**
 * {@code strata cli}: FoundationDB's fdbcli for one database. {@link io.strata.cli.shell.Shell}
 * runs the commands against fdb-java's {@code Database}/{@code Transaction} only, so it runs
 * on the engine and on a real cluster alike; {@code Tokenizer} and {@code Printable} are
 * fdbcli's quoting in and out; {@code StatusCommand} and {@code StatusFormatter} its
 * {@code status}; {@code CliCommand} the picocli command, {@code ShellDatabase} the choice of
 * database (the one class here that names the engine, to open it), {@code LineSource} and
 * {@code TerminalLineSource} where lines come from (JLine on a terminal).
 */
package io.strata.cli.shell;
