package io.strata.layers.ranked;

import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.ByteArrayUtil;
import com.apple.foundationdb.tuple.Tuple;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The level prefixes, computed once per level number, are the tuple layer's encoding under the subspace. */
class RankedSetLayoutTest {
    @Test
    void levelPrefixesAndEndsAreTheSubspacePackOfTheLevelNumberAndItsStrinc() {
        Subspace[] subspaces = {
            new Subspace(new byte[0]),
            new Subspace(Tuple.from("zset", 7L)),
            new Subspace(new byte[] {0x01, (byte) 0xff}),
        };
        for (Subspace subspace : subspaces) {
            RankedSetLayout layout = new RankedSetLayout(subspace, RankedSetLayout.MAX_LEVELS);
            for (int level = 0; level < RankedSetLayout.MAX_LEVELS; level++) {
                byte[] expected = subspace.pack(Tuple.from(level));
                assertThat(layout.levelBegin(level)).as("level %d", level).isEqualTo(expected);
                assertThat(layout.levelEnd(level)).as("end of level %d", level).isEqualTo(ByteArrayUtil.strinc(expected));
            }
        }
    }
}
