package io.strata.engine.cluster;

/**
 * A small streaming JSON writer, enough for the status document and the special keys' JSON
 * values: objects, arrays, strings, numbers and booleans, written in order with no whitespace.
 * Keeps the engine free of a JSON dependency.
 *
 * <p>Commas are placed automatically. Strings are escaped as RFC 8259 requires ({@code "},
 * {@code \}, control characters); other characters are written as they are (the document is
 * UTF-8). Doubles that are not finite are written as {@code null}, which JSON can represent.
 * Not thread-safe.
 */
public final class JsonWriter {
    private final StringBuilder out = new StringBuilder();
    /** Whether the innermost open object or array already holds a value (so the next needs a comma). */
    private boolean[] hasValue = new boolean[8];
    private int depth;
    /** A field name was just written: the value that follows needs no comma. */
    private boolean afterName;

    public JsonWriter beginObject() {
        beforeValue();
        out.append('{');
        push();
        return this;
    }

    public JsonWriter endObject() {
        depth--;
        out.append('}');
        return this;
    }

    public JsonWriter beginArray() {
        beforeValue();
        out.append('[');
        push();
        return this;
    }

    public JsonWriter endArray() {
        depth--;
        out.append(']');
        return this;
    }

    /** Writes a field name; the next call writes its value. */
    public JsonWriter name(String name) {
        beforeValue();
        string(name);
        out.append(':');
        afterName = true;
        return this;
    }

    public JsonWriter value(String s) {
        beforeValue();
        if (s == null) {
            out.append("null");
        } else {
            string(s);
        }
        return this;
    }

    public JsonWriter value(long n) {
        beforeValue();
        out.append(n);
        return this;
    }

    public JsonWriter value(double d) {
        beforeValue();
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            out.append("null");
        } else if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            // Integral values print without an exponent or a trailing ".0" noise, as FoundationDB's do.
            out.append((long) d);
        } else {
            out.append(d);
        }
        return this;
    }

    public JsonWriter value(boolean b) {
        beforeValue();
        out.append(b);
        return this;
    }

    public JsonWriter field(String name, String value) {
        return name(name).value(value);
    }

    public JsonWriter field(String name, long value) {
        return name(name).value(value);
    }

    public JsonWriter field(String name, double value) {
        return name(name).value(value);
    }

    public JsonWriter field(String name, boolean value) {
        return name(name).value(value);
    }

    @Override
    public String toString() {
        return out.toString();
    }

    private void push() {
        if (depth == hasValue.length) {
            hasValue = java.util.Arrays.copyOf(hasValue, depth * 2);
        }
        hasValue[depth++] = false;
    }

    private void beforeValue() {
        if (afterName) {
            afterName = false;
            return;
        }
        if (depth > 0) {
            if (hasValue[depth - 1]) {
                out.append(',');
            }
            hasValue[depth - 1] = true;
        }
    }

    private void string(String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
