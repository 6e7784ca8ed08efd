package io.strata.redis.command.reference;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads the reference's line format (see the resource's header) into {@link CommandDoc}s. */
final class ReferenceParser {
    private static final String PROPERTY_INDENT = "    ";
    private static final int ARGUMENT_INDENT = 8;

    private ReferenceParser() {
    }

    static Map<String, CommandDoc> parse(List<String> lines) {
        Map<String, CommandDoc> docs = new LinkedHashMap<>();
        Builder current = null;
        boolean inArguments = false;
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n);
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            try {
                if (!line.startsWith(" ")) {
                    if (current != null) {
                        docs.put(current.name, current.build());
                    }
                    current = new Builder(line.trim());
                    inArguments = false;
                } else if (current == null) {
                    throw new IllegalArgumentException("property before any command");
                } else if (inArguments && line.startsWith(" ".repeat(ARGUMENT_INDENT))) {
                    current.argument(line);
                } else {
                    inArguments = false;
                    String body = line.substring(PROPERTY_INDENT.length());
                    int space = body.indexOf(' ');
                    String key = space < 0 ? body : body.substring(0, space);
                    String value = space < 0 ? "" : body.substring(space + 1);
                    if (key.equals("arguments")) {
                        inArguments = true;
                    } else {
                        current.property(key, value);
                    }
                }
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("command reference line " + (n + 1) + ": " + e.getMessage(), e);
            }
        }
        if (current != null) {
            docs.put(current.name, current.build());
        }
        return docs;
    }

    private static final class Builder {
        final String name;
        CommandDoc.RedisInfo info;
        String group;
        String since;
        String summary;
        List<String> tips = List.of();
        List<String> docFlags = List.of();
        String deprecatedSince;
        String replacedBy;
        final List<KeySpec> keySpecs = new ArrayList<>();
        final List<ArgumentDoc> arguments = new ArrayList<>();
        /** Arguments being read, by depth: each with the list its members go into. */
        final Deque<PendingArgument> open = new ArrayDeque<>();

        Builder(String name) {
            this.name = name;
        }

        void property(String key, String value) {
            switch (key) {
                case "info": info = info(value); break;
                case "group": group = value; break;
                case "since": since = value; break;
                case "summary": summary = value; break;
                case "tips": tips = words(value); break;
                case "doc_flags": docFlags = words(value); break;
                case "deprecated_since": deprecatedSince = value; break;
                case "replaced_by": replacedBy = value; break;
                case "key": keySpecs.add(keySpec(value)); break;
                default: throw new IllegalArgumentException("unknown property " + key);
            }
        }

        void argument(String line) {
            int indent = 0;
            while (line.charAt(indent) == ' ') {
                indent++;
            }
            int depth = (indent - ARGUMENT_INDENT) / 4;
            while (open.size() > depth) {
                closeArgument();
            }
            if (open.size() != depth) {
                throw new IllegalArgumentException("argument nested too deep: " + line.trim());
            }
            open.push(new PendingArgument(line.trim().split(" ")));
        }

        private void closeArgument() {
            PendingArgument done = open.pop();
            ArgumentDoc arg = done.build();
            if (open.isEmpty()) {
                arguments.add(arg);
            } else {
                open.peek().members.add(arg);
            }
        }

        CommandDoc build() {
            while (!open.isEmpty()) {
                closeArgument();
            }
            if (info == null || group == null || since == null || summary == null) {
                throw new IllegalArgumentException(name + " lacks info, group, since or summary");
            }
            return new CommandDoc(name, info, group, since, summary, tips, docFlags, deprecatedSince, replacedBy,
                    keySpecs, arguments);
        }
    }

    private static final class PendingArgument {
        final String[] words;
        final List<ArgumentDoc> members = new ArrayList<>();

        PendingArgument(String[] words) {
            if (words.length < 2) {
                throw new IllegalArgumentException("an argument needs a name and a type");
            }
            this.words = words;
        }

        ArgumentDoc build() {
            int keySpec = -1;
            String token = null;
            String since = null;
            String deprecated = null;
            boolean optional = false;
            boolean multiple = false;
            boolean multipleToken = false;
            for (String w : Arrays.asList(words).subList(2, words.length)) {
                if (w.startsWith("key_spec_index=")) {
                    keySpec = Integer.parseInt(w.substring("key_spec_index=".length()));
                } else if (w.startsWith("token=")) {
                    token = w.substring("token=".length());
                } else if (w.startsWith("since=")) {
                    since = w.substring("since=".length());
                } else if (w.startsWith("deprecated_since=")) {
                    deprecated = w.substring("deprecated_since=".length());
                } else if (w.equals("optional")) {
                    optional = true;
                } else if (w.equals("multiple")) {
                    multiple = true;
                } else if (w.equals("multiple_token")) {
                    multipleToken = true;
                } else {
                    throw new IllegalArgumentException("unknown argument attribute " + w);
                }
            }
            return new ArgumentDoc(words[0], words[1], keySpec, token, since, deprecated, optional, multiple,
                    multipleToken, members);
        }
    }

    private static CommandDoc.RedisInfo info(String value) {
        String[] parts = value.split("\\|", -1);
        if (parts.length != 4) {
            throw new IllegalArgumentException("info needs 4 parts: " + value);
        }
        String[] keys = parts[2].trim().split(" ");
        return new CommandDoc.RedisInfo(Integer.parseInt(parts[0].trim()), words(parts[1]),
                Integer.parseInt(keys[0]), Integer.parseInt(keys[1]), Integer.parseInt(keys[2]), words(parts[3]));
    }

    private static KeySpec keySpec(String value) {
        String[] parts = value.split("\\|", -1);
        if (parts.length != 3) {
            throw new IllegalArgumentException("key needs 3 parts: " + value);
        }
        List<String> begin = words(parts[1]);
        KeySpec.BeginSearch b;
        switch (begin.get(0)) {
            case "index": b = new KeySpec.Index(Integer.parseInt(begin.get(1))); break;
            case "keyword": b = new KeySpec.Keyword(begin.get(1), Integer.parseInt(begin.get(2))); break;
            case "unknown": b = new KeySpec.UnknownBegin(); break;
            default: throw new IllegalArgumentException("unknown begin_search " + begin);
        }
        List<String> find = words(parts[2]);
        KeySpec.FindKeys f;
        switch (find.get(0)) {
            case "range":
                f = new KeySpec.Range(Integer.parseInt(find.get(1)), Integer.parseInt(find.get(2)), Integer.parseInt(find.get(3)));
                break;
            case "keynum":
                f = new KeySpec.Keynum(Integer.parseInt(find.get(1)), Integer.parseInt(find.get(2)), Integer.parseInt(find.get(3)));
                break;
            case "unknown": f = new KeySpec.UnknownFind(); break;
            default: throw new IllegalArgumentException("unknown find_keys " + find);
        }
        return new KeySpec(words(parts[0]), b, f);
    }

    private static List<String> words(String s) {
        String t = s.trim();
        return t.isEmpty() ? List.of() : List.of(t.split("\\s+"));
    }
}
