package io.strata.cli.bench;

import io.strata.cli.StrataCli;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code strata bench records}: Apple's Record Layer on Strata, run in a JVM of its own.
 *
 * <p>Why a child JVM: the Record Layer reaches the database through {@code FDB.open()}, so it
 * runs on strata-fdb, the artifact that <em>replaces</em> fdb-java; this CLI, like every module
 * but strata-fdb, is built on the real fdb-java so that it also drives a real cluster. The two
 * cannot share a class path (both hold {@code com.apple.foundationdb.FDB}), so the benchmark
 * lives in strata-bench-records and this command starts {@code java -jar
 * strata-bench-records.jar} with the arguments it was given — {@code --help} included, which
 * the benchmark answers — and with this JVM's heap and GC options.
 */
@Command(name = "records",
        description = {"Apple's Record Layer on Strata: record saves and indexed queries per second, in memory and durable,",
                "and where the time goes (runs strata-bench-records in a JVM of its own; see --help)."})
final class BenchRecordsCommand implements Callable<Integer> {
    /** Overrides where the benchmark's jar is looked for. */
    static final String JAR_PROPERTY = "strata.bench.records.jar";
    static final String JAR = "strata-bench-records/target/strata-bench-records.jar";

    @CommandLine.Unmatched
    List<String> arguments = new ArrayList<>();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Path jar = jar();
        if (!Files.isRegularFile(jar)) {
            PrintWriter err = spec.commandLine().getErr();
            err.println("strata bench records: " + jar + " is missing. Build it with"
                    + " `mvn -q -DskipTests package -pl strata-bench-records -am` (the ./strata launcher does).");
            err.flush();
            return 1;
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions());
        command.add("-jar");
        command.add(jar.toString());
        command.addAll(arguments);
        Process child = new ProcessBuilder(command).inheritIO().start();
        return child.waitFor();
    }

    /** This JVM's memory and collector options (-X..., -XX:...), which the launcher chose for benchmarks. */
    static List<String> jvmOptions() {
        return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("-X") && !a.startsWith("-Xrun") && !a.startsWith("-Xdebug"))
                .toList();
    }

    /** The benchmark's jar: {@value #JAR_PROPERTY}, else beside this CLI's module in the source tree. */
    static Path jar() throws URISyntaxException {
        String configured = System.getProperty(JAR_PROPERTY);
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        // strata-cli/target/strata-cli.jar or strata-cli/target/classes: three levels up is the root.
        Path here = Path.of(StrataCli.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        return here.getParent().getParent().getParent().resolve(JAR);
    }
}
