package io.strata.cli.shell;

import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.reader.impl.DefaultParser;
import org.jline.reader.impl.history.DefaultHistory;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * The shell's line editor on a terminal (JLine 3): editing, completion ({@link ShellCompleter})
 * and a history of 1,000 lines kept in a file, as fdbcli keeps {@code ~/.fdbcli_history}.
 *
 * <p>JLine is told to leave the line alone: no history expansion ({@code !!}), which would
 * also strip the backslashes of {@code \xNN}; no continuation prompt for an open quote — the
 * shell's {@link Tokenizer} reads the line exactly as typed and reports an unterminated quote
 * as fdbcli does. Like fdbcli, it keeps lines that could change data in dangerous ways
 * ({@code writemode} and the like) out of the history.
 */
final class TerminalLineSource implements LineSource {
    /** fdbcli's history length. */
    static final int HISTORY_LINES = 1000;
    /** Lines containing these words are not remembered (fdbcli's list). */
    private static final List<String> NOT_REMEMBERED = List.of("writemode", "expensive_data_check", "unlock", "blobrange");

    private final Terminal terminal;
    private final LineReader reader;

    private TerminalLineSource(Terminal terminal, LineReader reader) {
        this.terminal = terminal;
        this.reader = reader;
    }

    static TerminalLineSource open(Path historyFile) {
        try {
            Terminal terminal = TerminalBuilder.builder().system(true).build();
            DefaultParser parser = new DefaultParser();
            parser.setEscapeChars(new char[0]);
            parser.setEofOnUnclosedQuote(false);
            parser.setEofOnEscapedNewLine(false);
            LineReader reader = LineReaderBuilder.builder()
                    .appName("strata")
                    .terminal(terminal)
                    .parser(parser)
                    .completer(new ShellCompleter())
                    .history(new SelectiveHistory())
                    .variable(LineReader.HISTORY_FILE, historyFile)
                    .variable(LineReader.HISTORY_SIZE, HISTORY_LINES)
                    .variable(LineReader.HISTORY_FILE_SIZE, HISTORY_LINES)
                    .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
                    .option(LineReader.Option.HISTORY_IGNORE_SPACE, false)
                    .option(LineReader.Option.HISTORY_TIMESTAMPED, false)
                    .build();
            return new TerminalLineSource(terminal, reader);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the terminal: " + e.getMessage(), e);
        }
    }

    @Override
    public String readLine(String prompt) {
        try {
            return reader.readLine(prompt);
        } catch (UserInterruptException e) {
            return ""; // Ctrl-C drops the line being typed, as at fdbcli's prompt
        } catch (EndOfFileException e) {
            return null; // Ctrl-D
        }
    }

    @Override
    public void close() {
        try {
            reader.getHistory().save();
        } catch (IOException e) {
            // fdbcli only traces a history it cannot save; losing it must not fail the exit
        }
        try {
            terminal.close();
        } catch (IOException e) {
            // nothing more to do with a terminal that will not close
        }
    }

    /** JLine's history, less the lines fdbcli keeps out of its own. */
    private static final class SelectiveHistory extends DefaultHistory {
        @Override
        public void add(Instant time, String line) {
            if (remembered(line)) {
                super.add(time, line);
            }
        }
    }

    /** Whether the history keeps {@code line}. */
    static boolean remembered(String line) {
        return !line.isEmpty() && NOT_REMEMBERED.stream().noneMatch(line::contains);
    }
}
