package io.strata.redis.scripting;

import org.luaj.vm2.LuaClosure;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaFunction;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.DebugLib;

/**
 * luaj calls its debug library on every Lua call, return and instruction; this one uses
 * that to do two things Redis's Lua hooks do, and nothing else (scripts get no {@code debug}
 * table, as in Redis 7.0). It stops a killed script: every {@value #CHECK_EVERY} instructions
 * it asks whether SCRIPT KILL marked the run, and once it has, at every instruction, so a
 * {@code pcall} cannot swallow the kill. And it remembers the last Lua instruction executed,
 * so an error can name its line ({@code on @user_script:3.}) even when it was raised in a
 * tail call, whose frame luaj has already left.
 *
 * <p>Confined to the script's thread (one hook per run), except {@link ScriptRun#killed()},
 * which is volatile.
 */
final class ScriptHook extends DebugLib {
    /** Instructions between two looks at the kill flag: a volatile read per thousand is free. */
    static final int CHECK_EVERY = 1000;

    private final ScriptRun run;
    private LuaFunction[] frames = new LuaFunction[32];
    private int depth;
    private int countdown = CHECK_EVERY;
    private LuaClosure lastClosure;
    private int lastPc;

    ScriptHook(ScriptRun run) {
        this.run = run;
    }

    @Override
    public void onCall(LuaFunction f) {
        push(f);
    }

    @Override
    public void onCall(LuaClosure c, Varargs varargs, LuaValue[] stack) {
        push(c);
    }

    @Override
    public void onReturn() {
        if (depth > 0) {
            frames[--depth] = null;
        }
    }

    @Override
    public void onInstruction(int pc, Varargs v, int top) {
        if (depth > 0 && frames[depth - 1] instanceof LuaClosure c) {
            lastClosure = c;
            lastPc = pc;
        }
        if (--countdown <= 0) {
            countdown = CHECK_EVERY;
            if (run.killed()) {
                countdown = 1;
                throw new LuaError(LuaReplies.errorTable(run.killMessage()));
            }
        }
    }

    private void push(LuaFunction f) {
        if (depth == frames.length) {
            frames = java.util.Arrays.copyOf(frames, depth * 2);
        }
        frames[depth++] = f;
    }

    /**
     * How Lua would name what the last instruction called ({@code call}) or indexed, e.g.
     * {@code field 'register_function'}; null when it would not ({@link LuaNames}).
     */
    String nameOfFailedOperand(boolean call) {
        if (lastClosure == null) {
            return null;
        }
        int reg = LuaNames.operand(lastClosure.p, lastPc, call);
        return reg < 0 ? null : LuaNames.describe(lastClosure.p, lastPc, reg);
    }

    /** {@code @user_script:3}: where the last instruction ran, or null before any ran. */
    String location() {
        if (lastClosure == null) {
            return null;
        }
        int[] lines = lastClosure.p.lineinfo;
        String source = lastClosure.p.source == null ? "?" : lastClosure.p.source.tojstring();
        int line = lines != null && lastPc >= 0 && lastPc < lines.length ? lines[lastPc] : -1;
        return source + ":" + line;
    }
}
