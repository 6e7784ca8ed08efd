package io.strata.redis.commands;

import io.strata.redis.command.CommandFlag;
import io.strata.redis.command.CommandSpec;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.reference.ArgumentDoc;
import io.strata.redis.command.reference.CommandDoc;
import io.strata.redis.command.reference.CommandReference;
import io.strata.redis.command.reference.KeyFinder;
import io.strata.redis.command.reference.KeySpec;
import io.strata.redis.protocol.Reply;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Builds COMMAND INFO and COMMAND DOCS replies in Redis 7.0's shapes from a command's table
 * entry and its reference description. A command the reference lacks (one that is not Redis
 * 7.0's) gets a description derived from its table entry: one key specification from its key
 * positions, and its name as summary.
 */
final class CommandDescriptions {
    private final CommandTable table;
    private final CommandReference reference;

    CommandDescriptions(CommandTable table, CommandReference reference) {
        this.table = table;
        this.reference = reference;
    }

    /** The reference description of a command, or one derived from its table entry. */
    CommandDoc doc(CommandSpec spec) {
        CommandDoc doc = reference.get(spec.name());
        return doc != null ? doc : derived(spec);
    }

    private static CommandDoc derived(CommandSpec spec) {
        List<KeySpec> keys = new ArrayList<>();
        if (spec.firstKey() > 0) {
            List<String> flags = spec.isWrite() ? List.of("RW", "access", "update") : List.of("RO", "access");
            int last = spec.lastKey() >= 0 ? spec.lastKey() - spec.firstKey() : spec.lastKey();
            keys.add(new KeySpec(flags, new KeySpec.Index(spec.firstKey()), new KeySpec.Range(last, spec.step(), 0)));
        }
        List<String> flags = new ArrayList<>();
        spec.flags().forEach(f -> flags.add(f.wireName()));
        return new CommandDoc(spec.name(), new CommandDoc.RedisInfo(spec.arity(), flags, spec.firstKey(), spec.lastKey(),
                spec.step(), CommandCommand.categoriesWithAt(spec)), "generic", "0.0.0",
                spec.name().toUpperCase(Locale.ROOT).replace('|', ' ') + " (a Strata command).", List.of(), List.of(),
                null, null, keys, List.of());
    }

    /** COMMAND INFO's ten fields: name, arity, flags, first, last, step, categories, tips, key specs, subcommands. */
    Reply info(CommandSpec spec) {
        CommandDoc doc = doc(spec);
        List<String> flags = new ArrayList<>();
        for (CommandFlag f : spec.flags()) {
            if (f.shown() && f != CommandFlag.MOVABLE_KEYS) {
                flags.add(f.wireName());
            }
        }
        if (spec.has(CommandFlag.MOVABLE_KEYS) || KeyFinder.movableKeys(doc)) {
            int at = flags.indexOf("allow_busy");
            flags.add(at < 0 ? flags.size() : at, CommandFlag.MOVABLE_KEYS.wireName());
        }
        List<Reply> tips = new ArrayList<>();
        doc.tips().forEach(t -> tips.add(Reply.bulk(t)));
        List<Reply> specs = new ArrayList<>();
        doc.keySpecs().forEach(k -> specs.add(keySpec(k)));
        List<Reply> subs = new ArrayList<>();
        table.subcommands(spec.name()).forEach(s -> subs.add(info(s)));
        return Reply.array(Reply.bulk(spec.name()), Reply.integer(spec.arity()), statusSet(flags),
                Reply.integer(spec.firstKey()), Reply.integer(spec.lastKey()), Reply.integer(spec.step()),
                statusSet(CommandCommand.categoriesWithAt(spec)), Reply.set(tips), Reply.set(specs), Reply.array(subs));
    }

    private static Reply keySpec(KeySpec k) {
        List<Reply> begin;
        if (k.begin() instanceof KeySpec.Index) {
            begin = typed("index", Reply.map(List.of(Reply.bulk("index"), Reply.integer(((KeySpec.Index) k.begin()).pos()))));
        } else if (k.begin() instanceof KeySpec.Keyword) {
            KeySpec.Keyword kw = (KeySpec.Keyword) k.begin();
            begin = typed("keyword", Reply.map(List.of(Reply.bulk("keyword"), Reply.bulk(kw.keyword()),
                    Reply.bulk("startfrom"), Reply.integer(kw.startFrom()))));
        } else {
            begin = typed("unknown", Reply.map(List.of()));
        }
        List<Reply> find;
        if (k.find() instanceof KeySpec.Range) {
            KeySpec.Range r = (KeySpec.Range) k.find();
            find = typed("range", Reply.map(List.of(Reply.bulk("lastkey"), Reply.integer(r.lastKey()),
                    Reply.bulk("keystep"), Reply.integer(r.step()), Reply.bulk("limit"), Reply.integer(r.limit()))));
        } else if (k.find() instanceof KeySpec.Keynum) {
            KeySpec.Keynum n = (KeySpec.Keynum) k.find();
            find = typed("keynum", Reply.map(List.of(Reply.bulk("keynumidx"), Reply.integer(n.keynumIdx()),
                    Reply.bulk("firstkey"), Reply.integer(n.firstKey()), Reply.bulk("keystep"), Reply.integer(n.step()))));
        } else {
            find = typed("unknown", Reply.map(List.of()));
        }
        return Reply.map(List.of(Reply.bulk("flags"), statusSet(k.flags()), Reply.bulk("begin_search"), Reply.map(begin),
                Reply.bulk("find_keys"), Reply.map(find)));
    }

    private static List<Reply> typed(String type, Reply spec) {
        return List.of(Reply.bulk("type"), Reply.bulk(type), Reply.bulk("spec"), spec);
    }

    /** COMMAND DOCS's map: summary, since, group, doc flags, deprecation, arguments, subcommands. */
    Reply docs(CommandSpec spec) {
        CommandDoc doc = doc(spec);
        List<Reply> m = new ArrayList<>();
        m.add(Reply.bulk("summary"));
        m.add(Reply.bulk(doc.summary()));
        m.add(Reply.bulk("since"));
        m.add(Reply.bulk(doc.since()));
        m.add(Reply.bulk("group"));
        m.add(Reply.bulk(doc.group()));
        if (!doc.docFlags().isEmpty()) {
            m.add(Reply.bulk("doc_flags"));
            m.add(statusSet(doc.docFlags()));
        }
        if (doc.deprecatedSince() != null) {
            m.add(Reply.bulk("deprecated_since"));
            m.add(Reply.bulk(doc.deprecatedSince()));
        }
        if (doc.replacedBy() != null) {
            m.add(Reply.bulk("replaced_by"));
            m.add(Reply.bulk(doc.replacedBy()));
        }
        if (!doc.arguments().isEmpty()) {
            m.add(Reply.bulk("arguments"));
            m.add(arguments(doc.arguments()));
        }
        if (table.isContainer(spec.name())) {
            List<Reply> subs = new ArrayList<>();
            for (CommandSpec s : table.subcommands(spec.name())) {
                subs.add(Reply.bulk(s.name()));
                subs.add(docs(s));
            }
            m.add(Reply.bulk("subcommands"));
            m.add(Reply.map(subs));
        }
        return Reply.map(m);
    }

    private static Reply arguments(List<ArgumentDoc> args) {
        List<Reply> out = new ArrayList<>();
        for (ArgumentDoc a : args) {
            List<Reply> m = new ArrayList<>();
            m.add(Reply.bulk("name"));
            m.add(Reply.bulk(a.name()));
            m.add(Reply.bulk("type"));
            m.add(Reply.bulk(a.type()));
            if (a.keySpecIndex() >= 0) {
                m.add(Reply.bulk("key_spec_index"));
                m.add(Reply.integer(a.keySpecIndex()));
            }
            if (a.token() != null) {
                m.add(Reply.bulk("token"));
                m.add(Reply.bulk(a.token()));
            }
            if (a.since() != null) {
                m.add(Reply.bulk("since"));
                m.add(Reply.bulk(a.since()));
            }
            if (a.deprecatedSince() != null) {
                m.add(Reply.bulk("deprecated_since"));
                m.add(Reply.bulk(a.deprecatedSince()));
            }
            List<String> flags = new ArrayList<>();
            if (a.optional()) {
                flags.add("optional");
            }
            if (a.multiple()) {
                flags.add("multiple");
            }
            if (a.multipleToken()) {
                flags.add("multiple_token");
            }
            if (!flags.isEmpty()) {
                m.add(Reply.bulk("flags"));
                m.add(statusSet(flags));
            }
            if (a.type().equals("oneof") || a.type().equals("block")) {
                m.add(Reply.bulk("arguments"));
                m.add(arguments(a.arguments()));
            }
            out.add(Reply.map(m));
        }
        return Reply.array(out);
    }

    /** A set of simple strings (RESP2: an array), as Redis replies flags. */
    static Reply statusSet(List<String> words) {
        List<Reply> items = new ArrayList<>();
        words.forEach(w -> items.add(Reply.simple(w)));
        return Reply.set(items);
    }
}
