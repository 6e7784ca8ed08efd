package io.strata.cli;

import io.strata.MvccWindow;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * {@code --mvcc-window five-seconds|open-transactions} (a picocli mixin): how long the engines
 * a command opens keep old versions ({@link io.strata.Strata.Builder#mvccWindow}).
 */
public final class MvccWindowOption {
    @Option(names = "--mvcc-window", paramLabel = "five-seconds|open-transactions", converter = Converter.class,
            defaultValue = "five-seconds",
            description = "How long the engine keeps old versions: five-seconds (FoundationDB's window, for any read version) or "
                    + "open-transactions (only while an open transaction may read them, as strata serve redis runs; "
                    + "setReadVersion with a version no open transaction holds may then fail with 1007) (default: ${DEFAULT-VALUE}).")
    MvccWindow window;

    /** The window asked for (five-seconds unless given). */
    public MvccWindow window() {
        return window;
    }

    /** Parses {@code five-seconds} or {@code open-transactions} (any case). */
    static final class Converter implements CommandLine.ITypeConverter<MvccWindow> {
        @Override
        public MvccWindow convert(String value) {
            try {
                return MvccWindow.fromLabel(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException("expected five-seconds or open-transactions, got '" + value + "'");
            }
        }
    }
}
