package io.strata.redis.scripting;

import org.luaj.vm2.Lua;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Prototype;

/**
 * Names the value a failing instruction used, as Lua's {@code getobjname} (ldebug.c) does for
 * its error messages — {@code field 'x'}, {@code global 'x'}, {@code local 'x'},
 * {@code method 'x'}, {@code upvalue 'x'} — so that {@code attempt to call field
 * 'register_function' (a nil value)} reads as in Redis's Lua, where luaj says only
 * {@code attempt to call nil}. Works on the function's bytecode (Lua 5.2's, which luaj runs):
 * the last instruction before the failing one that set the register says where the value came
 * from. Stateless.
 */
final class LuaNames {
    private LuaNames() {
    }

    /**
     * The register the instruction at {@code pc} failed on — the function of a call, the
     * table of an index — or -1 when it is neither.
     */
    static int operand(Prototype p, int pc, boolean call) {
        if (pc < 0 || pc >= p.code.length) {
            return -1;
        }
        int i = p.code[pc];
        int op = Lua.GET_OPCODE(i);
        if (call) {
            return op == Lua.OP_CALL || op == Lua.OP_TAILCALL ? Lua.GETARG_A(i) : -1;
        }
        if (op == Lua.OP_GETTABLE || op == Lua.OP_SELF) {
            return Lua.GETARG_B(i);
        }
        return op == Lua.OP_SETTABLE ? Lua.GETARG_A(i) : -1;
    }

    /** {@code kind 'name'} for register {@code reg} at {@code lastPc}, or null when Lua would not name it. */
    static String describe(Prototype p, int lastPc, int reg) {
        String[] name = new String[1];
        String kind = objectName(p, lastPc, reg, name);
        return kind == null || name[0] == null ? null : kind + " '" + name[0] + "'";
    }

    private static String objectName(Prototype p, int lastPc, int reg, String[] name) {
        LuaString local = p.getlocalname(reg + 1, lastPc);
        if (local != null) {
            name[0] = local.tojstring();
            return "local";
        }
        int pc = findSetReg(p, lastPc, reg);
        if (pc == -1) {
            return null;
        }
        int i = p.code[pc];
        int op = Lua.GET_OPCODE(i);
        if (op == Lua.OP_MOVE) {
            int b = Lua.GETARG_B(i);
            return b < Lua.GETARG_A(i) ? objectName(p, pc, b, name) : null;
        }
        if (op == Lua.OP_GETTABUP || op == Lua.OP_GETTABLE) {
            int t = Lua.GETARG_B(i);
            String table = op == Lua.OP_GETTABLE ? localName(p, t + 1, pc) : upvalueName(p, t);
            constantName(p, pc, Lua.GETARG_C(i), name);
            return "_ENV".equals(table) ? "global" : "field";
        }
        if (op == Lua.OP_GETUPVAL) {
            name[0] = upvalueName(p, Lua.GETARG_B(i));
            return "upvalue";
        }
        if (op == Lua.OP_LOADK) {
            LuaValue k = p.k[Lua.GETARG_Bx(i)];
            if (k.type() == LuaValue.TSTRING) {
                name[0] = k.tojstring();
                return "constant";
            }
            return null;
        }
        if (op == Lua.OP_SELF) {
            constantName(p, pc, Lua.GETARG_C(i), name);
            return "method";
        }
        return null;
    }

    /** Lua's {@code kname}: a string constant's text, a register holding one, else "?". */
    private static void constantName(Prototype p, int pc, int c, String[] name) {
        if (Lua.ISK(c)) {
            LuaValue k = p.k[Lua.INDEXK(c)];
            name[0] = k.type() == LuaValue.TSTRING ? k.tojstring() : "?";
            return;
        }
        String[] inner = new String[1];
        String kind = objectName(p, pc, c, inner);
        name[0] = "constant".equals(kind) ? inner[0] : "?";
    }

    /** Lua 5.2's {@code findsetreg}: the last instruction before {@code lastPc} that set {@code reg}, or -1 (also when a jump may bypass it). */
    private static int findSetReg(Prototype p, int lastPc, int reg) {
        int setReg = -1;
        int jumpTarget = 0;
        for (int pc = 0; pc < lastPc && pc < p.code.length; pc++) {
            int i = p.code[pc];
            int op = Lua.GET_OPCODE(i);
            int a = Lua.GETARG_A(i);
            boolean sets;
            if (op == Lua.OP_LOADNIL) {
                sets = a <= reg && reg <= a + Lua.GETARG_B(i);
            } else if (op == Lua.OP_TFORCALL) {
                sets = reg >= a + 2;
            } else if (op == Lua.OP_CALL || op == Lua.OP_TAILCALL) {
                sets = reg >= a;
            } else if (op == Lua.OP_JMP) {
                int dest = pc + 1 + Lua.GETARG_sBx(i);
                if (pc < dest && dest <= lastPc && dest > jumpTarget) {
                    jumpTarget = dest;
                }
                sets = false;
            } else if (op == Lua.OP_TEST) {
                sets = reg == a;
            } else {
                sets = Lua.testAMode(op) && reg == a;
            }
            if (sets) {
                setReg = pc < jumpTarget ? -1 : pc;
            }
        }
        return setReg;
    }

    private static String localName(Prototype p, int number, int pc) {
        LuaString n = p.getlocalname(number, pc);
        return n == null ? null : n.tojstring();
    }

    private static String upvalueName(Prototype p, int index) {
        if (p.upvalues == null || index < 0 || index >= p.upvalues.length || p.upvalues[index].name == null) {
            return "?";
        }
        return p.upvalues[index].name.tojstring();
    }
}
