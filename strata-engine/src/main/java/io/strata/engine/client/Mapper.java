package io.strata.engine.client;

import io.strata.engine.error.FdbError;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;

/**
 * A {@code getMappedRange} mapper as FoundationDB 7.3's storage server reads it
 * ({@code fdbserver/storageserver.actor.cpp}: {@code mapKeyValues}, {@code preprocessMappedKey},
 * {@code constructMappedKey}): a tuple whose elements become, for each primary key-value, the
 * elements of the <em>mapped key</em>.
 *
 * <ul>
 * <li>A string element (bytes or unicode) containing {@code {{} or {@code }}} is a literal with
 *     every {@code {{} made {@code {} and then every {@code }}} made {@code }}, and it enters the
 *     mapped key re-encoded as a <em>byte string</em> (type 0x01), whatever its type was
 *     ({@code Tuple::makeTuple(std::string)} appends a {@code StringRef}).</li>
 * <li>Otherwise a string of more than 5 bytes of the form {@code {K[..]}} or {@code {V[..]}} is
 *     element {@code ..} of the primary key, or value, unpacked as a tuple; the element enters
 *     the mapped key as its raw bytes. The index is read with C's {@code std::stoi} (leading
 *     blanks, a sign, digits, anything after ignored).</li>
 * <li>The string {@code {...}} makes the mapped key the prefix of a range read; it must be the
 *     last element ({@code mapper_bad_range_decriptor}, 2032, otherwise).</li>
 * <li>Every other element (any other string, an integer, null, ...) enters the mapped key as
 *     its raw bytes.</li>
 * </ul>
 *
 * <p>Errors, in FoundationDB's order: the mapper not a tuple (2043) or a misplaced {@code {...}}
 * (2032) when the mapper is read; per row, for each reference in element order, an index
 * {@code stoi} cannot read (2030), then the key (2041) or value (2042) not a tuple (parsed once,
 * at its first reference), then the index out of range (2030).
 *
 * <p>Tuples are parsed as FoundationDB's C++ {@code Tuple} parses them, not as fdb-java's: it
 * knows null (one byte), byte and unicode strings, integers of up to 8 bytes, float, double,
 * booleans and 96-bit versionstamps, and refuses every other type code — nested tuples, UUIDs and
 * big integers included. A truncated last integer or an unterminated last string is accepted.
 */
final class Mapper {
    private enum Kind { LITERAL, KEY, VALUE, RANGE }

    private static final byte[] RANGE_MARKER = {'{', '.', '.', '.', '}'};

    private final Kind[] kinds;
    /** LITERAL: the bytes the element adds to the mapped key. */
    private final byte[][] literals;
    /** KEY / VALUE: the index, or null when {@code stoi} cannot read it. */
    private final Integer[] indexes;
    private final boolean range;

    private Mapper(Kind[] kinds, byte[][] literals, Integer[] indexes, boolean range) {
        this.kinds = kinds;
        this.literals = literals;
        this.indexes = indexes;
        this.range = range;
    }

    /** {@code mapKeyValues}' {@code Tuple::unpack(mapper)} and {@code preprocessMappedKey}. */
    static Mapper parse(byte[] mapper) {
        CTuple t;
        try {
            t = CTuple.unpack(mapper);
        } catch (NotATuple e) {
            throw FdbError.MAPPER_NOT_TUPLE.exception();
        }
        int n = t.size();
        Kind[] kinds = new Kind[n];
        byte[][] literals = new byte[n][];
        Integer[] indexes = new Integer[n];
        boolean range = false;
        for (int i = 0; i < n; i++) {
            int code = t.code(i);
            if (code != 0x01 && code != 0x02) {
                kinds[i] = Kind.LITERAL;
                literals[i] = t.raw(i);
                continue;
            }
            byte[] s = t.string(i);
            int size = s.length;
            byte[] unescaped = replaceAll(replaceAll(s, (byte) '{'), (byte) '}');
            if (unescaped != s) {
                kinds[i] = Kind.LITERAL;
                literals[i] = CTuple.packBytes(unescaped);
            } else if (isReference(s, size)) {
                kinds[i] = s[1] == 'K' ? Kind.KEY : Kind.VALUE;
                indexes[i] = stoi(s, 3, size - 2);
            } else if (Arrays.equals(s, RANGE_MARKER)) {
                if (i != n - 1) {
                    throw FdbError.MAPPER_BAD_RANGE_DECRIPTOR.exception();
                }
                kinds[i] = Kind.RANGE;
                range = true;
            } else {
                kinds[i] = Kind.LITERAL;
                literals[i] = t.raw(i);
            }
        }
        return new Mapper(kinds, literals, indexes, range);
    }

    /** Whether the mapped key is the prefix of a range read ({@code {...}}), rather than a key to get. */
    boolean isRange() {
        return range;
    }

    /** Whether the mapper has no element but {@code {...}}: every mapped key is then empty. */
    boolean onlyRange() {
        return range && kinds.length == 1;
    }

    /** {@code constructMappedKey} for one primary key-value. */
    byte[] mappedKey(byte[] key, byte[] value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64);
        CTuple keyTuple = null;
        CTuple valueTuple = null;
        for (int i = 0; i < kinds.length; i++) {
            switch (kinds[i]) {
                case RANGE -> { }
                case LITERAL -> out.writeBytes(literals[i]);
                default -> {
                    Integer index = indexes[i];
                    if (index == null) {
                        throw FdbError.MAPPER_BAD_INDEX.exception("cannot read the index of element " + i);
                    }
                    CTuple reference;
                    if (kinds[i] == Kind.KEY) {
                        if (keyTuple == null) {
                            keyTuple = unpackOr(key, FdbError.KEY_NOT_TUPLE);
                        }
                        reference = keyTuple;
                    } else {
                        if (valueTuple == null) {
                            valueTuple = unpackOr(value, FdbError.VALUE_NOT_TUPLE);
                        }
                        reference = valueTuple;
                    }
                    if (index < 0 || index >= reference.size()) {
                        throw FdbError.MAPPER_BAD_INDEX.exception("index " + index + " of a tuple of " + reference.size());
                    }
                    out.writeBytes(reference.raw(index));
                }
            }
        }
        return out.toByteArray();
    }

    private static CTuple unpackOr(byte[] data, FdbError error) {
        try {
            return CTuple.unpack(data);
        } catch (NotATuple e) {
            throw error.exception();
        }
    }

    /** {@code singleKeyOrValue}: {@code {K[..]}} or {@code {V[..]}}, longer than 5 bytes. */
    private static boolean isReference(byte[] s, int size) {
        return size > 5 && s[0] == '{' && (s[1] == 'K' || s[1] == 'V') && s[2] == '['
                && s[size - 2] == ']' && s[size - 1] == '}';
    }

    /**
     * {@code unescapeLiterals(s, "cc", "c")}: each doubled {@code c} made single, left to right,
     * the search going on after each replacement. Returns {@code s} itself when nothing changed.
     */
    private static byte[] replaceAll(byte[] s, byte c) {
        ByteArrayOutputStream out = null;
        int copied = 0;
        for (int i = 0; i + 1 < s.length; i++) {
            if (s[i] == c && s[i + 1] == c) {
                if (out == null) {
                    out = new ByteArrayOutputStream(s.length);
                }
                out.write(s, copied, i + 1 - copied);
                copied = i + 2;
                i++;
            }
        }
        if (out == null) {
            return s;
        }
        out.write(s, copied, s.length - copied);
        return out.toByteArray();
    }

    /**
     * {@code std::stoi} of {@code s[from, to)}: {@code strtol} in base 10 (C locale blanks, an
     * optional sign, at least one digit, the rest ignored; a NUL ends the string), null when
     * there is no number or it does not fit an {@code int} (stoi's invalid_argument and
     * out_of_range, both {@code mapper_bad_index}).
     */
    static Integer stoi(byte[] s, int from, int to) {
        int i = from;
        while (i < to && isCSpace(s[i])) {
            i++;
        }
        boolean negative = false;
        if (i < to && (s[i] == '+' || s[i] == '-')) {
            negative = s[i] == '-';
            i++;
        }
        long value = 0;
        int digits = 0;
        while (i < to && s[i] >= '0' && s[i] <= '9') {
            value = value * 10 + (s[i] - '0');
            if (value > (long) Integer.MAX_VALUE + 1) {
                return null; // out of range (strtol's ERANGE, or outside int)
            }
            digits++;
            i++;
        }
        if (digits == 0) {
            return null;
        }
        long signed = negative ? -value : value;
        if (signed < Integer.MIN_VALUE || signed > Integer.MAX_VALUE) {
            return null;
        }
        return (int) signed;
    }

    private static boolean isCSpace(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == 0x0b || b == '\f' || b == '\r';
    }

    /** Thrown by {@link CTuple#unpack} for FoundationDB's {@code invalid_tuple_data_type}. */
    static final class NotATuple extends Exception {
        NotATuple() {
            super(null, null, false, false);
        }
    }

    /**
     * A tuple as FoundationDB's C++ {@code Tuple} (7.3, {@code fdbclient/Tuple.cpp}) splits it:
     * element offsets found from type codes alone, elements kept as raw bytes.
     */
    static final class CTuple {
        private static final int VERSIONSTAMP_96_CODE = 0x33;
        private static final int VERSIONSTAMP_TUPLE_SIZE = 12;

        private final byte[] data;
        private final int[] offsets;
        private final int size;

        private CTuple(byte[] data, int[] offsets, int size) {
            this.data = data;
            this.offsets = offsets;
            this.size = size;
        }

        /** {@code Tuple::unpack(str)}, without {@code exclude_incomplete} or user types. */
        static CTuple unpack(byte[] data) throws NotATuple {
            int[] offsets = new int[Math.min(data.length, 16)];
            int n = 0;
            int i = 0;
            while (i < data.length) {
                if (n == offsets.length) {
                    offsets = Arrays.copyOf(offsets, Math.max(1, n * 2));
                }
                offsets[n++] = i;
                int code = data[i] & 0xff;
                if (code == 0x01 || code == 0x02) {
                    i = stringTerminator(data, i + 1) + 1;
                } else if (code >= 0x0c && code <= 0x1c) {
                    i += Math.abs(code - 0x14) + 1;
                } else if (code == 0x20) {
                    i += 4 + 1;
                } else if (code == 0x21) {
                    i += 8 + 1;
                } else if (code == 0x26 || code == 0x27) {
                    i += 1;
                } else if (code == 0x00) {
                    i += 1;
                } else if (code == VERSIONSTAMP_96_CODE) {
                    i += VERSIONSTAMP_TUPLE_SIZE + 1;
                } else {
                    throw new NotATuple();
                }
            }
            return new CTuple(data, offsets, n);
        }

        /** {@code findStringTerminator}: the first 0x00 not followed by 0xff, or where the data runs out. */
        private static int stringTerminator(byte[] data, int offset) {
            int i = offset;
            while (i < data.length - 1 && !(data[i] == 0 && data[i + 1] != (byte) 0xff)) {
                i += data[i] == 0 ? 2 : 1;
            }
            return i;
        }

        int size() {
            return size;
        }

        int code(int index) {
            return data[offsets[index]] & 0xff;
        }

        /** {@code subTupleRawString(index)}: the element's bytes, up to the next element or the end. */
        byte[] raw(int index) {
            int end = index + 1 < size ? offsets[index + 1] : data.length;
            return Arrays.copyOfRange(data, offsets[index], end);
        }

        /** {@code getString(index)}: the bytes after the type code, each 0x00 and the byte after it read as 0x00. */
        byte[] string(int index) {
            int b = offsets[index] + 1;
            int e = index + 1 < size ? offsets[index + 1] : data.length;
            ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(0, e - b));
            for (int i = b; i < e; ++i) {
                if (data[i] == 0) {
                    out.write(data, b, i - b);
                    ++i;
                    b = i + 1;
                    if (i < e) {
                        out.write(0);
                    }
                }
            }
            if (b < e) {
                out.write(data, b, e - b);
            }
            return out.toByteArray();
        }

        /** {@code Tuple::append(StringRef)}: a byte string element (0x01, 0x00 escaped as 0x00 0xff, 0x00). */
        static byte[] packBytes(byte[] s) {
            ByteArrayOutputStream out = new ByteArrayOutputStream(s.length + 2);
            out.write(0x01);
            for (byte x : s) {
                out.write(x);
                if (x == 0) {
                    out.write(0xff);
                }
            }
            out.write(0x00);
            return out.toByteArray();
        }
    }
}
