package io.strata.bench.ssd;

import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompressionType;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

import java.nio.file.Path;

/**
 * RocksDB alone (rocksdbjni's plain {@code RocksDB}, no transactions), configured as Strata's
 * disk store ({@code io.strata.engine.disk.RocksDiskStore}) configures its own, so the two
 * differ only in what Strata adds on top:
 *
 * <ul>
 *   <li>Table: block cache {@code LRUCache(cacheBytes)} (the size Strata gets as
 *       {@code diskCacheBytes}), Bloom filter 10 bits per key, 16 KiB blocks, index and filter
 *       blocks in the cache with L0's pinned.</li>
 *   <li>Column family: LZ4, 64 MiB write buffer then {@code optimizeLevelStyleCompaction()},
 *       dynamic level bytes; database: 4 background jobs, 2 subcompactions, {@code bytes_per_sync}
 *       1 MiB — what Strata's disk store uses.</li>
 *   <li>Writes: {@code WriteOptions} with the WAL on and {@code sync=true}: a batch returns
 *       once its WAL record is fsynced, and RocksDB's write thread groups concurrent synced
 *       writes into one fsync, as Strata's group commit does. One {@code WriteBatch} per
 *       loader batch.</li>
 *   <li>Reads: {@code db.get(key)}; a scan is an iterator with an upper bound, {@code seek},
 *       then {@code key()} and {@code value()} of up to {@code limit} entries.</li>
 * </ul>
 */
final class RocksTarget implements SsdTarget {
    static {
        RocksDB.loadLibrary();
    }

    private final LRUCache cache;
    private final BloomFilter bloom;
    private final Options options;
    private final WriteOptions syncWrites = new WriteOptions().setSync(true).setDisableWAL(false);
    private final RocksDB db;

    private RocksTarget(Path directory, long cacheBytes) {
        cache = new LRUCache(cacheBytes);
        bloom = new BloomFilter(10, false);
        BlockBasedTableConfig table = new BlockBasedTableConfig()
                .setBlockCache(cache)
                .setFilterPolicy(bloom)
                .setBlockSize(16 << 10)
                .setCacheIndexAndFilterBlocks(true)
                .setPinL0FilterAndIndexBlocksInCache(true);
        options = new Options()
                .setCreateIfMissing(true)
                .setTableFormatConfig(table)
                .setCompressionType(CompressionType.LZ4_COMPRESSION)
                .setWriteBufferSize(64L << 20)
                .setLevelCompactionDynamicLevelBytes(true)
                .optimizeLevelStyleCompaction()
                .setMaxBackgroundJobs(4)
                .setMaxSubcompactions(2)
                .setBytesPerSync(1 << 20);
        try {
            db = RocksDB.open(options, directory.toString());
        } catch (RocksDBException e) {
            closeOptions();
            throw new IllegalStateException("cannot open RocksDB in " + directory + ": " + e.getMessage(), e);
        }
    }

    static RocksTarget open(Path directory, long cacheBytes) {
        return new RocksTarget(directory, cacheBytes);
    }

    @Override
    public String name() {
        return ROCKSDB;
    }

    @Override
    public int writeBatch(SsdData data, long first, int count) {
        try (WriteBatch batch = new WriteBatch()) {
            for (long i = first; i < first + count; i++) {
                batch.put(data.key(i), data.value(i));
            }
            db.write(syncWrites, batch);
            return 0;
        } catch (RocksDBException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public Reader reader() {
        return new Reader() {
            private final Slice upper = new Slice(SsdData.END);
            private final ReadOptions scanOptions = new ReadOptions().setIterateUpperBound(upper);

            @Override
            public byte[] get(byte[] key) {
                try {
                    return db.get(key);
                } catch (RocksDBException e) {
                    throw new IllegalStateException(e);
                }
            }

            @Override
            public int scan(byte[] begin, int limit) {
                int n = 0;
                try (RocksIterator it = db.newIterator(scanOptions)) {
                    for (it.seek(begin); it.isValid() && n < limit; it.next()) {
                        it.key();
                        it.value();
                        n++;
                    }
                }
                return n;
            }

            @Override
            public void close() {
                scanOptions.close();
                upper.close();
            }
        };
    }

    @Override
    public void close() {
        db.close();
        syncWrites.close();
        closeOptions();
    }

    private void closeOptions() {
        options.close();
        bloom.close();
        cache.close();
    }
}
