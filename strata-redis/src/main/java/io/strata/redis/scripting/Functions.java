package io.strata.redis.scripting;

import com.apple.foundationdb.Transaction;
import io.strata.redis.command.CommandExecutor;
import io.strata.redis.command.Replicas;
import io.strata.redis.command.Invocation;
import io.strata.redis.command.Numbers;
import io.strata.redis.command.ServerContext;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;
import org.luaj.vm2.LuaClosure;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaFunction;
import org.luaj.vm2.Prototype;
import org.luaj.vm2.compiler.LuaC;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Redis 7 functions: FUNCTION LOAD/DELETE/FLUSH/LIST/STATS and FCALL/FCALL_RO, with libraries
 * kept in the database ({@link FunctionStore}) and parsed once per distinct code into a
 * {@link Library} (a concurrent map by SHA1 of the code; parsing twice in a race is harmless).
 *
 * <p>Parsing runs the library's body as FUNCTION LOAD does in Redis: with only the load API
 * ({@code redis.register_function}, {@code redis.log}, the version) and at most 500 ms. A call
 * runs the body again in the call's own environment to get the callback, then calls it with
 * {@code KEYS} and {@code ARGV}; so, unlike Redis, a library's local variables do not keep
 * their values from one call to the next.
 */
public final class Functions {
    static final String CHUNK_NAME = "@user_function";
    private static final long LOAD_LIMIT_NANOS = 500_000_000L;

    private final ServerContext server;
    private final Scripts scripts;
    private final FunctionStore store;
    private final Map<String, Library> parsed = new ConcurrentHashMap<>();

    Functions(ServerContext server, Scripts scripts) {
        this.server = server;
        this.scripts = scripts;
        this.store = new FunctionStore(server.keys().keyspace().area('f'));
    }

    /** The library {@code code} defines, parsed on a scripting thread; Redis's errors for bad code. */
    private CompletableFuture<Library> parse(Invocation inv, byte[] code) {
        Library cached = parsed.get(Sha1.hex(code));
        if (cached != null) {
            return CompletableFuture.completedFuture(cached);
        }
        return scripts.onScriptThread(() -> parseHere(inv, code));
    }

    private Library parseHere(Invocation inv, byte[] code) {
        String sha = Sha1.hex(code);
        Library cached = parsed.get(sha);
        if (cached != null) {
            return cached;
        }
        LibraryMetadata meta = LibraryMetadata.of(code);
        Prototype body;
        try {
            body = LuaC.instance.compile(new ByteArrayInputStream(meta.body()), CHUNK_NAME);
        } catch (LuaError | IOException e) {
            throw new RedisException("ERR Error compiling function: " + LuaCompat.compileError(e.getMessage()));
        }
        FunctionRegistrar registrar = new FunctionRegistrar();
        ScriptRun run = new ScriptRun(server, meta.name(), inv, null, true, true, System.nanoTime() + LOAD_LIMIT_NANOS);
        String error = run.load(hook -> new LuaClosure(body, LuaSandbox.createForLoad(run, hook, registrar)).call());
        if (error != null) {
            throw new RedisException("ERR Error registering functions: " + LuaReplies.oneLine(error));
        }
        if (registrar.definitions().isEmpty()) {
            throw new RedisException("ERR No functions registered");
        }
        Library library = new Library(meta.name(), code, body, registrar.definitions());
        parsed.putIfAbsent(sha, library);
        return library;
    }

    /** FUNCTION LOAD [REPLACE]: every check before the first write. */
    public CompletableFuture<Reply> load(Invocation inv, Transaction tr, byte[] code, boolean replace) {
        return parse(inv, code).thenCompose(library -> store.code(tr, library.name()).thenCompose(oldCode -> {
            if (oldCode != null && !replace) {
                throw new RedisException("ERR Library '" + library.name() + "' already exists");
            }
            CompletableFuture<Library> old = oldCode == null ? CompletableFuture.completedFuture(null) : parse(inv, oldCode);
            return old.thenCompose(previous -> collisions(tr, library).thenApply(clash -> {
                if (clash != null) {
                    throw new RedisException("ERR Function " + clash + " already exists");
                }
                store.save(tr, library, previous);
                return Reply.bulk(library.name());
            }));
        }));
    }

    /** A function of {@code library} that another library registers, or null. */
    private CompletableFuture<String> collisions(Transaction tr, Library library) {
        List<CompletableFuture<String>> owners = new ArrayList<>();
        for (FunctionDef f : library.functions()) {
            owners.add(store.libraryOf(tr, f.name()));
        }
        return CompletableFuture.allOf(owners.toArray(new CompletableFuture[0])).thenApply(ignored -> {
            for (int i = 0; i < owners.size(); i++) {
                String owner = owners.get(i).join();
                if (owner != null && !owner.equals(library.name())) {
                    return library.functions().get(i).name();
                }
            }
            return null;
        });
    }

    /** FUNCTION DELETE. */
    public CompletableFuture<Reply> delete(Invocation inv, Transaction tr, String name) {
        return store.code(tr, name).thenCompose(code -> {
            if (code == null) {
                throw new RedisException("ERR Library not found");
            }
            return parse(inv, code).thenApply(library -> {
                store.delete(tr, library);
                return Reply.OK;
            });
        });
    }

    /** FUNCTION FLUSH. */
    public void flush(Transaction tr) {
        store.flush(tr);
    }

    /** FUNCTION DUMP: every library's code in Redis's payload. */
    public CompletableFuture<Reply> dump(Transaction tr) {
        return store.codes(tr).thenApply(codes -> Reply.bulk(io.strata.redis.rdb.FunctionsPayload.encode(codes)));
    }

    /** How FUNCTION RESTORE treats the libraries already loaded. */
    public enum RestorePolicy {
        /** Keep them; a library of the payload that exists already is an error (the default). */
        APPEND,
        /** A library of the payload replaces the one of the same name. */
        REPLACE,
        /** Delete them all first. */
        FLUSH
    }

    /**
     * FUNCTION RESTORE payload [FLUSH|APPEND|REPLACE], all or nothing, with Redis 7.0's errors:
     * every library of the payload is compiled and every conflict found before anything is
     * written.
     */
    public CompletableFuture<Reply> restore(Invocation inv, Transaction tr, List<byte[]> codes, RestorePolicy policy) {
        List<CompletableFuture<Library>> parsing = new ArrayList<>();
        for (byte[] code : codes) {
            parsing.add(parse(inv, code));
        }
        CompletableFuture<List<Library>> existing = policy == RestorePolicy.FLUSH
                ? CompletableFuture.completedFuture(List.of()) : libraries(inv, tr);
        return CompletableFuture.allOf(parsing.toArray(new CompletableFuture[0])).thenCombine(existing, (ignored, current) -> {
            // The payload among itself: as loading each into an empty set of libraries.
            java.util.Map<String, Library> restored = new java.util.LinkedHashMap<>();
            java.util.Set<String> restoredFunctions = new java.util.HashSet<>();
            for (CompletableFuture<Library> p : parsing) {
                Library l = p.join();
                if (restored.putIfAbsent(l.name(), l) != null) {
                    throw new RedisException("ERR Library '" + l.name() + "' already exists");
                }
                for (FunctionDef f : l.functions()) {
                    if (!restoredFunctions.add(f.name().toLowerCase(java.util.Locale.ROOT))) {
                        throw new RedisException("ERR Function " + f.name() + " already exists");
                    }
                }
            }
            // Then joined to what is loaded (Redis's libraryJoin).
            java.util.Map<String, Library> replaced = new java.util.HashMap<>();
            java.util.Set<String> kept = new java.util.HashSet<>();
            for (Library l : current) {
                if (restored.containsKey(l.name())) {
                    if (policy == RestorePolicy.APPEND) {
                        throw new RedisException("ERR Library " + l.name() + " already exists");
                    }
                    replaced.put(l.name(), l);
                } else {
                    for (FunctionDef f : l.functions()) {
                        kept.add(f.name().toLowerCase(java.util.Locale.ROOT));
                    }
                }
            }
            for (Library l : restored.values()) {
                for (FunctionDef f : l.functions()) {
                    if (kept.contains(f.name().toLowerCase(java.util.Locale.ROOT))) {
                        throw new RedisException("ERR Function " + f.name() + " already exists");
                    }
                }
            }
            if (policy == RestorePolicy.FLUSH) {
                store.flush(tr);
            }
            for (Library l : restored.values()) {
                store.save(tr, l, replaced.get(l.name()));
            }
            return Reply.OK;
        });
    }

    /** Every library, parsed, in name order. */
    public CompletableFuture<List<Library>> libraries(Invocation inv, Transaction tr) {
        return store.codes(tr).thenCompose(codes -> {
            List<CompletableFuture<Library>> all = new ArrayList<>();
            for (byte[] code : codes) {
                all.add(parse(inv, code));
            }
            return CompletableFuture.allOf(all.toArray(new CompletableFuture[0])).thenApply(ignored -> {
                List<Library> libraries = new ArrayList<>();
                for (CompletableFuture<Library> l : all) {
                    libraries.add(l.join());
                }
                return libraries;
            });
        });
    }

    /** FCALL/FCALL_RO name numkeys key... arg...: the function is looked up in the call's transaction. */
    public CompletableFuture<Reply> call(Invocation inv, Transaction tr, boolean readOnlyCommand) {
        String name = inv.argString(1);
        byte[][] argv = inv.args();
        Scripts.ScriptTask task = t -> store.libraryOf(t, name).thenCompose(libraryName -> {
            if (libraryName == null) {
                throw new RedisException("ERR Function not found");
            }
            return store.code(t, libraryName);
        }).thenCompose(code -> {
            if (code == null) {
                throw new RedisException("ERR Function not found");
            }
            return parse(inv, code);
        }).thenApply(library -> job(library, name, argv, readOnlyCommand));
        byte[] firstKey = argv.length > 3 && Numbers.isLong(argv[2]) && Long.parseLong(new String(argv[2])) > 0 ? argv[3] : null;
        CompletableFuture<Reply> result = scripts.run(task, inv, tr, firstKey);
        if (tr != null) {
            return result;
        }
        // Held by CLIENT PAUSE WRITE once the function turned out to be one that may write:
        // the call runs again, from the start, when the pause ends.
        return result.exceptionallyCompose(e -> {
            Throwable cause = CommandExecutor.unwrap(e);
            if (!(cause instanceof Paused)) {
                return CompletableFuture.failedFuture(cause);
            }
            server.stats().blockedClients.incrementAndGet();
            return ((Paused) cause).until.thenCompose(ignored -> {
                server.stats().blockedClients.decrementAndGet();
                return call(inv, null, readOnlyCommand);
            });
        });
    }

    /** A function that may write met CLIENT PAUSE WRITE before it ran. */
    private static final class Paused extends RuntimeException {
        final CompletableFuture<Void> until;

        Paused(CompletableFuture<Void> until) {
            super("held by CLIENT PAUSE", null, false, false);
            this.until = until;
        }
    }

    private Scripts.Job job(Library library, String name, byte[][] argv, boolean readOnlyCommand) {
        FunctionDef function = library.function(name);
        if (function == null) {
            throw new RedisException("ERR Function not found");
        }
        long numkeys;
        try {
            numkeys = Long.parseLong(new String(argv[2], java.nio.charset.StandardCharsets.US_ASCII));
        } catch (NumberFormatException e) {
            throw new RedisException("ERR Bad number of keys provided");
        }
        if (numkeys > argv.length - 3) {
            throw new RedisException("ERR Number of keys can't be greater than number of args");
        }
        if (numkeys < 0) {
            throw new RedisException("ERR Number of keys can't be negative");
        }
        if (readOnlyCommand && !function.noWrites()) {
            throw new RedisException("ERR Can not execute a script with write flag using *_ro command.");
        }
        if (!readOnlyCommand && !function.noWrites() && !function.allowOom() && server.databaseFull()) {
            throw new RedisException(CommandExecutor.OOM);
        }
        if (!readOnlyCommand && !function.noWrites() && Replicas.tooFewForWrites(server.settings())) {
            throw new RedisException(Replicas.NOREPLICAS);
        }
        CompletableFuture<Void> paused = readOnlyCommand || function.noWrites() ? null : server.pause().hold(true);
        if (paused != null) {
            throw new Paused(paused);
        }
        List<byte[]> keys = Arrays.asList(argv).subList(3, 3 + (int) numkeys);
        List<byte[]> args = Arrays.asList(argv).subList(3 + (int) numkeys, argv.length);
        return new Scripts.Job(name, true, readOnlyCommand || function.noWrites(), run -> run.execute(hook -> {
            FunctionRegistrar registrar = new FunctionRegistrar();
            LuaSandbox.CallEnvironment env = LuaSandbox.createForCall(run, hook, registrar);
            new LuaClosure(library.body(), env.globals()).call();
            env.bodyDone().run();
            LuaFunction callback = registrar.callback(name);
            return callback.call(LuaSandbox.array(keys), LuaSandbox.array(args));
        }));
    }
}
