package io.strata.redis.acl;

/**
 * Why a user may not run a request: the command itself, one of its keys or one of its
 * channels (Redis's {@code ACL_DENIED_*}, whose order also ranks them), with the position of
 * the offending argument, and the words Redis answers with in each context.
 *
 * @param reason what was denied
 * @param position the argument that was denied (a key or channel), 0 for the command
 * @param command the command's full name, e.g. {@code get} or {@code client|kill}
 */
public record Denial(Reason reason, int position, String command) {
    /** What a rule denied, in Redis's order of relevance. */
    public enum Reason {
        COMMAND("command"), KEY("key"), AUTH("auth"), CHANNEL("channel");

        private final String logName;

        Reason(String logName) {
            this.logName = logName;
        }

        /** The {@code reason} ACL LOG shows. */
        public String logName() {
            return logName;
        }
    }

    /** The error a request gets when it is denied before it runs. */
    public String errorMessage() {
        return switch (reason) {
            case COMMAND -> "NOPERM this user has no permissions to run the '" + command + "' command";
            case KEY -> "NOPERM this user has no permissions to access one of the keys used as arguments";
            default -> "NOPERM this user has no permissions to access one of the channels used as arguments";
        };
    }

    /** The error a queued command gets at EXEC when the rules changed after it was queued. */
    public String execMessage() {
        String why = switch (reason) {
            case COMMAND -> "no permission to execute the command or subcommand";
            case KEY -> "no permission to touch the specified keys";
            default -> "no permission to access one of the channels used as arguments";
        };
        return "NOPERM ACLs rules changed between the moment the transaction was accumulated and the EXEC call. "
                + "This command is no longer allowed for the following reason: " + why;
    }

    /** ACL DRYRUN's answer, naming the key or channel ({@code args} as given to DRYRUN, the command first). */
    public String dryRunMessage(byte[][] args) {
        return switch (reason) {
            case COMMAND -> "This user has no permissions to run the '" + command + "' command";
            case KEY -> "This user has no permissions to access the '" + AclText.of(args[position]) + "' key";
            default -> "This user has no permissions to access the '" + AclText.of(args[position]) + "' channel";
        };
    }
}
