package io.strata.redis.rdb;

/**
 * Decompression of LZF, the format of Redis's compressed RDB strings ({@code RDB_ENC_LZF}).
 * A stream of chunks, each starting with a control byte {@code c}:
 * <ul>
 *   <li>{@code c < 32}: a literal run; the next {@code c + 1} bytes are copied.</li>
 *   <li>otherwise a back reference: length {@code c >> 5} (7 means "7 plus the next byte"),
 *       plus 2; distance {@code ((c & 31) << 8) + next byte + 1} back from the output's end.
 *       The copy may overlap what it produces (a run).</li>
 * </ul>
 * Written from the format's description; the compressed side is not needed (DUMP writes
 * strings uncompressed, see {@link RdbEncoder}).
 */
public final class Lzf {
    private Lzf() {
    }

    /**
     * Decompresses {@code in} into exactly {@code expectedLength} bytes; a stream that
     * references outside its output, runs past its input, or does not produce exactly that
     * many bytes is a {@link RdbFormatException}.
     */
    public static byte[] decompress(byte[] in, int expectedLength) {
        if (expectedLength == 0) {
            // Redis compares the decompressor's result (0 on any error) with the length.
            return new byte[0];
        }
        byte[] out = new byte[expectedLength];
        int ip = 0;
        int op = 0;
        while (ip < in.length) {
            int ctrl = in[ip++] & 0xff;
            if (ctrl < 32) {
                int run = ctrl + 1;
                if (ip + run > in.length || op + run > out.length) {
                    throw bad();
                }
                System.arraycopy(in, ip, out, op, run);
                ip += run;
                op += run;
                continue;
            }
            int len = ctrl >> 5;
            if (len == 7) {
                if (ip >= in.length) {
                    throw bad();
                }
                len += in[ip++] & 0xff;
            }
            if (ip >= in.length) {
                throw bad();
            }
            int ref = op - ((ctrl & 0x1f) << 8) - 1 - (in[ip++] & 0xff);
            len += 2;
            if (ref < 0 || op + len > out.length) {
                throw bad();
            }
            for (int i = 0; i < len; i++) {
                out[op++] = out[ref++];
            }
        }
        if (op != expectedLength) {
            throw bad();
        }
        return out;
    }

    private static RdbFormatException bad() {
        return new RdbFormatException("Invalid LZF compressed string");
    }
}
