package io.strata.layers.interning;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.Range;
import com.apple.foundationdb.subspace.Subspace;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Whole-subspace checks shared by the interner tests. */
final class InternerChecks {
    private InternerChecks() {}

    /**
     * Scans the interner's subspace and checks the mapping is a bijection: every forward
     * entry has the reverse entry naming it back, every reverse entry is named by exactly one
     * forward entry, no ID twice; reverse blocks within the value limit, not overlapping;
     * and every mapping in {@code told} (string bytes to ID, as clients were told) is stored. Returns the stored forward map (string to ID; for
     * versionstamps only stamps that fit).
     *
     * @param stamps the versionstamp packing, or null for 8-byte IDs
     */
    static Map<ByteBuffer, Long> assertBijection(Database db, Subspace s, VersionstampIdAllocator stamps,
                                                 Map<ByteBuffer, Long> told) {
        InternerLayout layout = new InternerLayout(s);
        List<KeyValue> forward = scan(db, layout.forwardPrefix);
        List<KeyValue> reverse = scan(db, stamps == null ? layout.reversePrefix : layout.stampedPrefix);
        Map<ByteBuffer, ByteBuffer> reverseByKey = new HashMap<>();
        if (stamps == null) {
            // Blocks: one reverse entry per ID, keyed here by reverse(id) as if unblocked.
            long end = 0;
            boolean any = false;
            for (KeyValue kv : reverse) {
                assertThat(kv.getValue().length).as("block value size").isLessThanOrEqualTo(ReverseBlocks.VALUE_SIZE_LIMIT);
                long first = layout.firstIdOf(kv.getKey());
                List<byte[]> entries = ReverseBlocks.entries(kv.getValue());
                assertThat(entries).as("a block names at least one string").isNotEmpty();
                if (any) {
                    assertThat(Long.compareUnsigned(end, first)).as("blocks do not overlap").isLessThanOrEqualTo(0);
                }
                long last = first + entries.size() - 1;
                assertThat(Long.compareUnsigned(last, first)).as("a block does not wrap").isGreaterThanOrEqualTo(0);
                for (int i = 0; i < entries.size(); i++) {
                    reverseByKey.put(ByteBuffer.wrap(layout.reverse(first + i)), ByteBuffer.wrap(entries.get(i)));
                }
                any = true;
                end = last + 1;
            }
        } else {
            for (KeyValue kv : reverse) {
                reverseByKey.put(ByteBuffer.wrap(kv.getKey()), ByteBuffer.wrap(kv.getValue()));
            }
        }
        Map<ByteBuffer, Long> ids = new HashMap<>();
        Map<ByteBuffer, ByteBuffer> namedBy = new HashMap<>();
        for (KeyValue kv : forward) {
            byte[] string = Arrays.copyOfRange(kv.getKey(), layout.forwardPrefix.length, kv.getKey().length);
            byte[] v = kv.getValue();
            byte[] reverseKey;
            if (stamps == null) {
                assertThat(v).hasSize(8);
                reverseKey = layout.reverse(Bytes.bigEndian(v));
            } else {
                assertThat(v).hasSize(12);
                int order = ((v[8] & 0xFF) << 8) | (v[9] & 0xFF);
                int index = ((v[10] & 0xFF) << 8) | (v[11] & 0xFF);
                reverseKey = layout.stampedReverse(Bytes.bigEndian(v), order, index);
            }
            ByteBuffer back = reverseByKey.get(ByteBuffer.wrap(reverseKey));
            assertThat(back).as("reverse entry of a forward entry").isNotNull();
            assertThat(back).as("reverse names the same string").isEqualTo(ByteBuffer.wrap(string));
            ByteBuffer previous = namedBy.put(ByteBuffer.wrap(reverseKey), ByteBuffer.wrap(string));
            assertThat(previous).as("two strings with one ID").isNull();
            if (stamps == null) {
                ids.put(ByteBuffer.wrap(string), Bytes.bigEndian(v));
            } else {
                long version = Bytes.bigEndian(v);
                int order = ((v[8] & 0xFF) << 8) | (v[9] & 0xFF);
                int index = ((v[10] & 0xFF) << 8) | (v[11] & 0xFF);
                if (stamps.fits(version, order, index)) {
                    ids.put(ByteBuffer.wrap(string), stamps.pack(version, order, index));
                }
            }
        }
        assertThat(reverseByKey.keySet()).as("every reverse entry is named by a forward entry").isEqualTo(namedBy.keySet());
        assertThat(ids.values()).as("no ID twice").doesNotHaveDuplicates();
        if (told != null) {
            for (Map.Entry<ByteBuffer, Long> e : told.entrySet()) {
                assertThat(ids.get(e.getKey())).as("the ID a client was told").isEqualTo(e.getValue());
            }
        }
        return ids;
    }

    private static List<KeyValue> scan(Database db, byte[] prefix) {
        return db.readAsync(tr -> tr.getRange(Range.startsWith(prefix)).asList()).join();
    }
}
