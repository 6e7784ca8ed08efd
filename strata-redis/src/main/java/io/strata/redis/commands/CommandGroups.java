package io.strata.redis.commands;

import io.strata.redis.command.CommandTable;

/** Every command group the server offers, registered into its table at start. */
public final class CommandGroups {
    private CommandGroups() {
    }

    /** A new table holding every command this server offers. */
    public static CommandTable all() {
        CommandTable table = new CommandTable();
        registerAll(table);
        return table;
    }

    public static void registerAll(CommandTable table) {
        ConnectionCommands.register(table);
        TransactionCommands.register(table);
        StringCommands.register(table);
        SetCommands.register(table);
        KeyCommands.register(table);
        ListCommands.register(table);
        BlockingListCommands.register(table);
        BlockingSortedSetCommands.register(table);
        HashCommands.register(table);
        io.strata.redis.streams.StreamCommands.register(table);
        ScanCommand.register(table);
        RandomKeyCommand.register(table);
        KeyCopyCommands.register(table);
        DumpRestoreCommands.register(table);
        MigrateCommand.register(table);
        ObjectCommand.register(table);
        SortCommand.register(table);
        BitCommands.register(table);
        BitfieldCommand.register(table);
        HyperLogLogCommands.register(table);
        LcsCommand.register(table);
        ServerCommands.register(table);
        ZSetCommands.register(table);
        GeoCommands.register(table);
        ZRangeCommands.register(table);
        ZPopCommands.register(table);
        ZSetAlgebraCommands.register(table);
        CommandCommand.register(table);
        InfoCommand.register(table);
        ConfigCommand.register(table);
        SlowlogCommand.register(table);
        LatencyCommand.register(table);
        MemoryCommand.register(table);
        DebugCommand.register(table);
        FunctionCommands.register(table);
        ScriptingCommands.register(table);
        PubSubCommands.register(table);
        AclCommands.register(table);
    }
}
