package io.strata.redis.config;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The value types of Redis 7.0's parameters, by the names the parameter catalog uses:
 * {@code bool}, {@code string}, {@code integer:MIN:MAX}, {@code memory:MIN:MAX},
 * {@code memory:percent:MIN:MAX}, {@code octal:MIN:MAX}, {@code enum:A,B}, {@code multienum:A,B},
 * and the parameters with a syntax of their own ({@code save}, {@code bind},
 * {@code client-output-buffer-limit}, {@code notify-keyspace-events} …), each with Redis's
 * error messages.
 */
final class ParameterTypes {
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    private ParameterTypes() {
    }

    static ParameterType of(String spec) {
        String[] p = spec.split(":");
        switch (p[0]) {
            case "bool": return ParameterTypes::bool;
            case "string": return (v, c) -> v;
            case "integer": return number(Long.parseLong(p[1]), Long.parseLong(p[2]), false, false, false);
            case "octal": return number(Long.parseLong(p[1]), Long.parseLong(p[2]), false, false, true);
            case "memory":
                return p[1].equals("percent")
                        ? number(Long.parseLong(p[2]), Long.parseLong(p[3]), true, true, false)
                        : number(Long.parseLong(p[1]), Long.parseLong(p[2]), true, false, false);
            case "enum": return enumeration(List.of(p[1].split(",")));
            case "multienum": return flags(List.of(p[1].split(",")));
            case "save": return ParameterTypes::save;
            case "bind": return ParameterTypes::bind;
            case "dir": return (v, c) -> v;
            case "replicaof": return (v, c) -> v;
            case "client-output-buffer-limit": return ParameterTypes::clientOutputBufferLimit;
            case "oom-score-adj-values": return ParameterTypes::oomScoreAdjValues;
            case "notify-keyspace-events": return (v, c) -> NotifyKeyspaceEvents.canonical(v);
            case "latency-tracking-info-percentiles": return ParameterTypes::percentiles;
            default: throw new IllegalArgumentException("unknown parameter type " + spec);
        }
    }

    private static String bool(String v, String current) throws ConfigException {
        if (v.equalsIgnoreCase("yes")) {
            return "yes";
        }
        if (v.equalsIgnoreCase("no")) {
            return "no";
        }
        throw new ConfigException("argument must be 'yes' or 'no'");
    }

    /** Redis's numeric parameters: memory units, percentages (kept negative), octal, bounds. */
    private static ParameterType number(long min, long max, boolean memory, boolean percent, boolean octal) {
        return (v, current) -> {
            Long parsed = null;
            boolean isPercent = false;
            if (memory) {
                parsed = memoryValue(v);
            }
            if (parsed == null && percent && v.length() > 1 && v.endsWith("%")) {
                Long n = Numbers.parse(v.substring(0, v.length() - 1));
                if (n != null && n >= 0) {
                    parsed = -n;
                    isPercent = true;
                }
            }
            if (parsed == null && octal) {
                try {
                    parsed = Long.parseLong(v, 8);
                } catch (NumberFormatException e) {
                    parsed = null;
                }
            }
            if (parsed == null && !memory && !octal) {
                parsed = Numbers.parse(v);
            }
            if (parsed == null) {
                throw new ConfigException(memory && percent ? "argument must be a memory or percent value"
                        : memory ? "argument must be a memory value"
                        : octal ? "argument couldn't be parsed as an octal number"
                        : "argument couldn't be parsed into an integer");
            }
            long n = parsed;
            if (isPercent) {
                if (n < min) {
                    throw new ConfigException("percentage argument must be less or equal to " + (-min));
                }
                return (-n) + "%";
            }
            if (n < min || n > max) {
                throw new ConfigException(octal
                        ? "argument must be between " + Long.toOctalString(min) + " and " + Long.toOctalString(max) + " inclusive"
                        : "argument must be between " + min + " and " + max + " inclusive");
            }
            return octal ? Long.toOctalString(n) : Long.toString(n);
        };
    }

    /** Redis's {@code memtoull}: digits with an optional unit (b, k, kb, m, mb, g, gb); null if not one. */
    static Long memoryValue(String v) {
        int i = 0;
        while (i < v.length() && Character.isDigit(v.charAt(i))) {
            i++;
        }
        if (i == 0) {
            return null;
        }
        String unit = v.substring(i).toLowerCase(Locale.ROOT);
        long multiplier;
        switch (unit) {
            case "": case "b": multiplier = 1; break;
            case "k": multiplier = 1000; break;
            case "kb": multiplier = 1024; break;
            case "m": multiplier = 1000 * 1000; break;
            case "mb": multiplier = 1024 * 1024; break;
            case "g": multiplier = 1000L * 1000 * 1000; break;
            case "gb": multiplier = 1024L * 1024 * 1024; break;
            default: return null;
        }
        BigInteger n = new BigInteger(v.substring(0, i)).multiply(BigInteger.valueOf(multiplier));
        return n.compareTo(LONG_MAX) > 0 ? null : n.longValue();
    }

    private static ParameterType enumeration(List<String> values) {
        return (v, current) -> {
            for (String e : values) {
                if (e.equalsIgnoreCase(v)) {
                    return e;
                }
            }
            throw new ConfigException("argument(s) must be one of the following: " + String.join(", ", values));
        };
    }

    /** Several flags at once (shutdown-on-sigint): printed in declaration order; the first value means none. */
    private static ParameterType flags(List<String> values) {
        return (v, current) -> {
            List<String> given = words(v);
            boolean[] set = new boolean[values.size()];
            for (String w : given) {
                int at = -1;
                for (int i = 0; i < values.size(); i++) {
                    if (values.get(i).equalsIgnoreCase(w)) {
                        at = i;
                    }
                }
                if (at < 0 || given.isEmpty()) {
                    throw new ConfigException("argument(s) must be one of the following: " + String.join(", ", values));
                }
                set[at] = true;
            }
            if (given.isEmpty()) {
                throw new ConfigException("argument(s) must be one of the following: " + String.join(", ", values));
            }
            if (values.contains("save") && set[values.indexOf("save")] && set[values.indexOf("nosave")]) {
                throw new ConfigException("shutdown options SAVE and NOSAVE can't be used simultaneously");
            }
            List<String> out = new ArrayList<>();
            for (int i = 1; i < values.size(); i++) {
                if (set[i]) {
                    out.add(values.get(i));
                }
            }
            return out.isEmpty() ? values.get(0) : String.join(" ", out);
        };
    }

    private static String save(String v, String current) throws ConfigException {
        List<String> w = words(v);
        if (w.size() % 2 != 0) {
            throw new ConfigException("Invalid save parameters");
        }
        for (int i = 0; i < w.size(); i++) {
            Long n = Numbers.parse(w.get(i));
            if (n == null || (i % 2 == 0 && n < 1) || (i % 2 == 1 && n < 0)) {
                throw new ConfigException("Invalid save parameters");
            }
        }
        return String.join(" ", w);
    }

    private static String bind(String v, String current) throws ConfigException {
        List<String> w = words(v);
        if (w.size() > 16) {
            throw new ConfigException("Too many bind addresses specified.");
        }
        return String.join(" ", w);
    }

    private static final List<String> BUFFER_CLASSES = List.of("normal", "slave", "pubsub");

    private static String clientOutputBufferLimit(String v, String current) throws ConfigException {
        List<String> w = words(v);
        if (w.size() % 4 != 0) {
            throw new ConfigException("Wrong number of arguments in buffer limit configuration.");
        }
        Map<String, String> limits = new LinkedHashMap<>();
        List<String> now = words(current);
        for (int i = 0; i + 3 < now.size(); i += 4) {
            limits.put(now.get(i), now.get(i + 1) + " " + now.get(i + 2) + " " + now.get(i + 3));
        }
        Map<String, String> updates = new LinkedHashMap<>();
        for (int i = 0; i < w.size(); i += 4) {
            String cls = w.get(i).toLowerCase(Locale.ROOT);
            if (cls.equals("replica")) {
                cls = "slave";
            }
            if (!BUFFER_CLASSES.contains(cls)) {
                throw new ConfigException("Invalid client class specified in buffer limit configuration.");
            }
            Long hard = memoryValue(w.get(i + 1));
            Long soft = memoryValue(w.get(i + 2));
            Long seconds = Numbers.parse(w.get(i + 3));
            if (hard == null || soft == null || seconds == null || seconds < 0) {
                throw new ConfigException("Error in hard, soft or soft_seconds setting in buffer limit configuration.");
            }
            updates.put(cls, hard + " " + soft + " " + seconds);
        }
        limits.putAll(updates);
        StringBuilder sb = new StringBuilder();
        for (String cls : BUFFER_CLASSES) {
            sb.append(sb.length() == 0 ? "" : " ").append(cls).append(' ').append(limits.getOrDefault(cls, "0 0 0"));
        }
        return sb.toString();
    }

    private static String oomScoreAdjValues(String v, String current) throws ConfigException {
        List<String> w = words(v);
        if (w.size() != 3) {
            throw new ConfigException("wrong number of arguments");
        }
        for (String s : w) {
            Long n = Numbers.parse(s);
            if (n == null || n < -2000 || n > 2000) {
                throw new ConfigException("Invalid oom-score-adj-values, elements must be between -2000 and 2000.");
            }
        }
        return String.join(" ", w);
    }

    private static String percentiles(String v, String current) throws ConfigException {
        List<String> out = new ArrayList<>();
        for (String s : words(v)) {
            double d;
            try {
                d = Double.parseDouble(s);
            } catch (NumberFormatException e) {
                throw new ConfigException("Invalid latency-tracking-info-percentiles parameters");
            }
            if (d < 0 || d > 100) {
                throw new ConfigException("latency-tracking-info-percentiles parameters should sit between [0.0,100.0]");
            }
            out.add(new java.math.BigDecimal(Double.toString(d)).stripTrailingZeros().toPlainString());
        }
        return String.join(" ", out);
    }

    static List<String> words(String v) {
        String t = v.trim();
        return t.isEmpty() ? List.of() : List.of(t.split("\\s+"));
    }

    /** Strict decimal longs, as Redis's {@code string2ll}. */
    static final class Numbers {
        private Numbers() {
        }

        static Long parse(String s) {
            if (s.isEmpty() || s.startsWith("+") || (s.length() > 1 && s.startsWith("0")) || s.startsWith("-0")
                    || s.trim().length() != s.length()) {
                return null;
            }
            try {
                return Long.parseLong(s);
            } catch (NumberFormatException e) {
                return null;
            }
        }
    }
}
