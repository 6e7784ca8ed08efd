package io.strata.cli.shell;

import org.jline.reader.Candidate;
import org.jline.reader.Completer;
import org.jline.reader.LineReader;
import org.jline.reader.ParsedLine;

import java.util.ArrayList;
import java.util.List;

/**
 * Tab completion as fdbcli offers it ({@code fdbcliCompCmd}): command names first; then
 * {@code help} topics, {@code option on|off} and option names, {@code writemode on|off} and
 * the {@code status} levels.
 */
final class ShellCompleter implements Completer {
    @Override
    public void complete(LineReader reader, ParsedLine line, List<Candidate> candidates) {
        for (String word : candidates(line.words(), line.wordIndex())) {
            candidates.add(new Candidate(word));
        }
    }

    /** What may stand at word {@code index} after the words before it. */
    static List<String> candidates(List<String> words, int index) {
        List<String> out = new ArrayList<>();
        if (index == 0) {
            out.addAll(HelpText.commandNames());
            return out;
        }
        String command = words.get(0);
        switch (command) {
            case "help" -> {
                if (index == 1) {
                    out.addAll(HelpText.commandNames());
                    out.add("escaping");
                    out.add("options");
                }
            }
            case "option" -> {
                if (index == 1) {
                    out.addAll(List.of("on", "off"));
                } else if (index == 2) {
                    OptionCatalog.all().values().stream().filter(OptionCatalog.Option::documented)
                            .forEach(o -> out.add(o.name()));
                }
            }
            case "writemode" -> {
                if (index == 1) {
                    out.addAll(List.of("on", "off"));
                }
            }
            case "status" -> {
                if (index == 1) {
                    out.addAll(List.of("minimal", "details", "json"));
                }
            }
            default -> {
                // keys and values: nothing to offer
            }
        }
        return out;
    }
}
