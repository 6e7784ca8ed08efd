package io.strata.cli;

import com.apple.foundationdb.Database;
import io.strata.Storage;
import io.strata.Strata;
import io.strata.engine.client.EngineDatabase;
import picocli.CommandLine;
import picocli.CommandLine.Option;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code --storage memory|ssd} and {@code --disk-cache SIZE}, for every command that opens a
 * Strata database directory (a picocli mixin). Without {@code --storage} the directory is
 * opened with the storage that created it ({@code memory} for a new one): the builder's
 * {@link Strata.Builder#storage} is called only when the flag is given.
 */
public final class StorageOptions {
    @Option(names = "--storage", paramLabel = "memory|ssd", converter = StorageConverter.class,
            description = "Storage engine of a new database directory: memory (every key in the Java heap; the default) "
                    + "or ssd (the newest version of every key on disk in RocksDB, for data larger than memory). "
                    + "Recorded in the directory: later opens use it without this option, and asking for the other one is refused.")
    Storage storage;

    @Option(names = "--disk-cache", paramLabel = "SIZE", converter = SizeConverter.class,
            description = "With storage ssd: the disk store's block cache, outside the Java heap; bytes, or with a suffix "
                    + "k, m or g (KiB, MiB, GiB), at least 1m (default: an eighth of the maximum heap, at least 32m).")
    Long diskCacheBytes;

    /** The storage asked for with {@code --storage}, or null. */
    public Storage storage() {
        return storage;
    }

    /** Whether {@code --storage} or {@code --disk-cache} was given. */
    public boolean given() {
        return storage != null || diskCacheBytes != null;
    }

    /** The options given, as they appear on the command line ({@code --storage ssd}), for error messages. */
    public String named() {
        if (storage != null && diskCacheBytes != null) {
            return "--storage and --disk-cache";
        }
        return storage != null ? "--storage" : "--disk-cache";
    }

    /** Why these options contradict each other, or null when they do not. */
    public String conflict() {
        if (storage == Storage.MEMORY && diskCacheBytes != null) {
            return "--disk-cache applies to --storage ssd only";
        }
        return null;
    }

    /** A warning when {@code --disk-cache} was given for {@code database} but it does not use the disk store, else null. */
    public String unused(Database database) {
        if (diskCacheBytes != null && of(database).orElse(null) == Storage.MEMORY) {
            return "--disk-cache has no effect: the database's storage is memory";
        }
        return null;
    }

    /** {@code builder} with the options given applied (no call for an option not given). */
    public Strata.Builder applyTo(Strata.Builder builder) {
        if (storage != null) {
            builder.storage(storage);
        }
        if (diskCacheBytes != null) {
            builder.diskCacheBytes(diskCacheBytes);
        }
        return builder;
    }

    /** {@code Strata.builder()} with the options given applied. */
    public Strata.Builder builder() {
        return applyTo(Strata.builder());
    }

    /** The storage engine of {@code database}, when it is a Strata engine database. */
    public static Optional<Storage> of(Database database) {
        if (database instanceof EngineDatabase engine) {
            return Optional.of(engine.engine().store().onDisk() ? Storage.SSD : Storage.MEMORY);
        }
        return Optional.empty();
    }

    private static final Pattern SIZE = Pattern.compile("(\\d{1,18})(?:([kmg])(?:i?b)?|b)?");

    /** Parses {@code memory} or {@code ssd} (any case). */
    static final class StorageConverter implements CommandLine.ITypeConverter<Storage> {
        @Override
        public Storage convert(String value) {
            try {
                return Storage.fromLabel(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException("expected memory or ssd, got '" + value + "'");
            }
        }
    }

    /** Parses {@code --disk-cache}: a size ({@link #parseSize}) of at least 1 MiB, the engine's minimum. */
    static final class SizeConverter implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            long bytes = parseSize(value);
            if (bytes < 1 << 20) {
                throw new CommandLine.TypeConversionException("must be at least 1m (1 MiB), got '" + value + "'");
            }
            return bytes;
        }
    }

    /**
     * A size in bytes: digits, then optionally {@code k}, {@code m} or {@code g} (any case;
     * powers of 1024), which may be followed by {@code b} or {@code ib} ({@code 256m},
     * {@code 256MB}, {@code 256MiB} are all 256 MiB).
     *
     * @throws CommandLine.TypeConversionException when {@code value} is not such a size
     */
    public static long parseSize(String value) {
        Matcher m = SIZE.matcher(value.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new CommandLine.TypeConversionException("expected a size such as 268435456, 256m or 1g, got '" + value + "'");
        }
        int shift = m.group(2) == null ? 0 : switch (m.group(2)) {
            case "k" -> 10;
            case "m" -> 20;
            default -> 30;
        };
        long n = Long.parseLong(m.group(1));
        if (n > Long.MAX_VALUE >> shift) {
            throw new CommandLine.TypeConversionException("size too large: '" + value + "'");
        }
        return n << shift;
    }
}
