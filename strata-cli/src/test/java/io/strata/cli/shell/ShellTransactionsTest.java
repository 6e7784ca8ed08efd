package io.strata.cli.shell;

import com.apple.foundationdb.Database;
import io.strata.Strata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** begin/commit/rollback/reset as fdbcli runs them, and two shells that conflict. */
class ShellTransactionsTest {
    private Database db;
    private ShellSession a;
    private ShellSession b;

    @BeforeEach
    void open() {
        db = Strata.inMemory();
        a = new ShellSession(db);
        b = new ShellSession(db);
        a.ok("writemode on");
        b.ok("writemode on");
    }

    @AfterEach
    void close() {
        a.close();
        b.close();
        db.close();
    }

    @Test
    void commitPrintsTheVersionAndOnlyThenOthersSeeTheWrites() {
        assertThat(a.ok("begin")).isEqualTo("Transaction started\n");
        assertThat(a.ok("set k v")).as("no commit inside a transaction").isEmpty();
        assertThat(a.ok("get k")).as("read your writes").isEqualTo("`k' is `v'\n");
        assertThat(b.ok("get k")).isEqualTo("`k': not found\n");
        String committed = a.ok("commit");
        assertThat(committed).matches("Committed \\(\\d+\\)\n");
        assertThat(a.shell().inTransaction()).isFalse();
        assertThat(b.ok("get k")).isEqualTo("`k' is `v'\n");
        long version = Long.parseLong(committed.replaceAll("\\D", ""));
        assertThat(Long.parseLong(b.ok("getversion").strip())).isGreaterThanOrEqualTo(version);
    }

    @Test
    void aReadOnlyTransactionHasNothingToCommit() {
        a.ok("begin");
        a.ok("get k");
        assertThat(a.ok("commit")).isEqualTo("Nothing to commit\n");
    }

    @Test
    void rollbackDiscardsTheWrites() {
        a.ok("begin");
        a.ok("set k v");
        assertThat(a.ok("rollback")).isEqualTo("Transaction rolled back\n");
        assertThat(a.ok("get k")).isEqualTo("`k': not found\n");
        assertThat(b.ok("get k")).isEqualTo("`k': not found\n");
    }

    @Test
    void resetDiscardsTheWritesAndKeepsTheTransactionOpen() {
        a.ok("begin");
        a.ok("set k v");
        assertThat(a.ok("reset")).isEqualTo("Transaction reset\n");
        assertThat(a.shell().inTransaction()).isTrue();
        assertThat(a.ok("get k")).isEqualTo("`k': not found\n");
        a.ok("set k2 v2");
        a.ok("commit");
        assertThat(b.ok("get k")).isEqualTo("`k': not found\n");
        assertThat(b.ok("get k2")).isEqualTo("`k2' is `v2'\n");
    }

    @Test
    void transactionCommandsOutOfPlaceAreRefused() {
        for (String command : new String[] {"commit", "rollback", "reset"}) {
            ShellSession.Output o = a.run(command);
            assertThat(o.err()).as(command).isEqualTo("ERROR: No active transaction\n");
            assertThat(o.failed()).isTrue();
        }
        a.ok("begin");
        assertThat(a.run("begin").err()).isEqualTo("ERROR: Already in transaction\n");
        assertThat(a.shell().inTransaction()).as("a refused begin leaves the transaction open").isTrue();
        assertThat(a.run("begin now").out()).isEqualTo("Usage: begin\n");
        assertThat(a.run("commit a b").out()).isEqualTo("Usage: commit [description]\n");
    }

    @Test
    void aConflictBetweenTwoShellsFailsTheCommitAndRollsBack() {
        a.ok("set k 0");
        a.ok("begin");
        assertThat(a.ok("get k")).isEqualTo("`k' is `0'\n");
        a.ok("set k 1");
        assertThat(b.ok("set k 2")).startsWith("Committed (");
        ShellSession.Output o = a.run("commit");
        assertThat(o.err()).isEqualTo("ERROR: Transaction not committed due to conflict with another transaction (1020)\n");
        assertThat(o.out()).isEqualTo("Rolling back current transaction\n");
        assertThat(o.failed()).isTrue();
        assertThat(a.shell().inTransaction()).isFalse();
        assertThat(a.ok("get k")).isEqualTo("`k' is `2'\n");
    }

    @Test
    void anErrorInsideATransactionRollsItBack() {
        a.ok("begin");
        a.ok("set k v");
        ShellSession.Output o = a.run("get \\xff/system");
        assertThat(o.err()).isEqualTo("ERROR: Key outside legal range (2004)\n");
        assertThat(o.out()).isEqualTo("Rolling back current transaction\n");
        assertThat(a.shell().inTransaction()).isFalse();
        assertThat(a.ok("get k")).isEqualTo("`k': not found\n");
        // A refused command (not a database error) does not end the transaction.
        a.ok("begin");
        a.run("get");
        assertThat(a.shell().inTransaction()).isTrue();
    }
}
