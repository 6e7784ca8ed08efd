package io.strata.cli;

import io.strata.cli.bench.BenchCommand;
import io.strata.cli.serve.ServeCommand;
import io.strata.cli.shell.CliCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code strata}: the command line of Strata. Run it with the {@code ./strata} launcher at
 * the repository root, which builds this jar on first use, or
 * {@code java -jar strata-cli/target/strata-cli.jar}.
 */
@Command(name = "strata",
        mixinStandardHelpOptions = true,
        versionProvider = StrataCli.Version.class,
        description = "Strata: FoundationDB's semantics in an embedded Java engine, and its layers.",
        subcommands = {BenchCommand.class, CliCommand.class, ServeCommand.class, CommandLine.HelpCommand.class})
public final class StrataCli implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command tree, for tests and for main. */
    public static CommandLine commandLine() {
        return new CommandLine(new StrataCli());
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /** The version from the jar manifest, or "development" when run from classes. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = StrataCli.class.getPackage().getImplementationVersion();
            return new String[] {"strata " + (v == null ? "(development build)" : v)};
        }
    }
}
