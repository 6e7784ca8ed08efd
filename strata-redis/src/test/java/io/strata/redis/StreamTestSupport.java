package io.strata.redis;

/** The shared server, with the two helpers every stream test uses. */
abstract class StreamTestSupport extends SharedServerTestSupport {
    /** One command, its reply as Jedis decodes it (errors thrown). */
    static Object call(String... args) {
        return Raw.call(jedis, args);
    }

    /** Adds entries {@code from-0} … {@code to-0} to {@code key}, each with field {@code n} = its number. */
    static void addNumbered(String key, int from, int to) {
        for (int i = from; i <= to; i++) {
            call("XADD", key, i + "-0", "n", Integer.toString(i));
        }
    }
}
