package io.strata.bench.interning;

/**
 * One measured cell.
 *
 * @param allocator     the registry name, with {@code +cache} when the interner had a cache
 * @param batch         strings per transaction
 * @param concurrency   client threads
 * @param newStrings    new strings interned in batches started in the measured interval and committed
 * @param internSeconds the measured interval of the interning phase
 * @param retries       retried attempts of those batches (conflicts, or unfit versionstamps)
 * @param lookups       known strings found in batches started in the lookup phase's measured interval
 * @param lookupSeconds the measured interval of the lookup phase
 * @param errors        batches that failed or were abandoned in the measured intervals, plus
 *                      lookups that answered a wrong or no ID
 * @param abandoned     batches abandoned after too many retries in the whole cell (warm-up
 *                      included): the allocator livelocks at this setting
 * @param suspect       wrong lookup answers and failures other than abandonment in the whole
 *                      cell: the figures are not to be trusted
 */
public record InterningResult(String allocator, int batch, int concurrency, long newStrings, double internSeconds,
                              long retries, long lookups, double lookupSeconds, long errors, long abandoned,
                              long suspect) {

    public double newStringsPerSecond() {
        return newStrings / internSeconds;
    }

    public double lookupsPerSecond() {
        return lookupSeconds == 0 ? 0 : lookups / lookupSeconds;
    }

    /** Retried attempts per interned string. */
    public double conflictsPerString() {
        return newStrings == 0 ? 0 : (double) retries / newStrings;
    }
}
