package io.strata.bench.stores;

import org.h2.mvstore.DataUtils;
import org.h2.mvstore.WriteBuffer;
import org.h2.mvstore.type.BasicDataType;

import java.nio.ByteBuffer;
import java.util.Arrays;

/** MVStore's type for keys and values: byte arrays, ordered as FoundationDB orders keys (unsigned, lexicographic). */
final class UnsignedBytesType extends BasicDataType<byte[]> {
    static final UnsignedBytesType INSTANCE = new UnsignedBytesType();

    private UnsignedBytesType() {
    }

    @Override
    public int compare(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b);
    }

    @Override
    public int getMemory(byte[] bytes) {
        return 24 + bytes.length;
    }

    @Override
    public void write(WriteBuffer buffer, byte[] bytes) {
        buffer.putVarInt(bytes.length).put(bytes);
    }

    @Override
    public byte[] read(ByteBuffer buffer) {
        byte[] bytes = new byte[DataUtils.readVarInt(buffer)];
        buffer.get(bytes);
        return bytes;
    }

    @Override
    public byte[][] createStorage(int size) {
        return new byte[size][];
    }
}
