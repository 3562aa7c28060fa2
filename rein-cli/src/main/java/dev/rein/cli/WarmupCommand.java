package dev.rein.cli;

import dev.rein.agent.Agent;
import dev.rein.anthropic.AnthropicModel;
import dev.rein.store.jdbc.JdbcRunStore;
import dev.rein.testkit.FakeMessagesServer;
import dev.rein.testkit.FakeReply;
import dev.rein.tool.builtin.BuiltinTools;
import dev.rein.trace.JsonlTraceListener;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;

/**
 * {@code rein __warmup} (hidden): exercises the code paths of a real run — the demo, then one
 * streamed Anthropic call with a tool round trip against an in-process fake server, the SQLite
 * store and a trace file — so that the launcher's class data sharing archive, trained on this
 * command, covers them. A run's first model call then does not spend its deadline loading classes.
 */
@Command(name = "__warmup", hidden = true, description = "Trains the launcher's class data sharing archive.")
final class WarmupCommand implements Callable<Integer> {
    private final CliEnvironment env;

    WarmupCommand(CliEnvironment env) {
        this.env = env;
    }

    @Override
    public Integer call() throws IOException {
        Path scratch = Files.createTempDirectory("rein-warmup-");
        PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream(), true, java.nio.charset.StandardCharsets.UTF_8);
        CliEnvironment quiet = new CliEnvironment(nowhere, nowhere, env.env(), Terminal.NONE, env.models(), false);
        try {
            Rein.execute(new String[] {"demo", "--trace", scratch.resolve("demo.jsonl").toString()}, quiet);
            try (FakeMessagesServer server = FakeMessagesServer.start();
                 AnthropicModel model = AnthropicModel.builder().apiKey("warmup").baseUrl(server.baseUrl()).build();
                 JdbcRunStore store = JdbcRunStore.sqlite(scratch);
                 StatusLine line = new StatusLine(nowhere, false)) {
                server.enqueue(FakeReply.toolUse("toolu_warmup", BuiltinTools.CALCULATE, "{\"expression\":\"6 * 7\"}"),
                        FakeReply.text("42"));
                Agent.builder().model(model).tools(BuiltinTools.all()).store(store)
                        .listener(id -> new LiveView(line))
                        .listener(JsonlTraceListener.to(scratch.resolve("run.jsonl")))
                        .build()
                        .run("warm up");
            }
            return ExitCodes.SUCCEEDED;
        } finally {
            try (Stream<Path> files = Files.walk(scratch)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
