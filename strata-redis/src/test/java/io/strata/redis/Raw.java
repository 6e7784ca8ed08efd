package io.strata.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.util.SafeEncoder;

/**
 * Sends any command through Jedis and returns the reply with bulk and status strings as Java
 * strings, integers as {@code Long} and arrays as lists (errors throw {@code JedisDataException}).
 */
final class Raw {
    private Raw() {
    }

    static Object call(Jedis jedis, String... args) {
        String[] rest = new String[args.length - 1];
        System.arraycopy(args, 1, rest, 0, rest.length);
        ProtocolCommand name = () -> SafeEncoder.encode(args[0]);
        return decode(jedis.sendCommand(name, rest));
    }

    static Object decode(Object reply) {
        if (reply instanceof byte[]) {
            return new String((byte[]) reply, StandardCharsets.UTF_8);
        }
        if (reply instanceof List) {
            List<Object> out = new ArrayList<>();
            for (Object o : (List<?>) reply) {
                out.add(decode(o));
            }
            return out;
        }
        return reply;
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object reply) {
        return (List<Object>) reply;
    }
}
