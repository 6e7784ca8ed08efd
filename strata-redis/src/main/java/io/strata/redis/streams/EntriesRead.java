package io.strata.redis.streams;

/**
 * A consumer group's entries-read counter and lag, computed as Redis 7.0 computes them
 * ({@code streamRangeHasTombstones}, {@code streamEstimateDistanceFromFirstEverEntry},
 * {@code streamReplyWithCGLag}). {@code first} is the stream's first entry ID (0-0 when
 * empty). -1 stands for Redis's "invalid" counter.
 */
final class EntriesRead {
    static final long INVALID = -1;

    private EntriesRead() {
    }

    /** Whether a deleted entry may lie at or after {@code start}. */
    static boolean hasTombstonesFrom(StreamHeader h, StreamId first, StreamId start) {
        if (h.length() == 0 || h.maxDeletedId().isZero()) {
            return false;
        }
        if (first.compareTo(h.maxDeletedId()) > 0) {
            return false;
        }
        return start.compareTo(h.maxDeletedId()) <= 0;
    }

    /** The number of entries ever added up to {@code id}, or {@link #INVALID} when it cannot be known. */
    static long estimate(StreamHeader h, StreamId first, StreamId id) {
        if (h.entriesAdded() == 0) {
            return 0;
        }
        if (h.length() == 0 && id.compareTo(h.lastId()) < 1) {
            return h.entriesAdded();
        }
        int cmpLast = id.compareTo(h.lastId());
        if (cmpLast == 0) {
            return h.entriesAdded();
        } else if (cmpLast > 0) {
            return INVALID;
        }
        int cmpFirst = id.compareTo(first);
        if (h.maxDeletedId().isZero() || h.maxDeletedId().compareTo(first) < 0) {
            if (cmpFirst < 0) {
                return h.entriesAdded() - h.length();
            } else if (cmpFirst == 0) {
                return h.entriesAdded() - h.length() + 1;
            }
        }
        return INVALID;
    }

    /** The group's new entries-read after it is delivered {@code id} (past its last-delivered-id). */
    static long afterDelivering(StreamHeader h, StreamId first, long entriesRead, StreamId id) {
        if (entriesRead != INVALID && !hasTombstonesFrom(h, first, id)) {
            return entriesRead + 1;
        } else if (h.entriesAdded() != 0) {
            return estimate(h, first, id);
        }
        return entriesRead;
    }

    /** The group's lag, or null when it cannot be known. */
    static Long lag(StreamHeader h, StreamId first, long entriesRead, StreamId lastDelivered) {
        if (h.entriesAdded() == 0) {
            return 0L;
        }
        if (entriesRead != INVALID && !hasTombstonesFrom(h, first, lastDelivered)) {
            return h.entriesAdded() - entriesRead;
        }
        long estimated = estimate(h, first, lastDelivered);
        return estimated == INVALID ? null : h.entriesAdded() - estimated;
    }
}
