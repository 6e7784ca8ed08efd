package io.strata.engine.commit;

import java.io.IOException;
import java.util.List;

/**
 * Where the sequencer makes each commit batch durable before it becomes visible.
 *
 * <p>{@code effects} are the batch's writes with every atomic operation and versionstamp
 * already evaluated: only {@link Mutation#SET_VALUE} and {@link Mutation#CLEAR_RANGE}. An
 * exception means nothing of the batch may be acknowledged: the sequencer fails its
 * commits and refuses later ones.
 */
public interface BatchLog extends AutoCloseable {
    void append(long version, List<Mutation> effects) throws IOException;

    @Override
    void close() throws IOException;
}
