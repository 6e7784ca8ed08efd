package io.strata.cli.serve;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code strata serve}: servers built from Strata's layers. */
@Command(name = "serve",
        mixinStandardHelpOptions = true,
        description = "Run a server built from Strata's layers.",
        subcommands = {ServeRedisCommand.class})
public final class ServeCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
