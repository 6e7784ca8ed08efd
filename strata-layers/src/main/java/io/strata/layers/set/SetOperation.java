package io.strata.layers.set;

import org.roaringbitmap.Container;

/**
 * The set algebra of {@link SetAlgebra}, over two or more sets {@code s_0, s_1, ...}, each
 * defined per container (the members sharing a 48-bit high part), which is what lets it
 * run container by container.
 */
public enum SetOperation {
    /** Members in every set. A container key missing from any set contributes nothing. */
    AND {
        @Override
        Container combine(Container[] present, int count, boolean firstPresent, int inputs) {
            if (count < inputs) {
                return null;
            }
            Container result = present[0];
            for (int i = 1; i < count && !result.isEmpty(); i++) {
                result = result.and(present[i]);
            }
            return result;
        }
    },
    /** Members in at least one set. */
    OR {
        @Override
        Container combine(Container[] present, int count, boolean firstPresent, int inputs) {
            Container result = present[0];
            for (int i = 1; i < count; i++) {
                result = result.or(present[i]);
            }
            return result;
        }
    },
    /** Members of the first set in none of the others. */
    AND_NOT {
        @Override
        Container combine(Container[] present, int count, boolean firstPresent, int inputs) {
            if (!firstPresent) {
                return null;
            }
            Container result = present[0];
            for (int i = 1; i < count && !result.isEmpty(); i++) {
                result = result.andNot(present[i]);
            }
            return result;
        }
    },
    /** Members in an odd number of the sets (for two sets: in exactly one). */
    XOR {
        @Override
        Container combine(Container[] present, int count, boolean firstPresent, int inputs) {
            Container result = present[0];
            for (int i = 1; i < count; i++) {
                result = result.xor(present[i]);
            }
            return result;
        }
    };

    /**
     * The result container for one high part, from the containers of the sets that have one
     * there: {@code present[0, count)} in input order, {@code firstPresent} telling whether
     * {@code present[0]} is the first set's, out of {@code inputs} sets. Null or empty when
     * the result has no member there. Never modifies its inputs; may return one of them.
     */
    abstract Container combine(Container[] present, int count, boolean firstPresent, int inputs);

    /**
     * Whether a container present in exactly one set, at index {@code input}, is the result
     * unchanged: lets OR, XOR and AND_NOT copy its stored bytes without decoding them.
     */
    boolean passesThroughAlone(int input, int inputs) {
        return switch (this) {
            case AND -> inputs == 1;
            case OR, XOR -> true;
            case AND_NOT -> input == 0;
        };
    }
}
