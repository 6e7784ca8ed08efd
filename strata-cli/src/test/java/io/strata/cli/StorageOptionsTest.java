package io.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code --disk-cache}'s sizes. */
class StorageOptionsTest {
    @Test
    void sizesAreBytesOrBinaryMultiples() {
        assertThat(StorageOptions.parseSize("1048576")).isEqualTo(1L << 20);
        assertThat(StorageOptions.parseSize("512k")).isEqualTo(512L << 10);
        assertThat(StorageOptions.parseSize("256m")).isEqualTo(256L << 20);
        assertThat(StorageOptions.parseSize("256MB")).isEqualTo(256L << 20);
        assertThat(StorageOptions.parseSize("256MiB")).isEqualTo(256L << 20);
        assertThat(StorageOptions.parseSize("2G")).isEqualTo(2L << 30);
        assertThat(StorageOptions.parseSize("100b")).isEqualTo(100);
        for (String bad : new String[] {"", "m", "1.5g", "-1m", "12q", "1t", "5ib", "99999999999999999999"}) {
            assertThatThrownBy(() -> StorageOptions.parseSize(bad)).as(bad).isInstanceOf(CommandLine.TypeConversionException.class);
        }
        assertThatThrownBy(() -> StorageOptions.parseSize("17179869184g")).hasMessageContaining("too large");
    }

    @Test
    void theDiskCacheIsAtLeastOneMebibyte() {
        assertThatThrownBy(() -> new StorageOptions.SizeConverter().convert("512k")).hasMessage("must be at least 1m (1 MiB), got '512k'");
        assertThat(new StorageOptions.SizeConverter().convert("1m")).isEqualTo(1L << 20);
    }
}
