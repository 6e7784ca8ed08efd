package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.DATA;

import com.apple.foundationdb.Transaction;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.command.Numbers;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

/**
 * Geospatial commands, as Redis 7.0 builds them on sorted sets: a point is a member whose
 * score is its 52-bit geohash ({@link GeoHash}), so GEOADD is ZADD of computed scores (and
 * notifies {@code zadd}, as Redis's does), ZRANGE, ZREM and the rest work on geo sets, and a
 * search reads the score ranges of at most nine cells and keeps the points inside the circle
 * or box. GEOADD, GEOPOS, GEODIST, GEOHASH, GEOSEARCH, GEOSEARCHSTORE and the older GEORADIUS,
 * GEORADIUSBYMEMBER (with STORE/STOREDIST) and their _RO forms; replies formatted as Redis's
 * (distances with four decimals, coordinates with up to 17).
 */
final class GeoCommands {
    private GeoCommands() {
    }

    static void register(CommandTable t) {
        t.add("geoadd", -5, "write denyoom", 1, 1, 1, "geo", DATA, GeoCommands::geoadd);
        t.add("geopos", -2, "readonly", 1, 1, 1, "geo", DATA, GeoCommands::geopos);
        t.add("geodist", -4, "readonly", 1, 1, 1, "geo", DATA, GeoCommands::geodist);
        t.add("geohash", -2, "readonly", 1, 1, 1, "geo", DATA, GeoCommands::geohash);
        t.add("georadius", -6, "write denyoom", 1, 1, 1, "geo", DATA, (inv, tr) -> search(inv, tr, 1, Variant.RADIUS, true));
        t.add("georadius_ro", -6, "readonly", 1, 1, 1, "geo", DATA, (inv, tr) -> search(inv, tr, 1, Variant.RADIUS, false));
        t.add("georadiusbymember", -5, "write denyoom", 1, 1, 1, "geo", DATA,
                (inv, tr) -> search(inv, tr, 1, Variant.RADIUS_BY_MEMBER, true));
        t.add("georadiusbymember_ro", -5, "readonly", 1, 1, 1, "geo", DATA,
                (inv, tr) -> search(inv, tr, 1, Variant.RADIUS_BY_MEMBER, false));
        t.add("geosearch", -7, "readonly", 1, 1, 1, "geo", DATA, (inv, tr) -> search(inv, tr, 1, Variant.SEARCH, false));
        t.add("geosearchstore", -8, "write denyoom", 1, 2, 1, "geo", DATA, (inv, tr) -> search(inv, tr, 2, Variant.SEARCH_STORE, true));
    }

    private enum Variant { RADIUS, RADIUS_BY_MEMBER, SEARCH, SEARCH_STORE }

    /** GEOADD key [NX|XX] [CH] longitude latitude member [...]: ZADD with the points' geohashes. */
    private static CompletableFuture<Reply> geoadd(Invocation inv, Transaction tr) {
        boolean nx = false;
        boolean xx = false;
        int first = 2;
        for (; first < inv.argc(); first++) {
            String opt = inv.option(first);
            if (opt.equals("NX")) {
                nx = true;
            } else if (opt.equals("XX")) {
                xx = true;
            } else if (!opt.equals("CH")) {
                break;
            }
        }
        if ((inv.argc() - first) % 3 != 0 || (xx && nx)) {
            throw RedisException.syntax();
        }
        List<byte[]> zadd = new ArrayList<>();
        zadd.add("zadd".getBytes(StandardCharsets.US_ASCII));
        for (int i = 1; i < first; i++) {
            zadd.add(inv.arg(i));
        }
        for (int i = first; i < inv.argc(); i += 3) {
            double[] xy = lonLat(inv, i);
            zadd.add(Long.toString(GeoHash.score(xy[0], xy[1])).getBytes(StandardCharsets.US_ASCII));
            zadd.add(inv.arg(i + 2));
        }
        Invocation asZadd = new Invocation(zadd.toArray(new byte[0][]), inv.session(), inv.server(),
                inv.server().commands().lookup("zadd"));
        return asZadd.execute(tr);
    }

    /** A longitude and latitude argument pair, checked against Redis's ranges. */
    private static double[] lonLat(Invocation inv, int at) {
        double lon = Numbers.parseDouble(inv.arg(at), RedisException.NOT_FLOAT);
        double lat = Numbers.parseDouble(inv.arg(at + 1), RedisException.NOT_FLOAT);
        if (lon < GeoHash.LONG_MIN || lon > GeoHash.LONG_MAX || lat < GeoHash.LAT_MIN || lat > GeoHash.LAT_MAX) {
            throw new RedisException(String.format(Locale.ROOT, "ERR invalid longitude,latitude pair %f,%f", lon, lat));
        }
        return new double[] {lon, lat};
    }

    /** GEOPOS key member [...]: each member's point, nil when absent. */
    private static CompletableFuture<Reply> geopos(Invocation inv, Transaction tr) {
        return points(inv, tr).thenApply(points -> {
            List<Reply> out = new ArrayList<>();
            for (double[] xy : points) {
                out.add(xy == null ? Reply.NULL_ARRAY : Reply.array(coordinate(xy[0]), coordinate(xy[1])));
            }
            return Reply.array(out);
        });
    }

    /** The points of the members named from argument 2 on, in order; null for a member (or key) absent. */
    private static CompletableFuture<List<double[]>> points(Invocation inv, Transaction tr) {
        return ZSets.read(inv, tr, inv.arg(1)).thenCompose(z -> {
            List<CompletableFuture<Double>> scores = new ArrayList<>();
            for (int i = 2; i < inv.argc(); i++) {
                scores.add(z.exists() ? z.set().score(tr, inv.arg(i)) : CompletableFuture.completedFuture(null));
            }
            return CompletableFuture.allOf(scores.toArray(new CompletableFuture[0])).thenApply(ignored -> {
                List<double[]> points = new ArrayList<>();
                for (CompletableFuture<Double> s : scores) {
                    points.add(s.join() == null ? null : GeoHash.decode(s.join()));
                }
                return points;
            });
        });
    }

    /** GEODIST key member1 member2 [M|KM|FT|MI]. */
    private static CompletableFuture<Reply> geodist(Invocation inv, Transaction tr) {
        double toMeters = 1;
        if (inv.argc() == 5) {
            toMeters = unit(inv.arg(4));
        } else if (inv.argc() > 5) {
            throw RedisException.syntax();
        }
        double conversion = toMeters;
        return ZSets.read(inv, tr, inv.arg(1)).thenCompose(z -> {
            if (!z.exists()) {
                return CompletableFuture.completedFuture(Reply.NULL_BULK);
            }
            return z.set().score(tr, inv.arg(2)).thenCombine(z.set().score(tr, inv.arg(3)), (a, b) -> {
                if (a == null || b == null) {
                    return Reply.NULL_BULK;
                }
                double[] p = GeoHash.decode(a);
                double[] q = GeoHash.decode(b);
                return distanceReply(GeoHash.distance(p[0], p[1], q[0], q[1]) / conversion);
            });
        });
    }

    /** GEOHASH key member [...]: each member's 11-character geohash, nil when absent. */
    private static CompletableFuture<Reply> geohash(Invocation inv, Transaction tr) {
        return points(inv, tr).thenApply(points -> {
            List<Reply> out = new ArrayList<>();
            for (double[] xy : points) {
                out.add(xy == null ? Reply.NULL_BULK : Reply.bulk(GeoHash.text(xy[0], xy[1])));
            }
            return Reply.array(out);
        });
    }

    /** Meters per unit: M, KM, FT, MI (any case). */
    private static double unit(byte[] arg) {
        switch (new String(arg, StandardCharsets.UTF_8).toLowerCase(Locale.ROOT)) {
            case "m":
                return 1;
            case "km":
                return 1000;
            case "ft":
                return 0.3048;
            case "mi":
                return 1609.34;
            default:
                throw new RedisException("ERR unsupported unit provided. please use M, KM, FT, MI");
        }
    }

    /** A point found by a search. */
    private record Found(byte[] member, double score, double lon, double lat, double distance) {
    }

    /** What a search's arguments asked for. */
    private static final class Search {
        GeoHash.Shape shape;
        double lon;
        double lat;
        boolean fromMember;
        byte[] center;
        boolean circle;
        double radius;
        double width;
        double height;
        double conversion;
        boolean withDist;
        boolean withHash;
        boolean withCoord;
        boolean any;
        int sort; // 0 none, 1 asc, 2 desc
        long count;
        byte[] storeKey;
        boolean storeDist;
    }

    /**
     * GEORADIUS, GEORADIUSBYMEMBER (and _RO) and GEOSEARCH(STORE), parsed and checked in the
     * order of Redis's georadiusGeneric, so that the same bad request gets the same error.
     */
    private static CompletableFuture<Reply> search(Invocation inv, Transaction tr, int srcIndex, Variant variant, boolean mayStore) {
        byte[] src = inv.arg(srcIndex);
        return ZSets.read(inv, tr, src).thenCompose(z -> {
            Search s = new Search();
            int base;
            boolean geosearch = variant == Variant.SEARCH || variant == Variant.SEARCH_STORE;
            if (variant == Variant.RADIUS) {
                base = 6;
                s.circle = true;
                double[] xy = lonLat(inv, 2);
                s.lon = xy[0];
                s.lat = xy[1];
                radius(inv, 4, s);
            } else if (variant == Variant.RADIUS_BY_MEMBER) {
                base = 5;
                s.circle = true;
                s.fromMember = true;
                s.center = inv.arg(2);
                if (z.exists()) {
                    radius(inv, 3, s);
                }
            } else {
                base = variant == Variant.SEARCH_STORE ? 3 : 2;
                if (variant == Variant.SEARCH_STORE) {
                    s.storeKey = inv.arg(1);
                }
            }
            boolean fromMember = false;
            boolean fromLonLat = false;
            boolean byRadius = false;
            boolean byBox = false;
            int remaining = inv.argc() - base;
            for (int i = 0; i < remaining; i++) {
                int at = base + i;
                String arg = inv.option(at);
                if (arg.equals("WITHDIST")) {
                    s.withDist = true;
                } else if (arg.equals("WITHHASH")) {
                    s.withHash = true;
                } else if (arg.equals("WITHCOORD")) {
                    s.withCoord = true;
                } else if (arg.equals("ANY")) {
                    s.any = true;
                } else if (arg.equals("ASC")) {
                    s.sort = 1;
                } else if (arg.equals("DESC")) {
                    s.sort = 2;
                } else if (arg.equals("COUNT") && i + 1 < remaining) {
                    s.count = Numbers.parseLong(inv.arg(at + 1), RedisException.NOT_INTEGER);
                    if (s.count <= 0) {
                        throw new RedisException("ERR COUNT must be > 0");
                    }
                    i++;
                } else if ((arg.equals("STORE") || arg.equals("STOREDIST")) && i + 1 < remaining && mayStore && !geosearch) {
                    s.storeKey = inv.arg(at + 1);
                    s.storeDist = arg.equals("STOREDIST");
                    i++;
                } else if (arg.equals("STOREDIST") && variant == Variant.SEARCH_STORE) {
                    s.storeDist = true;
                } else if (arg.equals("FROMMEMBER") && i + 1 < remaining && geosearch && !fromLonLat) {
                    s.fromMember = true;
                    s.center = inv.arg(at + 1);
                    fromMember = true;
                    i++;
                } else if (arg.equals("FROMLONLAT") && i + 2 < remaining && geosearch && !fromMember) {
                    double[] xy = lonLat(inv, at + 1);
                    s.lon = xy[0];
                    s.lat = xy[1];
                    fromLonLat = true;
                    i += 2;
                } else if (arg.equals("BYRADIUS") && i + 2 < remaining && geosearch && !byBox) {
                    radius(inv, at + 1, s);
                    s.circle = true;
                    byRadius = true;
                    i += 2;
                } else if (arg.equals("BYBOX") && i + 3 < remaining && geosearch && !byRadius) {
                    s.width = Numbers.parseDouble(inv.arg(at + 1), "ERR need numeric width");
                    s.height = Numbers.parseDouble(inv.arg(at + 2), "ERR need numeric height");
                    if (s.height < 0 || s.width < 0) {
                        throw new RedisException("ERR height or width cannot be negative");
                    }
                    s.conversion = unit(inv.arg(at + 3));
                    s.circle = false;
                    byBox = true;
                    i += 3;
                } else {
                    throw RedisException.syntax();
                }
            }
            if (s.storeKey != null && (s.withDist || s.withHash || s.withCoord)) {
                throw new RedisException("ERR " + (variant == Variant.SEARCH_STORE ? "GEOSEARCHSTORE" : "STORE option in GEORADIUS")
                        + " is not compatible with WITHDIST, WITHHASH and WITHCOORD options");
            }
            if (geosearch && !(fromMember || fromLonLat)) {
                throw new RedisException("ERR exactly one of FROMMEMBER or FROMLONLAT can be specified for " + inv.argString(0));
            }
            if (geosearch && !(byRadius || byBox)) {
                throw new RedisException("ERR exactly one of BYRADIUS and BYBOX can be specified for " + inv.argString(0));
            }
            if (s.any && s.count == 0) {
                throw new RedisException("ERR the ANY argument requires COUNT argument");
            }
            if (!z.exists()) {
                return s.storeKey != null
                        ? ZRangeCommands.store(inv, tr, s.storeKey, List.of(), storeEvent(variant))
                        : CompletableFuture.completedFuture(Reply.EMPTY_ARRAY);
            }
            CompletableFuture<Void> centred = CompletableFuture.completedFuture(null);
            if (s.fromMember) {
                centred = z.set().score(tr, s.center).thenAccept(score -> {
                    if (score == null) {
                        throw new RedisException("ERR could not decode requested zset member");
                    }
                    double[] xy = GeoHash.decode(score);
                    s.lon = xy[0];
                    s.lat = xy[1];
                });
            }
            return centred.thenCompose(ignored -> {
                if (s.count != 0 && s.sort == 0 && !s.any) {
                    s.sort = 1;
                }
                s.shape = new GeoHash.Shape(s.lon, s.lat, s.circle, s.radius, s.width, s.height, s.conversion);
                return find(tr, z.set(), s).thenCompose(found -> answer(inv, tr, s, found, variant));
            });
        });
    }

    /** BYRADIUS (or GEORADIUS's) radius and unit at {@code at}. */
    private static void radius(Invocation inv, int at, Search s) {
        s.radius = Numbers.parseDouble(inv.arg(at), "ERR need numeric radius");
        if (s.radius < 0) {
            throw new RedisException("ERR radius cannot be negative");
        }
        s.conversion = unit(inv.arg(at + 1));
    }

    private static String storeEvent(Variant variant) {
        return variant == Variant.SEARCH_STORE ? "geosearchstore" : "georadiusstore";
    }

    /** The points inside the shape, cell by cell in Redis's order, stopping at COUNT with ANY. */
    private static CompletableFuture<List<Found>> find(Transaction tr, ZSetObject set, Search s) {
        GeoHash.Cell[] cells = GeoHash.cells(s.shape);
        List<Found> found = new ArrayList<>();
        long limit = s.any ? s.count : 0;
        CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
        int lastProcessed = 0;
        for (int i = 0; i < cells.length; i++) {
            GeoHash.Cell cell = cells[i];
            if (cell.none()) {
                continue;
            }
            if (lastProcessed != 0 && cell.equals(cells[lastProcessed])) {
                continue; // the same cell as the one before (small areas near the poles)
            }
            lastProcessed = i;
            long[] range = GeoHash.scoreRange(cell);
            chain = chain.thenCompose(ignored -> {
                if (limit != 0 && found.size() >= limit) {
                    return CompletableFuture.completedFuture(null);
                }
                return set.ranked().scan(tr, ZSetObject.scorePrefix(range[0]), ZSetObject.scorePrefix(range[1]), 0, false).asList()
                        .thenAccept(elements -> {
                            for (byte[] e : elements) {
                                double score = ZSetObject.scoreOf(e);
                                double[] xy = GeoHash.decode(score);
                                double d = s.shape.distanceIfInside(xy[0], xy[1]);
                                if (!Double.isNaN(d)) {
                                    found.add(new Found(ZSetObject.memberOf(e), score, xy[0], xy[1], d));
                                }
                                if (limit != 0 && found.size() >= limit) {
                                    break;
                                }
                            }
                        });
            });
        }
        return chain.thenApply(ignored -> found);
    }

    private static CompletableFuture<Reply> answer(Invocation inv, Transaction tr, Search s, List<Found> found, Variant variant) {
        if (s.sort != 0) {
            Comparator<Found> byDistance = Comparator.comparingDouble(Found::distance);
            found.sort(s.sort == 1 ? byDistance : byDistance.reversed());
        }
        int returned = (int) (s.count == 0 || found.size() < s.count ? found.size() : s.count);
        List<Found> results = found.subList(0, returned);
        if (s.storeKey != null) {
            List<byte[]> elements = new ArrayList<>();
            for (Found f : results) {
                double score = s.storeDist ? f.distance() / s.conversion : f.score();
                elements.add(ZSetObject.element(score, f.member()));
            }
            return ZRangeCommands.store(inv, tr, s.storeKey, elements, storeEvent(variant));
        }
        List<Reply> out = new ArrayList<>();
        boolean options = s.withDist || s.withHash || s.withCoord;
        for (Found f : results) {
            if (!options) {
                out.add(Reply.bulk(f.member()));
                continue;
            }
            List<Reply> item = new ArrayList<>();
            item.add(Reply.bulk(f.member()));
            if (s.withDist) {
                item.add(distanceReply(f.distance() / s.conversion));
            }
            if (s.withHash) {
                item.add(Reply.integer((long) f.score()));
            }
            if (s.withCoord) {
                item.add(Reply.array(coordinate(f.lon()), coordinate(f.lat())));
            }
            out.add(Reply.array(item));
        }
        return CompletableFuture.completedFuture(Reply.array(out));
    }

    /** A distance as Redis prints it: rounded to the nearest ten-thousandth, four decimals. */
    static Reply distanceReply(double d) {
        return Reply.bulk(fixedPoint4(d));
    }

    /** Redis's fixedpoint_d2string with four digits: llrint(d × 10⁴), then the digits. */
    static String fixedPoint4(double d) {
        if (d == 0) {
            return "0.0000";
        }
        long v = (long) Math.rint(d * 10000.0);
        String sign = v < 0 ? "-" : "";
        long a = Math.abs(v);
        return sign + (a / 10000) + "." + String.format(Locale.ROOT, "%04d", a % 10000);
    }

    /** A coordinate as Redis prints it (addReplyHumanLongDouble): 17 decimals, trailing zeros cut. */
    static Reply coordinate(double value) {
        String text = new BigDecimal(value).setScale(17, RoundingMode.HALF_EVEN).toPlainString();
        if (text.indexOf('.') >= 0) {
            int end = text.length();
            while (text.charAt(end - 1) == '0') {
                end--;
            }
            if (text.charAt(end - 1) == '.') {
                end--;
            }
            text = text.substring(0, end);
        }
        if (text.equals("-0")) {
            text = "0";
        }
        return Reply.doubleText(value, text);
    }
}
