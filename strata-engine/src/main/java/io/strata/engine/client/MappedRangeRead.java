package io.strata.engine.client;

import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.MappedKeyValue;
import com.apple.foundationdb.StreamingMode;
import io.strata.engine.error.FdbError;
import io.strata.engine.util.ByteKeys;

import java.util.ArrayList;
import java.util.List;

/**
 * One batch of {@code getMappedRange}, as FoundationDB 7.3 serves what fdb-java asks for: the C
 * API's byte target for the streaming mode ({@code fdb_c.cpp}
 * {@code validate_and_update_parameters}), NativeAPI's request limits
 * ({@code transformRangeLimits}), and a storage server holding the whole key space
 * ({@code storageserver.actor.cpp} {@code getMappedKeyValuesQ}, {@code mapKeyValues},
 * {@code quickGetKeyValues}):
 *
 * <ol>
 * <li>the primary (index) rows are read with the row limit and a fifth of the request's byte
 *     limit ({@code FRACTION_INDEX_BYTELIMIT_PREFETCH});</li>
 * <li>they are mapped ten at a time ({@code MAX_PARALLEL_QUICK_GET_VALUE}) while the request's
 *     byte limit is not used up, each row costing its own bytes and its secondary rows'; rows
 *     left over make {@code more} true, and the next batch goes on after the last row mapped;</li>
 * <li>each secondary read is {@code [prefix, strinc(prefix))} at the same version, at most 2,000
 *     rows and 10,000,000 bytes ({@code QUICK_GET_KEY_VALUES_LIMIT(_BYTES)}): a longer range is
 *     cut there without an error (fdb-java does not show the cut; the conflict range then ends
 *     after the last row read).</li>
 * </ol>
 *
 * <p>In EXACT mode there is no byte target: NativeAPI asks again until the row limit is met, so
 * every row up to the limit is mapped. Nothing here sees the transaction's writes: RYW reads
 * mapped ranges from the database and then refuses a result its own writes would change
 * (see {@code EngineTransaction}).
 *
 * <p>A mapper without {@code {...}} asks the storage server for point reads, whose results
 * FoundationDB's C binding reads as if they were range results ({@code FDBMappedKeyValue}
 * assumes "the underlying requests are always getRange"), which gives fdb-java garbage or a
 * crash. Such a batch is computed here (its errors and conflict ranges are FoundationDB's), and
 * the transaction then fails it with {@code unsupported_operation} if it has any row.
 */
final class MappedRangeRead {
    /** {@code CLIENT_KNOBS->REPLY_BYTE_LIMIT}: a request's byte limit, and its row limit when none is given. */
    static final int REPLY_BYTE_LIMIT = 80_000;
    /** {@code SERVER_KNOBS->FRACTION_INDEX_BYTELIMIT_PREFETCH}. */
    static final double FRACTION_INDEX_BYTELIMIT_PREFETCH = 0.2;
    /** {@code SERVER_KNOBS->MAX_PARALLEL_QUICK_GET_VALUE}. */
    static final int MAX_PARALLEL_QUICK_GET_VALUE = 10;
    /** {@code SERVER_KNOBS->QUICK_GET_KEY_VALUES_LIMIT} and {@code _LIMIT_BYTES}. */
    static final int QUICK_GET_KEY_VALUES_LIMIT = 2_000;
    static final int QUICK_GET_KEY_VALUES_LIMIT_BYTES = 10_000_000;
    /** The C API's byte targets of ITERATOR mode, by iteration (1.5 times the previous). */
    private static final int[] ITERATOR_BYTES = {4096, 6144, 9216, 13824, 20736, 31104, 46656, 69984, 80000, 120000};
    /** No byte target: EXACT mode. */
    static final int UNLIMITED = -1;

    private MappedRangeRead() {
    }

    /** The byte target the C API gives a fetch of {@code mode} (fdb-java passes no byte limit of its own). */
    static int targetBytes(StreamingMode mode, int iteration) {
        return switch (mode) {
            case WANT_ALL, SERIAL -> 80_000;
            case ITERATOR -> ITERATOR_BYTES[Math.min(Math.max(iteration, 1), ITERATOR_BYTES.length) - 1];
            case EXACT -> UNLIMITED;
            case SMALL -> 256;
            case MEDIUM -> 1_000;
            case LARGE -> 4_096;
        };
    }

    /**
     * One batch, with what RYW needs to check it against the transaction's writes and to add
     * its read conflict ranges.
     *
     * @param rows the mapped rows (arrays shared with the store; copy before handing out)
     * @param more whether the range may go on after the last row
     * @param primary the primary rows returned, with the flags of their read, for the primary
     *        conflict range ({@link ReadConflicts#ofRange})
     * @param secondaryConflicts per row, in order, the {@code {begin, end}} its secondary read depended on
     * @param pointReads whether rows were mapped to point reads (a mapper without {@code {...}})
     */
    record Result(List<MappedKeyValue> rows, boolean more, ReadView.Rows primary, List<byte[][]> secondaryConflicts,
                  boolean pointReads) implements RangeIterable.Batch<MappedKeyValue> {
        static final Result EMPTY = new Result(List.of(), false, new ReadView.Rows(List.of(), false, false, false), List.of(), false);
    }

    /**
     * Reads one batch from {@code stored} (the database at the read version, without the
     * transaction's writes).
     *
     * @param begin normalised (no {@code orEqual})
     * @param end normalised
     * @param limit rows, or -1 for none
     * @param targetBytes the C API's byte target, or {@link #UNLIMITED} (then {@code limit} is positive)
     */
    static Result read(ReadView stored, KeySelector begin, KeySelector end, byte[] mapperBytes, int limit, int targetBytes,
                       boolean reverse) {
        ReadView.Rows index;
        long budget;
        if (targetBytes == UNLIMITED) {
            index = stored.range(begin, end, limit, reverse);
            budget = Long.MAX_VALUE;
        } else {
            int requestBytes = Math.min(REPLY_BYTE_LIMIT, targetBytes);
            int requestRows = limit < 0 ? REPLY_BYTE_LIMIT : Math.min(REPLY_BYTE_LIMIT, limit);
            int indexBytes = Math.min(requestBytes, (int) (requestBytes * FRACTION_INDEX_BYTELIMIT_PREFETCH));
            index = stored.range(begin, end, requestRows, indexBytes, reverse);
            budget = requestBytes;
        }
        List<KeyValue> primary = index.rows();
        if (primary.isEmpty() && stored.resolvesEmpty(begin, end)) {
            // The storage server answers an empty range before reading the mapper.
            return new Result(List.of(), false, index, List.of(), false);
        }
        Mapper mapper = Mapper.parse(mapperBytes);
        int n = primary.size();
        List<MappedKeyValue> rows = new ArrayList<>(Math.min(n, 64));
        List<byte[][]> secondary = new ArrayList<>(Math.min(n, 64));
        int mapped = 0;
        for (int offset = 0; offset < n && budget > 0; offset += MAX_PARALLEL_QUICK_GET_VALUE) {
            int to = Math.min(n, offset + MAX_PARALLEL_QUICK_GET_VALUE);
            // The keys of a group are all built before any of its reads runs.
            byte[][] keys = new byte[to - offset][];
            for (int i = offset; i < to; i++) {
                KeyValue kv = primary.get(i);
                keys[i - offset] = mapper.mappedKey(kv.getKey(), kv.getValue());
            }
            if (mapper.onlyRange() && to > offset) {
                // quickGetKeyValues computes strinc(""): FoundationDB's ASSERT fails there, in the
                // storage server, which then fails. The engine fails the read instead.
                throw FdbError.INTERNAL_ERROR.exception("getMappedRange with the mapper (\"{...}\") reads a range with an empty prefix");
            }
            for (int i = offset; i < to; i++) {
                KeyValue kv = primary.get(i);
                byte[] key = keys[i - offset];
                long size;
                if (mapper.isRange()) {
                    byte[] rangeEnd = strinc(key);
                    ReadView.Rows r = stored.range(KeySelector.firstGreaterOrEqual(key), KeySelector.firstGreaterOrEqual(rangeEnd),
                            QUICK_GET_KEY_VALUES_LIMIT, QUICK_GET_KEY_VALUES_LIMIT_BYTES, false);
                    List<KeyValue> found = r.rows();
                    size = (long) ReadView.ROW_BYTES * found.size();
                    for (KeyValue f : found) {
                        size += f.getKey().length + f.getValue().length;
                    }
                    rows.add(new MappedKeyValue(kv.getKey(), kv.getValue(), key, rangeEnd, found));
                    // RYW's addConflictRange for a forward read of [fge(key), fge(strinc(key))).
                    byte[] dependedEnd = r.more() ? ByteKeys.keyAfter(found.get(found.size() - 1).getKey()) : rangeEnd;
                    secondary.add(new byte[][] {key, dependedEnd});
                } else {
                    byte[] value = stored.get(key).value();
                    size = key.length + (value == null ? 0 : value.length);
                    secondary.add(new byte[][] {key, ByteKeys.keyAfter(key)});
                }
                budget -= ReadView.ROW_BYTES + kv.getKey().length + kv.getValue().length + size;
                mapped++;
            }
        }
        boolean more = index.more() || mapped < n;
        List<KeyValue> returned = mapped == n ? primary : primary.subList(0, mapped);
        ReadView.Rows primaryRead = new ReadView.Rows(returned, more, index.readToBegin(), index.readThroughEnd() && !more);
        boolean pointReads = !mapper.isRange() && mapped > 0;
        return new Result(pointReads ? List.of() : rows, more, primaryRead, secondary, pointReads);
    }

    /**
     * FoundationDB's {@code strinc}: drop trailing 0xff bytes, then add one to the last byte.
     * Never called with an empty or all-0xff key: a packed tuple starts with a type code below 0xff.
     */
    static byte[] strinc(byte[] key) {
        int n = key.length;
        while (n > 0 && key[n - 1] == (byte) 0xff) {
            n--;
        }
        if (n == 0) {
            throw FdbError.INTERNAL_ERROR.exception("strinc of a key of 0xff bytes only");
        }
        byte[] out = java.util.Arrays.copyOf(key, n);
        out[n - 1]++;
        return out;
    }
}
