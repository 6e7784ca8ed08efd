package io.strata.examples.scheduling;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDB;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.TransactionContext;
import com.apple.foundationdb.directory.DirectoryLayer;
import com.apple.foundationdb.directory.DirectorySubspace;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * FoundationDB's class-scheduling tutorial as a FoundationDB program writes it: students sign
 * up for classes with a limited number of seats, drop them and switch between them, many at
 * once, and every transaction keeps the books straight (a class's free seats plus its
 * attendees is always its capacity; no student takes more than five classes).
 *
 * <p>Nothing here is Strata's: it opens the database with {@code FDB.selectAPIVersion(730).open()}
 * and uses fdb-java's directory and tuple layers. Run on strata-fdb, the cluster file decides
 * where the data lives — e.g. {@code FDB_CLUSTER_FILE=./fdb.cluster} holding {@code strata:./data}.
 *
 * <p>Key layout, in the directory {@code ("scheduling")}:
 * <pre>
 * ("class", CLASS)            → free seats, a decimal string
 * ("attends", STUDENT, CLASS) → ""  (the student takes the class)
 * </pre>
 */
public final class ClassScheduling {
    /** Seats of every class at the start. */
    public static final int SEATS = 100;
    /** The most classes one student may take. */
    public static final int MAX_CLASSES = 5;

    private static final String[] LEVELS = {"intro", "for dummies", "remedial", "101", "201", "301", "mastery", "lab", "seminar"};
    private static final String[] TYPES = {"chem", "bio", "cs", "geometry", "calc", "alg", "film", "music", "art", "dance"};
    private static final String[] TIMES = {"2:00", "3:00", "4:00", "5:00", "6:00", "7:00", "8:00", "9:00", "10:00", "11:00",
            "12:00", "13:00", "14:00", "15:00", "16:00", "17:00", "18:00", "19:00"};

    private final Subspace course;
    private final Subspace attends;
    private final List<String> classNames = new ArrayList<>();

    /** The schedule in {@code db}, under the directory {@code ("scheduling")}. */
    public ClassScheduling(Database db) {
        DirectorySubspace scheduling = DirectoryLayer.getDefault().createOrOpen(db, List.of("scheduling")).join();
        this.course = scheduling.subspace(Tuple.from("class"));
        this.attends = scheduling.subspace(Tuple.from("attends"));
        for (String level : LEVELS) {
            for (String type : TYPES) {
                for (String time : TIMES) {
                    classNames.add(time + " " + type + " " + level);
                }
            }
        }
    }

    public List<String> classNames() {
        return classNames;
    }

    /** Clears the schedule and offers every class with {@link #SEATS} seats. */
    public void init(Database db) {
        db.run(tr -> {
            tr.clear(attends.range());
            tr.clear(course.range());
            for (String name : classNames) {
                tr.set(course.pack(Tuple.from(name)), encode(SEATS));
            }
            return null;
        });
    }

    /** The classes with free seats. */
    public List<String> availableClasses(TransactionContext db) {
        return db.run(tr -> {
            List<String> names = new ArrayList<>();
            for (KeyValue kv : tr.getRange(course.range())) {
                if (decode(kv.getValue()) > 0) {
                    names.add(course.unpack(kv.getKey()).getString(0));
                }
            }
            return names;
        });
    }

    /** Signs {@code student} up for {@code className}; nothing happens if they already take it. */
    public void signup(TransactionContext db, String student, String className) {
        db.run(tr -> {
            signup(tr, student, className);
            return null;
        });
    }

    private void signup(Transaction tr, String student, String className) {
        byte[] attendance = attends.pack(Tuple.from(student, className));
        if (tr.get(attendance).join() != null) {
            return;
        }
        byte[] seatsKey = course.pack(Tuple.from(className));
        byte[] seats = tr.get(seatsKey).join();
        if (seats == null) {
            throw new IllegalArgumentException("No such class: " + className);
        }
        int free = decode(seats);
        if (free == 0) {
            throw new IllegalStateException("No remaining seats in " + className);
        }
        if (tr.getRange(attends.range(Tuple.from(student))).asList().join().size() >= MAX_CLASSES) {
            throw new IllegalStateException("Too many classes for " + student);
        }
        tr.set(seatsKey, encode(free - 1));
        tr.set(attendance, new byte[0]);
    }

    /** Drops {@code className} for {@code student}; nothing happens if they do not take it. */
    public void drop(TransactionContext db, String student, String className) {
        db.run(tr -> {
            drop(tr, student, className);
            return null;
        });
    }

    private void drop(Transaction tr, String student, String className) {
        byte[] attendance = attends.pack(Tuple.from(student, className));
        if (tr.get(attendance).join() == null) {
            return;
        }
        byte[] seatsKey = course.pack(Tuple.from(className));
        tr.set(seatsKey, encode(decode(tr.get(seatsKey).join()) + 1));
        tr.clear(attendance);
    }

    /** Moves {@code student} from one class to another in one transaction: both happen or neither. */
    public void switchClasses(TransactionContext db, String student, String from, String to) {
        db.run(tr -> {
            drop(tr, student, from);
            signup(tr, student, to);
            return null;
        });
    }

    /** The classes {@code student} takes. */
    public List<String> classesOf(TransactionContext db, String student) {
        return db.run(tr -> {
            List<String> names = new ArrayList<>();
            for (KeyValue kv : tr.getRange(attends.range(Tuple.from(student)))) {
                names.add(attends.unpack(kv.getKey()).getString(1));
            }
            return names;
        });
    }

    /** Free seats of every class, by name. */
    public Map<String, Integer> seats(TransactionContext db) {
        return db.run(tr -> {
            Map<String, Integer> seats = new TreeMap<>();
            for (KeyValue kv : tr.getRange(course.range())) {
                seats.put(course.unpack(kv.getKey()).getString(0), decode(kv.getValue()));
            }
            return seats;
        });
    }

    /** How many students take each class, counted from the attendance keys. */
    public Map<String, Integer> attendance(TransactionContext db) {
        return db.run(tr -> {
            Map<String, Integer> counts = new TreeMap<>();
            for (KeyValue kv : tr.getRange(attends.range())) {
                counts.merge(attends.unpack(kv.getKey()).getString(1), 1, Integer::sum);
            }
            return counts;
        });
    }

    /** One student's random walk: {@code ops} signups, drops and switches. */
    void simulateStudent(Database db, String student, int ops, Random random) {
        List<String> mine = new ArrayList<>();
        List<String> available = availableClasses(db);
        for (int i = 0; i < ops; i++) {
            String mood = mine.isEmpty() ? "add" : mine.size() >= MAX_CLASSES ? "drop" : new String[] {"add", "drop", "switch"}[random.nextInt(3)];
            try {
                if (available.isEmpty()) {
                    available = availableClasses(db);
                }
                switch (mood) {
                    case "add" -> {
                        String c = available.get(random.nextInt(available.size()));
                        signup(db, student, c);
                        mine.add(c);
                    }
                    case "drop" -> drop(db, student, mine.remove(random.nextInt(mine.size())));
                    default -> {
                        String from = mine.get(random.nextInt(mine.size()));
                        String to = available.get(random.nextInt(available.size()));
                        switchClasses(db, student, from, to);
                        mine.remove(from);
                        mine.add(to);
                    }
                }
            } catch (IllegalStateException | IllegalArgumentException full) {
                // A full class or too many classes: look again at what is on offer.
                available = availableClasses(db);
                mine = new ArrayList<>(classesOf(db, student));
            }
        }
    }

    /** {@code students} students, {@code ops} operations each, all at once. */
    public void simulate(Database db, int students, int ops) throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(students);
        for (int i = 0; i < students; i++) {
            String student = "s" + i;
            Random random = new Random(i);
            pool.execute(() -> simulateStudent(db, student, ops, random));
        }
        pool.shutdown();
        if (!pool.awaitTermination(5, TimeUnit.MINUTES)) {
            throw new IllegalStateException("the simulation did not finish in 5 minutes");
        }
    }

    private static byte[] encode(int seats) {
        return Integer.toString(seats).getBytes(StandardCharsets.US_ASCII);
    }

    private static int decode(byte[] seats) {
        return Integer.parseInt(new String(seats, StandardCharsets.US_ASCII));
    }

    /**
     * Runs the tutorial: {@code init} (unless {@code --keep}), then {@code students} students
     * (default 10) doing {@code ops} operations each (default 10), and prints a summary.
     */
    public static void main(String[] args) throws InterruptedException {
        boolean keep = args.length > 0 && args[0].equals("--keep");
        int first = keep ? 1 : 0;
        int students = args.length > first ? Integer.parseInt(args[first]) : 10;
        int ops = args.length > first + 1 ? Integer.parseInt(args[first + 1]) : 10;
        FDB fdb = FDB.selectAPIVersion(730);
        try (Database db = fdb.open()) {
            ClassScheduling schedule = new ClassScheduling(db);
            if (!keep) {
                schedule.init(db);
            }
            schedule.simulate(db, students, ops);
            int taken = schedule.attendance(db).values().stream().mapToInt(Integer::intValue).sum();
            System.out.println("classes: " + schedule.classNames().size() + ", seats taken: " + taken
                    + ", classes still open: " + schedule.availableClasses(db).size());
        }
    }
}
