package io.strata.redis.streams;

import io.strata.redis.protocol.Reply;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * One entry: its ID and its fields and values in the order they were given. Stored as one
 * value: {@code count[4]} then, for each field and each value, {@code length[4] bytes}.
 */
public record StreamEntry(StreamId id, List<byte[]> fieldsAndValues) {
    /** The reply form: [id, [field, value, ...]]. */
    public Reply reply() {
        return Reply.array(id.reply(), Reply.bulks(fieldsAndValues));
    }

    static byte[] encodeFields(List<byte[]> fieldsAndValues) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(ByteBuffer.allocate(4).putInt(fieldsAndValues.size()).array());
        for (byte[] b : fieldsAndValues) {
            out.writeBytes(ByteBuffer.allocate(4).putInt(b.length).array());
            out.writeBytes(b);
        }
        return out.toByteArray();
    }

    static List<byte[]> decodeFields(byte[] value) {
        ByteBuffer b = ByteBuffer.wrap(value);
        int n = b.getInt();
        List<byte[]> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            byte[] x = new byte[b.getInt()];
            b.get(x);
            out.add(x);
        }
        return out;
    }
}
