package io.strata.fdb;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What strata-fdb's jar holds (its classes directory, which the jar packs): fdb-java's classes
 * but the native plumbing, Strata's replacements, and nothing that needs a native library —
 * and every class in it links against the others, down to the members of {@code FDB} that
 * fdb-java's own classes reach ({@code ../shared/fdb-java-seams.md}). A missing member would
 * otherwise surface only at run time, as {@code NoSuchMethodError} deep inside a tuple or an
 * async helper.
 */
class FdbJavaBundleTest {
    /** fdb-java's classes that need libfdb_c / libfdb_java, left out of the jar. */
    private static final Set<String> NATIVE_PLUMBING = Set.of(
            "FDBDatabase", "FDBTenant", "FDBTransaction", "FDBTransaction$ReadSnapshot",
            "NativeFuture", "FutureBool", "FutureInt64", "FutureKey", "FutureKeyArray", "FutureKeyRangeArray",
            "FutureMappedResults", "FutureResult", "FutureResults", "FutureStrings", "FutureVoid",
            "JNIUtil$OS", "RangeQuery", "RangeQuery$1", "RangeQuery$AsyncRangeIterator",
            "RangeQuery$AsyncRangeIterator$FetchComplete", "MappedRangeQuery", "MappedRangeQuery$1",
            "MappedRangeQuery$AsyncRangeIterator", "MappedRangeQuery$AsyncRangeIterator$FetchComplete",
            "RangeResultInfo", "MappedRangeResultInfo", "LocalityUtil$BoundaryIterator$1",
            // The workload harness: classes fdbserver's simulator instantiates through JNI.
            "testing/AbstractWorkload", "testing/AbstractWorkload$1", "testing/Promise", "testing/WorkloadContext");
    /** Strata's own top-level classes in fdb-java's package: the replacements and their helpers (with their nested classes). */
    private static final Set<String> STRATA_OWN = Set.of(
            "FDB", "JNIUtil", "LocalityUtil", "StrataDatabases", "RefusedCluster", "ErrorPredicates", "NetworkOptionRules");

    private static Path classes;
    private static Path referenceJar;
    private static List<String> bundled;

    @BeforeAll
    static void locate() throws IOException {
        classes = Path.of(System.getProperty("strata.fdb.classes"));
        referenceJar = Path.of(System.getProperty("strata.fdb.referenceJar"));
        try (Stream<Path> files = Files.walk(classes)) {
            bundled = files.filter(Files::isRegularFile).map(p -> classes.relativize(p).toString().replace('\\', '/')).sorted().toList();
        }
    }

    @Test
    void theJarHoldsFdbJavasClassesButTheNativePlumbing() throws IOException {
        Set<String> reference = new TreeSet<>();
        try (JarFile jar = new JarFile(referenceJar.toFile())) {
            jar.stream().map(JarEntry::getName).filter(n -> n.endsWith(".class")).forEach(reference::add);
        }
        Set<String> missing = new TreeSet<>(reference);
        missing.removeAll(bundled);
        assertThat(missing).containsExactlyInAnyOrderElementsOf(
                NATIVE_PLUMBING.stream().map(n -> "com/apple/foundationdb/" + n + ".class").toList());

        // Every class fdb-java does not have is Strata's own (or nested in one of them).
        Set<String> added = new TreeSet<>(bundled);
        added.removeIf(n -> !n.endsWith(".class"));
        added.removeAll(reference);
        Set<String> outerNames = new TreeSet<>();
        for (String n : added) {
            String simple = n.substring("com/apple/foundationdb/".length(), n.length() - ".class".length());
            outerNames.add(simple.contains("$") ? simple.substring(0, simple.indexOf('$')) : simple);
        }
        assertThat(added).allMatch(n -> n.startsWith("com/apple/foundationdb/") && !n.substring(23).contains("/"));
        assertThat(STRATA_OWN).containsAll(outerNames);
        for (String own : STRATA_OWN) {
            assertThat(bundled).contains("com/apple/foundationdb/" + own + ".class");
        }
    }

    @Test
    void noNativeLibraryAndNoNativeMethod() throws Exception {
        assertThat(bundled).noneMatch(n -> n.startsWith("lib/") || n.endsWith(".so") || n.endsWith(".jnilib") || n.endsWith(".dll"));
        List<String> natives = new ArrayList<>();
        for (String name : classNames()) {
            Class<?> c = Class.forName(name, false, getClass().getClassLoader());
            for (Method m : c.getDeclaredMethods()) {
                if (Modifier.isNative(m.getModifiers())) {
                    natives.add(m.toString());
                }
            }
        }
        assertThat(natives).isEmpty();
    }

    @Test
    void everyReferenceOfEveryClassLinks() throws IOException {
        ClassLoader loader = getClass().getClassLoader();
        List<String> broken = new ArrayList<>();
        for (String file : bundled) {
            if (!file.endsWith(".class")) {
                continue;
            }
            ClassFileReferences refs;
            try (InputStream in = Files.newInputStream(classes.resolve(file))) {
                refs = ClassFileReferences.read(in);
            }
            for (String referenced : refs.classes) {
                if (load(referenced, loader) == null) {
                    broken.add(refs.className + " -> class " + referenced);
                }
            }
            for (ClassFileReferences.Member member : refs.members) {
                if (!member.owner().startsWith("com/apple/foundationdb/")) {
                    continue; // the JDK and the engine keep their own members
                }
                Class<?> owner = load(member.owner(), loader);
                if (owner != null && !resolves(owner, member, refs.className)) {
                    broken.add(refs.className + " -> " + member);
                }
            }
        }
        assertThat(broken).isEmpty();
    }

    private static List<String> classNames() {
        return bundled.stream().filter(n -> n.endsWith(".class") && !n.equals("module-info.class"))
                .map(n -> n.substring(0, n.length() - ".class".length()).replace('/', '.')).toList();
    }

    private static Class<?> load(String internalName, ClassLoader loader) {
        try {
            return Class.forName(internalName.replace('/', '.'), false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    /** Whether the member exists where the JVM looks for it (the class, its supertypes) and may be reached. */
    private static boolean resolves(Class<?> owner, ClassFileReferences.Member member, String referrer) {
        for (Class<?> c : hierarchy(owner)) {
            if (member.method()) {
                List<Executable> candidates = new ArrayList<>(List.of(c.getDeclaredMethods()));
                if (member.name().equals("<init>")) {
                    candidates = new ArrayList<>(List.of(c.getDeclaredConstructors()));
                }
                for (Executable e : candidates) {
                    String name = e instanceof Constructor ? "<init>" : e.getName();
                    if (name.equals(member.name()) && descriptor(e).equals(member.descriptor())) {
                        return reachable(e.getModifiers(), c, referrer);
                    }
                }
                if (member.name().equals("<init>")) {
                    return false; // constructors are not inherited
                }
            } else {
                for (Field f : c.getDeclaredFields()) {
                    if (f.getName().equals(member.name()) && descriptor(f.getType()).equals(member.descriptor())) {
                        return reachable(f.getModifiers(), c, referrer);
                    }
                }
            }
        }
        return false;
    }

    private static boolean reachable(int modifiers, Class<?> declaring, String referrer) {
        String referrerName = referrer.replace('/', '.');
        if (Modifier.isPrivate(modifiers)) {
            return declaring.getName().equals(referrerName) || referrerName.startsWith(declaring.getName() + "$")
                    || declaring.getName().startsWith(referrerName + "$");
        }
        if (Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers)) {
            return true;
        }
        String pkg = declaring.getPackageName();
        return referrerName.startsWith(pkg + ".") && referrerName.lastIndexOf('.') == pkg.length();
    }

    private static List<Class<?>> hierarchy(Class<?> c) {
        List<Class<?>> all = new ArrayList<>();
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            all.add(k);
        }
        for (int i = 0; i < all.size(); i++) {
            for (Class<?> i2 : all.get(i).getInterfaces()) {
                if (!all.contains(i2)) {
                    all.add(i2);
                }
            }
        }
        return all;
    }

    private static String descriptor(Executable e) {
        StringBuilder d = new StringBuilder("(");
        for (Class<?> p : e.getParameterTypes()) {
            d.append(descriptor(p));
        }
        d.append(')').append(e instanceof Method m ? descriptor(m.getReturnType()) : "V");
        return d.toString();
    }

    private static String descriptor(Class<?> type) {
        if (type.isArray()) {
            return type.getName().replace('.', '/');
        }
        if (!type.isPrimitive()) {
            return "L" + type.getName().replace('.', '/') + ";";
        }
        return switch (type.getName()) {
            case "void" -> "V";
            case "boolean" -> "Z";
            case "byte" -> "B";
            case "char" -> "C";
            case "short" -> "S";
            case "int" -> "I";
            case "long" -> "J";
            case "float" -> "F";
            case "double" -> "D";
            default -> throw new IllegalArgumentException(type.getName());
        };
    }
}
