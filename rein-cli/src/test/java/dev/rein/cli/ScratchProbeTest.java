package dev.rein.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import org.junit.jupiter.api.Test;

class ScratchProbeTest {
    void show(String what, InProcessCli.Outcome o) {
        System.out.println("=== " + what + " exit=" + o.exitCode() + "\nOUT: " + o.stdout() + "\nERR: " + o.stderr());
    }

    @Test
    void probe() throws Exception {
        InProcessCli cli = new InProcessCli();
        Files.createDirectories(cli.home());
        Files.writeString(cli.home().resolve("rein.db"), "this is not a database, just some text that is long enough ".repeat(20));
        show("corrupt memory list", cli.run("memory", "list"));
        show("corrupt memory forget", cli.run("memory", "forget", "mem_1"));
        show("corrupt runs", cli.run("runs"));
        cli.models((n, e) -> dev.rein.testkit.ScriptedModel.of(dev.rein.testkit.ScriptedModel.text("hi")));
        show("corrupt run --memory", cli.run("run", "--memory", "hello"));

        InProcessCli old = new InProcessCli();
        Files.createDirectories(old.home());
        try (var c = DriverManager.getConnection("jdbc:sqlite:" + old.home().resolve("rein.db"))) {
            c.createStatement().execute("CREATE TABLE rein_memory (id VARCHAR(64) PRIMARY KEY, tenant VARCHAR(200) NOT NULL, principal VARCHAR(200) NOT NULL, text TEXT NOT NULL)");
        }
        show("old schema memory list", old.run("memory", "list"));
        show("old schema memory forget", old.run("memory", "forget", "mem_1"));
        show("old schema runs", old.run("runs"));

        InProcessCli locked = new InProcessCli();
        Files.createDirectories(locked.home());
        show("fresh runs", locked.run("memory", "list"));
        try (var c = DriverManager.getConnection("jdbc:sqlite:" + locked.home().resolve("rein.db"))) {
            c.createStatement().execute("CREATE TABLE x(a)");
        }
        show("after x memory list", locked.run("memory", "list"));
        try (var c = DriverManager.getConnection("jdbc:sqlite:" + locked.home().resolve("rein.db"))) {
            c.setAutoCommit(false);
            c.createStatement().execute("PRAGMA locking_mode=EXCLUSIVE");
            c.createStatement().execute("INSERT INTO x VALUES (1)");
            long t = System.nanoTime();
            show("locked memory list", locked.run("memory", "list"));
            System.out.println("took ms " + (System.nanoTime() - t) / 1_000_000);
        }
    }
}
