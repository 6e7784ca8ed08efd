package io.strata.bench.report;

import java.io.Closeable;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The results of one scenario run as they are measured: each {@link #add added} result is
 * kept, written as a CSV line and flushed, then handed to a listener (the console), so a run
 * stopped after an hour still leaves every finished cell on disk.
 *
 * <p>The file is UTF-8 with {@code \n} line ends: the header, then one line per result.
 * Not thread-safe: a scenario adds its results from the one thread that runs the cells.
 *
 * @param <R> the result type
 */
public final class CsvLog<R> implements Closeable {
    private final Writer csv;
    private final Function<R, String> line;
    private final Consumer<R> listener;
    private final List<R> results = new ArrayList<>();

    private CsvLog(Writer csv, Function<R, String> line, Consumer<R> listener) {
        this.csv = csv;
        this.line = line;
        this.listener = listener;
    }

    /**
     * Creates {@code outDir} if needed, and {@code outDir/file} holding {@code header} (replacing
     * any earlier file of that name).
     *
     * @param line     the CSV line of a result, without its line end
     * @param listener called with each result once its line is on disk
     */
    public static <R> CsvLog<R> create(Path outDir, String file, String header, Function<R, String> line,
                                       Consumer<R> listener) throws IOException {
        Files.createDirectories(outDir);
        Writer csv = Files.newBufferedWriter(outDir.resolve(file), StandardCharsets.UTF_8);
        try {
            csv.write(header + "\n");
        } catch (IOException e) {
            csv.close();
            throw e;
        }
        return new CsvLog<>(csv, line, listener);
    }

    /** Keeps {@code result}, writes and flushes its line, then hands it to the listener. */
    public void add(R result) throws IOException {
        results.add(result);
        csv.write(line.apply(result) + "\n");
        csv.flush();
        listener.accept(result);
    }

    /** Every result added so far, in order (a read-only view). */
    public List<R> results() {
        return Collections.unmodifiableList(results);
    }

    @Override
    public void close() throws IOException {
        csv.close();
    }
}
