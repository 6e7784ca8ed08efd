package io.strata.redis.command;

import java.util.Locale;

/**
 * Redis 7.0's subcommands of its container commands (CLIENT, CONFIG, ACL, OBJECT, ...), each
 * with its own arity, flags and ACL categories, as {@code COMMAND INFO} and ACL rules such as
 * {@code +client|id} name them. They are added for the containers a server registers; the
 * container's handler still runs them. A line reads
 * {@code container subcommand arity [flags] [categories] [first key]}; the categories that
 * follow from the flags are added as for any command ({@link CommandTable#add}). CLIENT
 * NO-TOUCH is Redis 7.2's, kept because this server answers it.
 *
 * <p>Concurrency: used once, while the server's table is built.
 */
public final class Subcommands {
    private static final String TABLE = """
            acl cat -2 [noscript loading stale] []
            acl deluser -3 [admin noscript loading stale] []
            acl dryrun -4 [admin noscript loading stale] []
            acl genpass -2 [noscript loading stale] []
            acl getuser 3 [admin noscript loading stale] []
            acl help 2 [loading stale] []
            acl list 2 [admin noscript loading stale] []
            acl load 2 [admin noscript loading stale] []
            acl log -2 [admin noscript loading stale] []
            acl save 2 [admin noscript loading stale] []
            acl setuser -3 [admin noscript loading stale] []
            acl users 2 [admin noscript loading stale] []
            acl whoami 2 [noscript loading stale] []
            client caching 3 [noscript loading stale] [connection]
            client getname 2 [noscript loading stale] [connection]
            client getredir 2 [noscript loading stale] [connection]
            client help 2 [loading stale] [connection]
            client id 2 [noscript loading stale] [connection]
            client info 2 [noscript loading stale] [connection]
            client kill -3 [admin noscript loading stale] [connection]
            client list -2 [admin noscript loading stale] [connection]
            client no-evict 3 [admin noscript loading stale] [connection]
            client pause -3 [admin noscript loading stale] [connection]
            client reply 3 [noscript loading stale] [connection]
            client setname 3 [noscript loading stale] [connection]
            client tracking -3 [noscript loading stale] [connection]
            client trackinginfo 2 [noscript loading stale] [connection]
            client unblock -3 [admin noscript loading stale] [connection]
            client unpause 2 [admin noscript loading stale] [connection]
            cluster addslots -3 [admin stale] []
            cluster addslotsrange -4 [admin stale] []
            cluster bumpepoch 2 [admin stale] []
            cluster count-failure-reports 3 [admin stale] []
            cluster countkeysinslot 3 [stale] []
            cluster delslots -3 [admin stale] []
            cluster delslotsrange -4 [admin stale] []
            cluster failover -2 [admin stale] []
            cluster flushslots 2 [admin stale] []
            cluster forget 3 [admin stale] []
            cluster getkeysinslot 4 [stale] []
            cluster help 2 [loading stale] []
            cluster info 2 [stale] []
            cluster keyslot 3 [stale] []
            cluster links 2 [stale] []
            cluster meet -4 [admin stale] []
            cluster myid 2 [stale] []
            cluster nodes 2 [stale] []
            cluster replicas 3 [admin stale] []
            cluster replicate 3 [admin stale] []
            cluster reset -2 [admin stale noscript] []
            cluster saveconfig 2 [admin stale] []
            cluster set-config-epoch 3 [admin stale] []
            cluster setslot -4 [admin stale] []
            cluster shards 2 [stale] []
            cluster slaves 3 [admin stale] []
            cluster slots 2 [stale] []
            command count 2 [loading stale] [connection]
            command docs -2 [loading stale] [connection]
            command getkeys -4 [loading stale] [connection]
            command getkeysandflags -4 [loading stale] [connection]
            command help 2 [loading stale] [connection]
            command info -2 [loading stale] [connection]
            command list -2 [loading stale] [connection]
            config get -3 [admin noscript loading stale] []
            config help 2 [loading stale] []
            config resetstat 2 [admin noscript loading stale] []
            config rewrite 2 [admin noscript loading stale] []
            config set -4 [admin noscript loading stale] []
            function delete 3 [noscript write] [scripting]
            function dump 2 [noscript] [scripting]
            function flush -2 [noscript write] [scripting]
            function help 2 [loading stale] [scripting]
            function kill 2 [noscript allow_busy] [scripting]
            function list -2 [noscript] [scripting]
            function load -3 [noscript write denyoom] [scripting]
            function restore -3 [noscript write denyoom] [scripting]
            function stats 2 [noscript allow_busy] [scripting]
            latency doctor 2 [admin noscript loading stale] []
            latency graph 3 [admin noscript loading stale] []
            latency help 2 [loading stale] []
            latency histogram -2 [admin noscript loading stale] []
            latency history 3 [admin noscript loading stale] []
            latency latest 2 [admin noscript loading stale] []
            latency reset -2 [admin noscript loading stale] []
            memory doctor 2 [] []
            memory help 2 [loading stale] []
            memory malloc-stats 2 [] []
            memory purge 2 [] []
            memory stats 2 [] []
            memory usage -3 [readonly] [] 2
            module help 2 [loading stale] []
            module list 2 [admin noscript] []
            module load -3 [admin noscript] []
            module loadex -3 [admin noscript] []
            module unload 3 [admin noscript] []
            object encoding 3 [readonly] [keyspace] 2
            object freq 3 [readonly] [keyspace] 2
            object help 2 [loading stale] [keyspace]
            object idletime 3 [readonly] [keyspace] 2
            object refcount 3 [readonly] [keyspace] 2
            pubsub channels -2 [pubsub loading stale] []
            pubsub help 2 [loading stale] []
            pubsub numpat 2 [pubsub loading stale] []
            pubsub numsub -2 [pubsub loading stale] []
            pubsub shardchannels -2 [pubsub loading stale] []
            pubsub shardnumsub -2 [pubsub loading stale] []
            script debug 3 [noscript] [scripting]
            script exists -3 [noscript] [scripting]
            script flush -2 [noscript] [scripting]
            script help 2 [loading stale] [scripting]
            script kill 2 [noscript allow_busy] [scripting]
            script load 3 [noscript stale] [scripting]
            slowlog get -2 [admin loading stale] []
            slowlog help 2 [loading stale] []
            slowlog len 2 [admin loading stale] []
            slowlog reset 2 [admin loading stale] []
            xgroup create -5 [write denyoom] [stream] 2
            xgroup createconsumer 5 [write denyoom] [stream] 2
            xgroup delconsumer 5 [write] [stream] 2
            xgroup destroy 4 [write] [stream] 2
            xgroup help 2 [loading stale] [stream]
            xgroup setid -5 [write] [stream] 2
            xinfo consumers 4 [readonly] [stream] 2
            xinfo groups 3 [readonly] [stream] 2
            xinfo help 2 [loading stale] [stream]
            xinfo stream -3 [readonly] [stream] 2
            client no-touch 3 [noscript loading stale] [connection]
            """;

    private Subcommands() {
    }

    /** Adds the subcommands of every container {@code table} has. */
    public static void addKnown(CommandTable table) {
        for (String line : TABLE.strip().split("\n")) {
            String l = line.strip();
            int flagsAt = l.indexOf('[');
            int flagsEnd = l.indexOf(']');
            int typesAt = l.indexOf('[', flagsEnd);
            int typesEnd = l.indexOf(']', typesAt);
            String[] head = l.substring(0, flagsAt).strip().split(" ");
            String container = head[0].toLowerCase(Locale.ROOT);
            CommandSpec parent = table.lookup(container);
            if (parent == null) {
                continue;
            }
            String key = l.substring(typesEnd + 1).strip();
            int firstKey = key.isEmpty() ? 0 : Integer.parseInt(key);
            table.addSubcommand(parent, head[1], Integer.parseInt(head[2]), l.substring(flagsAt + 1, flagsEnd),
                    firstKey, firstKey, firstKey > 0 ? 1 : 0, l.substring(typesAt + 1, typesEnd));
        }
    }
}
