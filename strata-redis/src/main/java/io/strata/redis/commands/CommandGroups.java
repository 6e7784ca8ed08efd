package io.strata.redis.commands;

import io.strata.redis.command.CommandTable;

/** Every command group the server offers, registered into its table at start. */
public final class CommandGroups {
    private CommandGroups() {
    }

    public static void registerAll(CommandTable table) {
        ConnectionCommands.register(table);
        TransactionCommands.register(table);
        StringCommands.register(table);
        KeyCommands.register(table);
        ListCommands.register(table);
        BlockingListCommands.register(table);
        ServerCommands.register(table);
    }
}
