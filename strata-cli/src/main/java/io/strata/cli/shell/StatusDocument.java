package io.strata.cli.shell;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;

/**
 * Typed look-ups in a parsed status document by dotted path ({@code "client.coordinators"}),
 * with the rules of FoundationDB's {@code StatusObjectReader}: a missing member answers null,
 * a member of the wrong type throws {@link Unreadable} — which the formatter catches per
 * section, as fdbcli catches {@code std::runtime_error}, to print "Unable to retrieve ...".
 * An integer reads as a real; a real does not read as an integer (json_spirit's rules).
 */
final class StatusDocument {
    /** A member of the wrong type. */
    static final class Unreadable extends RuntimeException {
        Unreadable(String message) {
            super(message);
        }
    }

    private StatusDocument() {}

    /** The value at {@code path} under {@code root}, or null when any step is missing. */
    static Object at(Object root, String path) {
        Object current = root;
        for (String step : path.split("\\.")) {
            if (!(current instanceof Map<?, ?> map)) {
                return null;
            }
            current = map.get(step);
            if (current == null) {
                return null;
            }
        }
        return current;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Object root, String path) {
        Object v = at(root, path);
        if (v == null) {
            return null;
        }
        if (v instanceof Map<?, ?> m) {
            return (Map<String, Object>) m;
        }
        throw new Unreadable(path + " is not an object");
    }

    /** Like {@link #object} but never null: an empty object when missing. */
    static Map<String, Object> objectOrEmpty(Object root, String path) {
        Map<String, Object> m = object(root, path);
        return m != null ? m : Map.of();
    }

    @SuppressWarnings("unchecked")
    static List<Object> array(Object root, String path) {
        Object v = at(root, path);
        if (v == null) {
            return null;
        }
        if (v instanceof List<?> l) {
            return (List<Object>) l;
        }
        throw new Unreadable(path + " is not an array");
    }

    static String string(Object root, String path) {
        Object v = at(root, path);
        if (v == null) {
            return null;
        }
        if (v instanceof String s) {
            return s;
        }
        throw new Unreadable(path + " is not a string");
    }

    static Boolean bool(Object root, String path) {
        Object v = at(root, path);
        if (v == null) {
            return null;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        throw new Unreadable(path + " is not a boolean");
    }

    static Long integer(Object root, String path) {
        Object v = at(root, path);
        if (v == null) {
            return null;
        }
        if (v instanceof Long l) {
            return l;
        }
        if (v instanceof BigInteger b) {
            return b.longValue();
        }
        throw new Unreadable(path + " is not an integer");
    }

    static Double real(Object root, String path) {
        Object v = at(root, path);
        if (v == null) {
            return null;
        }
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        throw new Unreadable(path + " is not a number");
    }

    /** Like the typed getters, but a missing member throws too (fdbcli's {@code operator[]}). */
    static <T> T required(T value, String path) {
        if (value == null) {
            throw new Unreadable(path + " is missing");
        }
        return value;
    }
}
