package io.strata.cli.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * A jar that stands in for a benchmark's: its manifest runs {@link StandInJar#main}, from this
 * module's test classes, which writes the arguments it got, one a line, to the file named by
 * the last of them.
 */
final class StandInJar {
    private StandInJar() {}

    public static void main(String[] args) throws IOException {
        Files.write(Path.of(args[args.length - 1]), List.of(args));
    }

    static Path write(Path dir, String name) throws IOException, URISyntaxException {
        Path classes = Path.of(StandInJar.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, StandInJar.class.getName());
        manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH, classes.toUri().toString());
        Path jar = dir.resolve(name);
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream ignored = new JarOutputStream(out, manifest)) {
            // the manifest is the whole jar
        }
        return jar;
    }
}
