package io.strata.bench.records;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code strata bench records} end to end on tiny settings; no figure is asserted, only that every cell ran. */
class BenchRecordsTest {
    record Run(int code, String out, String err) {}

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = new CommandLine(new BenchRecords());
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void runsEveryCellInMemoryAndDurableAndRemovesTheDatabase(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("out");
        Path work = dir.resolve("work");
        Run run = run("--records", "1000", "--seconds", "0.3", "--warmup", "0", "--jit-warmup", "0.5", "--clients", "1,2",
                "--dir", work.toString(), "--out", out.toString());
        assertThat(run.code()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("memory (strata:memory:", "durable (strata:", "per save transaction:")
                .doesNotContain("failed");

        List<String> csv = Files.readAllLines(out.resolve(BenchRecords.CSV_FILE));
        assertThat(csv.get(0)).isEqualTo(BenchRecords.CSV_HEADER);
        assertThat(csv).hasSize(1 + 2 * 4 * 2);
        for (String row : csv.subList(1, csv.size())) {
            String[] f = row.split(",");
            assertThat(Long.parseLong(f[5])).as(row).isPositive();   // transactions
            assertThat(Long.parseLong(f[11])).as(row).isZero();      // errors
        }
        try (var left = Files.list(work)) {
            assertThat(left).as("the databases are removed").isEmpty();
        }
    }

    @Test
    void helpNamesTheWorkloads() {
        Run run = run("--help");
        assertThat(run.code()).isZero();
        assertThat(run.out()).contains("--records", "raw-save", "FDBDatabaseFactory");
    }

    @Test
    void refusesUnknownWorkloadsAndDatabases() {
        assertThat(run("--workloads", "delete").err()).contains("unknown workload: delete");
        assertThat(run("--databases", "cluster").code()).isEqualTo(2);
    }

    @Test
    void chargesSamplesToTheCodeThatRan() {
        assertThat(CpuSplit.partOf("com.apple.foundationdb.record.provider.foundationdb.FDBRecordStore"))
                .isEqualTo(CpuSplit.Part.RECORD_LAYER);
        assertThat(CpuSplit.partOf("com.apple.foundationdb.async.RankedSet")).isEqualTo(CpuSplit.Part.RECORD_LAYER);
        assertThat(CpuSplit.partOf("com.apple.foundationdb.async.AsyncUtil")).isEqualTo(CpuSplit.Part.ENGINE);
        assertThat(CpuSplit.partOf("com.apple.foundationdb.tuple.Tuple")).isEqualTo(CpuSplit.Part.TUPLES);
        assertThat(CpuSplit.partOf("com.google.protobuf.CodedOutputStream")).isEqualTo(CpuSplit.Part.PROTOBUF);
        assertThat(CpuSplit.partOf("io.strata.engine.commit.CommitPipeline")).isEqualTo(CpuSplit.Part.ENGINE);
        assertThat(CpuSplit.partOf("com.apple.foundationdb.FDB")).isEqualTo(CpuSplit.Part.ENGINE);
        assertThat(CpuSplit.partOf("java.util.TreeMap")).isNull();
    }
}
