package io.strata.fdb;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a class file refers to: the classes, fields and methods named in its constant pool —
 * what the JVM links when the class runs (JVMS §4.4). Enough of the class-file format to
 * check that a jar's classes link against each other without running them.
 */
final class ClassFileReferences {
    /** A field or method another class is named as owning. */
    record Member(String owner, String name, String descriptor, boolean method) {
        @Override
        public String toString() {
            return owner.replace('/', '.') + (method ? "." : "#") + name + " " + descriptor;
        }
    }

    final String className;
    final Set<String> classes = new LinkedHashSet<>();
    final List<Member> members = new ArrayList<>();

    private ClassFileReferences(String className) {
        this.className = className;
    }

    /** Reads one class file. */
    static ClassFileReferences read(InputStream classFile) throws IOException {
        DataInputStream in = new DataInputStream(classFile);
        if (in.readInt() != 0xCAFEBABE) {
            throw new IOException("not a class file");
        }
        in.readUnsignedShort(); // minor version
        in.readUnsignedShort(); // major version
        int count = in.readUnsignedShort();
        Object[] pool = new Object[count];
        int[][] refs = new int[count][];
        int[] tags = new int[count];
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            tags[i] = tag;
            switch (tag) {
                case 1 -> pool[i] = in.readUTF();
                case 3, 4 -> in.readInt();
                case 5, 6 -> {
                    in.readLong();
                    i++; // eight-byte constants take two slots
                }
                case 7, 8, 16, 19, 20 -> refs[i] = new int[] {in.readUnsignedShort()};
                case 9, 10, 11, 12, 17, 18 -> refs[i] = new int[] {in.readUnsignedShort(), in.readUnsignedShort()};
                case 15 -> {
                    in.readUnsignedByte();
                    refs[i] = new int[] {in.readUnsignedShort()};
                }
                default -> throw new IOException("unknown constant pool tag " + tag + " at " + i);
            }
        }
        in.readUnsignedShort(); // access flags
        int thisClass = in.readUnsignedShort();
        ClassFileReferences result = new ClassFileReferences((String) pool[refs[thisClass][0]]);
        for (int i = 1; i < count; i++) {
            if (tags[i] == 7) {
                String name = (String) pool[refs[i][0]];
                String element = elementClass(name);
                if (element != null) {
                    result.classes.add(element);
                }
            } else if (tags[i] == 9 || tags[i] == 10 || tags[i] == 11) {
                String owner = (String) pool[refs[refs[i][0]][0]];
                int[] nameAndType = refs[refs[i][1]];
                String ownerElement = elementClass(owner);
                if (ownerElement != null && ownerElement.equals(owner)) {
                    result.members.add(new Member(owner, (String) pool[nameAndType[0]], (String) pool[nameAndType[1]], tags[i] != 9));
                }
            }
        }
        return result;
    }

    /** The class an entry names: itself, or an array's element class; null for arrays of primitives. */
    private static String elementClass(String name) {
        if (!name.startsWith("[")) {
            return name;
        }
        String element = name.replaceFirst("^\\[+", "");
        return element.startsWith("L") ? element.substring(1, element.length() - 1) : null;
    }
}
