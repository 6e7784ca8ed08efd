package io.strata.redis.command.reference;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Redis 7.0's description of every command, read once from the resource
 * {@code redis-7.0-commands.txt} beside this class (its header explains the format). It is
 * kept apart from the command table so that a command group registers only what it
 * implements, and {@code COMMAND INFO}, {@code COMMAND DOCS} and {@code COMMAND GETKEYS}
 * describe it without the group saying more.
 *
 * <p>Concurrency: immutable after loading; the shared instance is loaded on first use by the
 * class-holder idiom, so every thread sees it whole.
 */
public final class CommandReference {
    private static final String RESOURCE = "redis-7.0-commands.txt";

    private final Map<String, CommandDoc> docs;

    private CommandReference(Map<String, CommandDoc> docs) {
        this.docs = Collections.unmodifiableMap(docs);
    }

    /** The reference for Redis 7.0. */
    public static CommandReference redis70() {
        return Holder.INSTANCE;
    }

    private static final class Holder {
        static final CommandReference INSTANCE = load();
    }

    /** The description of a command or subcommand ({@code config|get}), or null when Redis 7.0 has none. */
    public CommandDoc get(String name) {
        return docs.get(name.toLowerCase(Locale.ROOT));
    }

    public Map<String, CommandDoc> all() {
        return docs;
    }

    private static CommandReference load() {
        try (InputStream in = CommandReference.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + RESOURCE);
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            List<String> lines = new ArrayList<>();
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lines.add(line);
            }
            return new CommandReference(ReferenceParser.parse(lines));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Parses the text of a reference (for tests of the format). */
    static CommandReference parse(List<String> lines) {
        return new CommandReference(new LinkedHashMap<>(ReferenceParser.parse(lines)));
    }
}
