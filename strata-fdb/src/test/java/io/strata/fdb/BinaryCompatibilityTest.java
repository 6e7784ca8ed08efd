package io.strata.fdb;

import japicmp.cmp.JApiCmpArchive;
import japicmp.cmp.JarArchiveComparator;
import japicmp.cmp.JarArchiveComparatorOptions;
import japicmp.model.AccessModifier;
import japicmp.model.JApiChangeStatus;
import japicmp.model.JApiClass;
import japicmp.model.JApiCompatibilityChange;
import japicmp.model.JApiConstructor;
import japicmp.model.JApiField;
import japicmp.model.JApiMethod;
import japicmp.model.JApiModifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * strata-fdb's public API against fdb-java 7.3.68's, compared by japicmp: every public and
 * protected class, method and field of {@code com.apple.foundationdb} must be there,
 * unchanged — so a program compiled against fdb-java links against strata-fdb and behaves
 * the same. Any difference fails the build. The classes left out are native plumbing: the
 * package-private native implementation, which a comparison of public and protected API does
 * not see, and the three public classes of fdb-java's workload harness, which only fdbserver's
 * simulator instantiates.
 */
class BinaryCompatibilityTest {
    @TempDir
    Path dir;

    @Test
    void thePublicApiIsFdbJavas() throws IOException {
        Path ours = jarOf(Path.of(System.getProperty("strata.fdb.classes")), dir.resolve("strata-fdb.jar"));
        JarArchiveComparatorOptions options = new JarArchiveComparatorOptions();
        options.setAccessModifier(AccessModifier.PROTECTED);
        options.getIgnoreMissingClasses().setIgnoreAllMissingClasses(true);
        List<JApiClass> classes = new JarArchiveComparator(options).compare(
                new JApiCmpArchive(Path.of(System.getProperty("strata.fdb.referenceJar")).toFile(), "7.3.68"),
                new JApiCmpArchive(ours.toFile(), "strata"));

        List<String> differences = new ArrayList<>();
        List<String> removed = new ArrayList<>();
        for (JApiClass c : classes) {
            if (!c.getFullyQualifiedName().startsWith("com.apple.foundationdb.") || c.getChangeStatus() == JApiChangeStatus.UNCHANGED) {
                continue;
            }
            if (c.getChangeStatus() == JApiChangeStatus.REMOVED) {
                removed.add(c.getFullyQualifiedName());
                continue;
            }
            StringBuilder line = new StringBuilder();
            for (JApiMethod m : c.getMethods()) {
                if (m.getChangeStatus() != JApiChangeStatus.UNCHANGED && visible(m.getAccessModifier())) {
                    line.append("\n    method ").append(m.getName()).append(' ').append(m.getChangeStatus());
                }
            }
            for (JApiField f : c.getFields()) {
                if (f.getChangeStatus() != JApiChangeStatus.UNCHANGED && visible(f.getAccessModifier())) {
                    line.append("\n    field ").append(f.getName()).append(' ').append(f.getChangeStatus());
                }
            }
            for (JApiConstructor k : c.getConstructors()) {
                if (k.getChangeStatus() != JApiChangeStatus.UNCHANGED && visible(k.getAccessModifier())) {
                    line.append("\n    constructor ").append(k.getChangeStatus());
                }
            }
            for (JApiCompatibilityChange change : c.getCompatibilityChanges()) {
                line.append("\n    ").append(change.getType());
            }
            if (!line.isEmpty()) {
                differences.add(c.getFullyQualifiedName() + ": " + c.getChangeStatus() + line);
            }
        }
        assertThat(differences).as("differences from fdb-java 7.3.68's public API").isEmpty();
        // Native plumbing only: the workload harness that fdbserver's simulator drives through JNI.
        assertThat(removed).containsExactlyInAnyOrder("com.apple.foundationdb.testing.AbstractWorkload",
                "com.apple.foundationdb.testing.Promise", "com.apple.foundationdb.testing.WorkloadContext");
        assertThat(classes).as("classes compared").hasSizeGreaterThan(50);
    }

    /** Whether a member is public or protected before or after (a private one may differ freely). */
    private static boolean visible(JApiModifier<AccessModifier> access) {
        return access.getOldModifier().map(BinaryCompatibilityTest::visible).orElse(false)
                || access.getNewModifier().map(BinaryCompatibilityTest::visible).orElse(false);
    }

    private static boolean visible(AccessModifier access) {
        return access == AccessModifier.PUBLIC || access == AccessModifier.PROTECTED;
    }

    /** The classes directory packed as the jar is. */
    private static Path jarOf(Path classes, Path jar) throws IOException {
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream zip = new JarOutputStream(out);
             Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                zip.putNextEntry(new JarEntry(classes.relativize(file).toString().replace('\\', '/')));
                Files.copy(file, zip);
                zip.closeEntry();
            }
        }
        return jar;
    }
}
