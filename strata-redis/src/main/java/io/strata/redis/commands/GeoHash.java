package io.strata.redis.commands;

/**
 * Redis's geohash arithmetic, bit for bit (its {@code geohash.c} and {@code geohash_helper.c}):
 * a point is stored as a sorted-set score, the 52-bit interleaving of its latitude and
 * longitude quantised to 26 bits each over the Web Mercator ranges (latitudes within
 * ±85.05112878); a search covers the cell around its centre and that cell's eight neighbours,
 * at the coarsest step whose cells still contain the search area, and reads each cell as a
 * range of scores. The same arithmetic as Redis gives the same scores, so DUMP payloads,
 * ZSCOREs and search results agree with a Redis server's.
 */
final class GeoHash {
    static final double LONG_MIN = -180;
    static final double LONG_MAX = 180;
    static final double LAT_MIN = -85.05112878;
    static final double LAT_MAX = 85.05112878;
    static final int STEP_MAX = 26;
    /** Earth's quadratic mean radius for WGS-84, as Redis uses it. */
    static final double EARTH_RADIUS_IN_METERS = 6372797.560856;
    private static final double MERCATOR_MAX = 20037726.37;
    private static final double D_R = Math.PI / 180.0;
    private static final char[] ALPHABET = "0123456789bcdefghjkmnpqrstuvwxyz".toCharArray();

    private GeoHash() {
    }

    /** A cell: its bits and its step (bits per coordinate); step 0 is "none". */
    record Cell(long bits, int step) {
        static final Cell NONE = new Cell(0, 0);

        boolean none() {
            return bits == 0 && step == 0;
        }
    }

    /** A cell's bounds: {@code [lonMin, lonMax, latMin, latMax]}. */
    private static double[] area(Cell cell, double lonMin, double lonMax, double latMin, double latMax) {
        long separated = deinterleave(cell.bits());
        long ilat = separated & 0xFFFFFFFFL;
        long ilon = separated >>> 32;
        double cells = (double) (1L << cell.step());
        double latScale = latMax - latMin;
        double lonScale = lonMax - lonMin;
        return new double[] {
            lonMin + (ilon * 1.0 / cells) * lonScale,
            lonMin + ((ilon + 1) * 1.0 / cells) * lonScale,
            latMin + (ilat * 1.0 / cells) * latScale,
            latMin + ((ilat + 1) * 1.0 / cells) * latScale,
        };
    }

    private static double[] area(Cell cell) {
        return area(cell, LONG_MIN, LONG_MAX, LAT_MIN, LAT_MAX);
    }

    /** The cell of a point at {@code step} over the given ranges; null outside them. */
    private static Cell encode(double lon, double lat, int step, double lonMin, double lonMax, double latMin, double latMax) {
        if (lon > LONG_MAX || lon < LONG_MIN || lat > LAT_MAX || lat < LAT_MIN) {
            return null;
        }
        if (lat < latMin || lat > latMax || lon < lonMin || lon > lonMax) {
            return null;
        }
        double latOffset = (lat - latMin) / (latMax - latMin) * (1L << step);
        double lonOffset = (lon - lonMin) / (lonMax - lonMin) * (1L << step);
        // C converts to uint32_t by truncation.
        return new Cell(interleave((long) latOffset & 0xFFFFFFFFL, (long) lonOffset & 0xFFFFFFFFL), step);
    }

    static Cell encode(double lon, double lat, int step) {
        return encode(lon, lat, step, LONG_MIN, LONG_MAX, LAT_MIN, LAT_MAX);
    }

    /** The score GEOADD stores for a point already checked to be in range. */
    static long score(double lon, double lat) {
        return encode(lon, lat, STEP_MAX).bits();
    }

    /** The point a score stands for — its cell's centre, clamped to the ranges — or null. */
    static double[] decode(double score) {
        Cell cell = new Cell((long) score, STEP_MAX);
        if (cell.none()) {
            return null;
        }
        double[] a = area(cell);
        double lon = Math.min(LONG_MAX, Math.max(LONG_MIN, (a[0] + a[1]) / 2));
        double lat = Math.min(LAT_MAX, Math.max(LAT_MIN, (a[2] + a[3]) / 2));
        return new double[] {lon, lat};
    }

    /** GEOHASH's 11 characters: the point re-encoded over the standard ranges (latitudes ±90). */
    static String text(double lon, double lat) {
        Cell cell = encode(lon, lat, STEP_MAX, -180, 180, -90, 90);
        char[] out = new char[11];
        for (int i = 0; i < 11; i++) {
            // 52 bits make ten characters and two bits; Redis prints an 11th as if zero.
            int idx = i == 10 ? 0 : (int) ((cell.bits() >>> (52 - ((i + 1) * 5))) & 0x1f);
            out[i] = ALPHABET[idx];
        }
        return new String(out);
    }

    /** The scores of a cell's points: {@code [min, max)}. */
    static long[] scoreRange(Cell cell) {
        int shift = 52 - cell.step() * 2;
        return new long[] {cell.bits() << shift, (cell.bits() + 1) << shift};
    }

    /** Great-circle distance in meters (haversine), as Redis computes it. */
    static double distance(double lon1, double lat1, double lon2, double lat2) {
        double lon1r = lon1 * D_R;
        double lon2r = lon2 * D_R;
        double v = Math.sin((lon2r - lon1r) / 2);
        if (v == 0.0) {
            return latDistance(lat1, lat2);
        }
        double lat1r = lat1 * D_R;
        double lat2r = lat2 * D_R;
        double u = Math.sin((lat2r - lat1r) / 2);
        double a = u * u + Math.cos(lat1r) * Math.cos(lat2r) * v * v;
        return 2.0 * EARTH_RADIUS_IN_METERS * Math.asin(Math.sqrt(a));
    }

    static double latDistance(double lat1, double lat2) {
        return EARTH_RADIUS_IN_METERS * Math.abs(lat2 * D_R - lat1 * D_R);
    }

    /** A search area: a circle of {@code radius} or a {@code width} × {@code height} box, in meters, around a point. */
    record Shape(double lon, double lat, boolean circle, double radius, double width, double height, double conversion) {
        double radiusMeters() {
            return radius * conversion;
        }

        /** The distance from the centre when the point is inside, else NaN. */
        double distanceIfInside(double lon2, double lat2) {
            if (circle) {
                double d = distance(lon, lat, lon2, lat2);
                return d > radiusMeters() ? Double.NaN : d;
            }
            double w = width * conversion;
            double h = height * conversion;
            if (latDistance(lat2, lat) > h / 2) {
                return Double.NaN;
            }
            if (distance(lon2, lat2, lon, lat2) > w / 2) {
                return Double.NaN;
            }
            return distance(lon, lat, lon2, lat2);
        }

        /** {@code [minLon, minLat, maxLon, maxLat]} of the area (geohashBoundingBox). */
        double[] bounds() {
            double h = conversion * (circle ? radius : height / 2);
            double w = conversion * (circle ? radius : width / 2);
            double latDelta = (h / EARTH_RADIUS_IN_METERS) / D_R;
            double lonDeltaTop = (w / EARTH_RADIUS_IN_METERS / Math.cos((lat + latDelta) * D_R)) / D_R;
            double lonDeltaBottom = (w / EARTH_RADIUS_IN_METERS / Math.cos((lat - latDelta) * D_R)) / D_R;
            boolean southern = lat < 0;
            return new double[] {
                southern ? lon - lonDeltaBottom : lon - lonDeltaTop,
                lat - latDelta,
                southern ? lon + lonDeltaBottom : lon + lonDeltaTop,
                lat + latDelta,
            };
        }
    }

    static int estimateSteps(double rangeMeters, double lat) {
        if (rangeMeters == 0) {
            return 26;
        }
        int step = 1;
        while (rangeMeters < MERCATOR_MAX) {
            rangeMeters *= 2;
            step++;
        }
        step -= 2;
        if (lat > 66 || lat < -66) {
            step--;
            if (lat > 80 || lat < -80) {
                step--;
            }
        }
        return Math.max(1, Math.min(26, step));
    }

    /**
     * The cells a search reads, in Redis's order: the centre's, then north, south, east, west,
     * north-east, north-west, south-east, south-west; {@link Cell#NONE} for those the area
     * cannot reach (geohashCalculateAreasByShapeWGS84).
     */
    static Cell[] cells(Shape shape) {
        double[] b = shape.bounds();
        double minLon = b[0];
        double minLat = b[1];
        double maxLon = b[2];
        double maxLat = b[3];
        double radiusMeters = shape.circle() ? shape.radius()
                : Math.sqrt((shape.width() / 2) * (shape.width() / 2) + (shape.height() / 2) * (shape.height() / 2));
        radiusMeters *= shape.conversion();
        int steps = estimateSteps(radiusMeters, shape.lat());
        Cell hash = encode(shape.lon(), shape.lat(), steps);
        Cell[] n = neighbors(hash);
        double[] area = area(hash);
        boolean decrease = area(n[0])[3] < maxLat || area(n[1])[2] > minLat || area(n[2])[1] < maxLon || area(n[3])[0] > minLon;
        if (steps > 1 && decrease) {
            steps--;
            hash = encode(shape.lon(), shape.lat(), steps);
            n = neighbors(hash);
            area = area(hash);
        }
        // n: north, south, east, west, north_east, north_west, south_east, south_west
        if (steps >= 2) {
            if (area[2] < minLat) {
                n[1] = Cell.NONE;
                n[7] = Cell.NONE;
                n[6] = Cell.NONE;
            }
            if (area[3] > maxLat) {
                n[0] = Cell.NONE;
                n[4] = Cell.NONE;
                n[5] = Cell.NONE;
            }
            if (area[0] < minLon) {
                n[3] = Cell.NONE;
                n[7] = Cell.NONE;
                n[5] = Cell.NONE;
            }
            if (area[1] > maxLon) {
                n[2] = Cell.NONE;
                n[6] = Cell.NONE;
                n[4] = Cell.NONE;
            }
        }
        return new Cell[] {hash, n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[7]};
    }

    /** north, south, east, west, north-east, north-west, south-east, south-west (geohashNeighbors). */
    private static Cell[] neighbors(Cell c) {
        return new Cell[] {
            move(c, 0, 1), move(c, 0, -1), move(c, 1, 0), move(c, -1, 0),
            move(c, 1, 1), move(c, -1, 1), move(c, 1, -1), move(c, -1, -1),
        };
    }

    private static Cell move(Cell c, int dx, int dy) {
        long bits = step(c.bits(), c.step(), dx, 0xaaaaaaaaaaaaaaaaL, 0x5555555555555555L);
        return new Cell(step(bits, c.step(), dy, 0x5555555555555555L, 0xaaaaaaaaaaaaaaaaL), c.step());
    }

    /**
     * Moves one cell along the coordinate whose bits {@code mine} selects ({@code other}: the
     * other coordinate's), by {@code d} = -1, 0 or 1, wrapping at the edges (geohash_move_x/y):
     * the coordinate's bits are counted up or down as a number whose gaps are filled with ones.
     */
    private static long step(long bits, int step, int d, long mine, long other) {
        if (d == 0) {
            return bits;
        }
        long moved = bits & mine;
        long kept = bits & other;
        long gaps = other >>> (64 - step * 2);
        if (d > 0) {
            moved = moved + (gaps + 1);
        } else {
            moved = moved | gaps;
            moved = moved - (gaps + 1);
        }
        moved &= mine >>> (64 - step * 2);
        return moved | kept;
    }

    /** Interleaves the low 32 bits of {@code x} (even positions) and {@code y} (odd). */
    static long interleave(long xlo, long ylo) {
        long x = xlo;
        long y = ylo;
        x = (x | (x << 16)) & 0x0000FFFF0000FFFFL;
        y = (y | (y << 16)) & 0x0000FFFF0000FFFFL;
        x = (x | (x << 8)) & 0x00FF00FF00FF00FFL;
        y = (y | (y << 8)) & 0x00FF00FF00FF00FFL;
        x = (x | (x << 4)) & 0x0F0F0F0F0F0F0F0FL;
        y = (y | (y << 4)) & 0x0F0F0F0F0F0F0F0FL;
        x = (x | (x << 2)) & 0x3333333333333333L;
        y = (y | (y << 2)) & 0x3333333333333333L;
        x = (x | (x << 1)) & 0x5555555555555555L;
        y = (y | (y << 1)) & 0x5555555555555555L;
        return x | (y << 1);
    }

    /** The inverse: even bits to the low 32, odd bits to the high 32. */
    static long deinterleave(long interleaved) {
        long x = interleaved;
        long y = interleaved >>> 1;
        x = x & 0x5555555555555555L;
        y = y & 0x5555555555555555L;
        x = (x | (x >>> 1)) & 0x3333333333333333L;
        y = (y | (y >>> 1)) & 0x3333333333333333L;
        x = (x | (x >>> 2)) & 0x0F0F0F0F0F0F0F0FL;
        y = (y | (y >>> 2)) & 0x0F0F0F0F0F0F0F0FL;
        x = (x | (x >>> 4)) & 0x00FF00FF00FF00FFL;
        y = (y | (y >>> 4)) & 0x00FF00FF00FF00FFL;
        x = (x | (x >>> 8)) & 0x0000FFFF0000FFFFL;
        y = (y | (y >>> 8)) & 0x0000FFFF0000FFFFL;
        x = (x | (x >>> 16)) & 0x00000000FFFFFFFFL;
        y = (y | (y >>> 16)) & 0x00000000FFFFFFFFL;
        return x | (y << 32);
    }
}
