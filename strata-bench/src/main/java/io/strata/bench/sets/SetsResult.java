package io.strata.bench.sets;

/**
 * One row of {@code sets.csv}.
 *
 * @param operation {@code and-dense}, {@code add-sparse}, ...: the operation and the shape
 * @param members   members per input set (for {@code add}: members loaded)
 * @param millis    the median over the repetitions, in milliseconds
 * @param resultCardinality members in the result (for {@code add}: in the loaded set), for
 *                  the report and to check the operation
 */
public record SetsResult(String operation, int members, double millis, long resultCardinality) {}
