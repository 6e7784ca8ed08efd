package io.strata.cli.bench;

import java.io.PrintWriter;

/** The lines every {@code strata bench} scenario prints around its table. */
final class BenchConsole {
    private BenchConsole() {}

    /** "N cores, Java V": the machine a run's figures belong to, for the first line of its report. */
    static String machine() {
        return String.format("%d cores, Java %s", Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
    }

    /** Ends the report: a blank line, then "wrote " and {@code files}. */
    static void wrote(PrintWriter o, String files) {
        o.println();
        o.println("wrote " + files);
        o.flush();
    }
}
