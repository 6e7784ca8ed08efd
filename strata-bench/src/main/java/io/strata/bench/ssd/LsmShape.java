package io.strata.bench.ssd;

import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;

/**
 * The shape of a RocksDB directory's data: files per level of its default column family,
 * read by opening it read-only — which RocksDB allows beside the process that has it open
 * (a read-only instance takes no lock; it sees the last state that process recorded). Both engines' figures depend on it (a scan merges one
 * iterator per level-0 file and one per deeper level), so the benchmark prints it.
 */
final class LsmShape {
    private LsmShape() {
    }

    /** e.g. {@code files per level 0/1/2…: 3/4/31/112}; a note saying why when it cannot be read. */
    static String of(Path rocksDirectory) {
        if (!Files.isDirectory(rocksDirectory)) {
            return "no RocksDB directory at " + rocksDirectory;
        }
        try (Options listing = new Options()) {
            List<byte[]> names = RocksDB.listColumnFamilies(listing, rocksDirectory.toString());
            List<ColumnFamilyDescriptor> families = new ArrayList<>();
            try (ColumnFamilyOptions familyOptions = new ColumnFamilyOptions(); DBOptions dbOptions = new DBOptions()) {
                for (byte[] name : names) {
                    families.add(new ColumnFamilyDescriptor(name, familyOptions));
                }
                List<ColumnFamilyHandle> handles = new ArrayList<>();
                try (RocksDB db = RocksDB.openReadOnly(dbOptions, rocksDirectory.toString(), families, handles)) {
                    try {
                        return describe(db, handles.get(0)); // the default family is listed first
                    } finally {
                        handles.forEach(ColumnFamilyHandle::close);
                    }
                }
            }
        } catch (RocksDBException | RuntimeException e) {
            return "LSM shape unreadable: " + e.getMessage();
        }
    }

    private static String describe(RocksDB db, ColumnFamilyHandle data) throws RocksDBException {
        StringJoiner files = new StringJoiner("/");
        int deepest = 0;
        long[] counts = new long[7];
        for (int level = 0; level < counts.length; level++) {
            counts[level] = Long.parseLong(db.getProperty(data, "rocksdb.num-files-at-level" + level));
            if (counts[level] > 0) {
                deepest = level;
            }
        }
        for (int level = 0; level <= deepest; level++) {
            files.add(Long.toString(counts[level]));
        }
        return String.format(Locale.ROOT, "files per level 0..%d: %s", deepest, files);
    }
}
