package io.strata.redis.command.reference;

import java.util.List;

/**
 * One argument of a command's syntax as {@code COMMAND DOCS} reports it: a named value of a
 * type ({@code key}, {@code string}, {@code integer}, {@code double}, {@code pattern},
 * {@code unix-time}), a keyword ({@code pure-token}), or a group of arguments ({@code oneof}:
 * one of them, {@code block}: all of them in order).
 *
 * @param name the argument's name
 * @param type its type
 * @param keySpecIndex the key specification a key argument belongs to, or -1
 * @param token the keyword that introduces it, or null
 * @param since the version that introduced it, or null
 * @param deprecatedSince the version that deprecated it, or null
 * @param optional whether it may be left out
 * @param multiple whether it may repeat
 * @param multipleToken whether each repetition repeats the token too
 * @param arguments the members of a {@code oneof} or {@code block}
 */
public record ArgumentDoc(String name, String type, int keySpecIndex, String token, String since,
                          String deprecatedSince, boolean optional, boolean multiple, boolean multipleToken,
                          List<ArgumentDoc> arguments) {

    public ArgumentDoc {
        arguments = List.copyOf(arguments);
    }
}
