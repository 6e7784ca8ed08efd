package io.strata.cli.shell;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Where the interactive shell's lines come from: a line editor with history on a terminal,
 * plain lines otherwise (piped input), as fdbcli's linenoise reads without a prompt when its
 * standard input is not a terminal.
 */
interface LineSource extends AutoCloseable {
    /** The next line without its line end, or null at the end of input. */
    String readLine(String prompt);

    /** Saves what should outlive the session (history). */
    @Override
    void close();

    /**
     * A line editor on the terminal when this process has one, else plain lines from
     * {@code in}.
     *
     * @param history the history file of the line editor
     */
    static LineSource forThisProcess(InputStream in, Path history) {
        if (System.console() != null && in == System.in) {
            return TerminalLineSource.open(history);
        }
        return plain(in);
    }

    /** Plain lines from {@code in}, read as UTF-8, with no prompt and no history. */
    static LineSource plain(InputStream in) {
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        return new LineSource() {
            @Override
            public String readLine(String prompt) {
                try {
                    return reader.readLine();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }

            @Override
            public void close() {
                // the caller owns the stream
            }
        };
    }
}
