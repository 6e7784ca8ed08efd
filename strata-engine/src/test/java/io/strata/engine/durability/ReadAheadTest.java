package io.strata.engine.durability;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link ReadAhead} returns exactly the file's bytes for any sequence of reads, within, across and beyond its buffer. */
class ReadAheadTest {
    @TempDir
    Path dir;

    @Test
    void readsReturnTheFilesBytesWhereverTheyFallAgainstTheBuffer() throws IOException {
        byte[] data = new byte[10_000];
        new Random(3).nextBytes(data);
        Path file = Files.write(dir.resolve("f"), data);
        Random random = new Random(5);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ReadAhead reader = new ReadAhead(256);
            reader.of(ch);
            long pos = 0;
            while (pos < data.length) {
                int length = (int) Math.min(data.length - pos, random.nextInt(10) == 0 ? 1 + random.nextInt(600) : 1 + random.nextInt(40));
                ByteBuffer b = reader.read(pos, length);
                assertThat(b.position()).isZero();
                assertThat(b.remaining()).isEqualTo(length);
                byte[] got = new byte[length];
                b.get(got);
                assertThat(got).isEqualTo(Arrays.copyOfRange(data, (int) pos, (int) pos + length));
                // Sometimes step back: a reread of what was read before is still exact.
                pos = random.nextInt(8) == 0 ? Math.max(0, pos - random.nextInt(300)) : pos + length;
            }
            assertThatThrownBy(() -> reader.read(data.length - 4, 8)).isInstanceOf(IOException.class);
        }
    }

    @Test
    void aSmallFileTakesASmallBuffer() throws IOException {
        Path file = Files.write(dir.resolve("small"), new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ReadAhead reader = new ReadAhead();
            reader.of(ch);
            assertThat(reader.read(4, 4).getInt()).isEqualTo(0x05060708);
            assertThat(reader.read(0, 8).getLong()).isEqualTo(0x0102030405060708L);
        }
    }
}
