package io.strata.cli.shell;

import com.apple.foundationdb.Transaction;

import java.io.PrintWriter;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;

/**
 * The transaction options switched on with the {@code option} command, and their parameters,
 * as fdbcli keeps them: one set for "all transactions" (applied to each new transaction) and a
 * copy for the transaction opened by {@code begin}. Not thread-safe: a shell is one thread.
 */
final class EnabledOptions {
    /** Options by code: fdbcli applies them to a new transaction in the order of their codes. */
    private final Map<Integer, Enabled> byCode = new TreeMap<>();

    private record Enabled(OptionCatalog.Option option, byte[] parameter) {}

    EnabledOptions() {}

    /** A copy, which {@code begin} and {@code reset} start the transaction's options from. */
    EnabledOptions copy() {
        EnabledOptions copy = new EnabledOptions();
        copy.byCode.putAll(byCode);
        return copy;
    }

    boolean isEmpty() {
        return byCode.isEmpty();
    }

    /** Switches {@code option} on with {@code parameter} (null when it takes none), or off. */
    void set(OptionCatalog.Option option, boolean on, byte[] parameter) {
        if (on) {
            byCode.put(option.code(), new Enabled(option, parameter));
        } else {
            byCode.remove(option.code());
        }
    }

    /** Sets every enabled option on {@code tr}, through fdb-java's public option consumer. */
    void applyTo(Transaction tr) {
        for (Enabled e : byCode.values()) {
            tr.options().getOptionConsumer().setOption(e.option().code(), e.parameter());
        }
    }

    /**
     * Lists the enabled options by name, one a line, a parameter after {@code ": "} in fdbcli's
     * quoting. An integer parameter shows as the 8 little-endian bytes it became, as in fdbcli.
     */
    void print(PrintWriter out) {
        byCode.values().stream()
                .sorted(Comparator.comparing(e -> e.option().name()))
                .forEach(e -> out.print(e.parameter() == null ? e.option().name() + "\n"
                        : e.option().name() + ": `" + Printable.token(e.parameter(), false) + "'\n"));
    }
}
