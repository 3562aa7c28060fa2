package dev.rein.cli;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.testkit.ScriptedModel;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code rein index DIR}, then {@code rein run --docs}. */
class IndexCommandTest {
    private final InProcessCli cli = new InProcessCli();
    @TempDir
    Path docs;

    @Test
    void anIndexedFolderIsSearchedWithDocs() throws Exception {
        Files.writeString(docs.resolve("faq.md"), "# FAQ\n\n返品は到着から30日以内です。");
        ScriptedModel model = ScriptedModel.of(toolCalls(call("search_documents", "{\"query\":\"返品\"}")), text("30日以内 (faq.md#1)"));
        cli.models((name, env) -> model);
        InProcessCli.Outcome refused = cli.run("run", "--docs", "返品期限は?");
        assertThat(refused.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(refused.stderr()).contains("rein index DIR");
        // the same tool asked for by name needs the index as much, and no model is called
        InProcessCli.Outcome byName = cli.run("run", "--tools", "search_documents", "返品期限は?");
        assertThat(byName.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(byName.stderrLines()).singleElement().asString()
                .startsWith("rein run: --tools search_documents needs a document index, and there is none in ")
                .endsWith("; build it with 'rein index DIR'");
        assertThat(model.requests()).isEmpty();

        InProcessCli.Outcome index = cli.run("index", docs.toString());
        assertThat(index.exitCode()).as(index.stderr()).isZero();
        assertThat(index.stdout()).contains("indexed 1 file as 1 passage in ");
        InProcessCli.Outcome run = cli.run("run", "--docs", "返品期限は?");
        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCodes.SUCCEEDED);
        assertThat(model.requests().get(1).messages().get(2).content().toString())
                .contains("<source>faq.md#1</source>").contains("返品は到着から30日以内です。");
        assertThat(cli.run("index", docs.resolve("missing").toString()).stderr()).contains("is not a directory");
        // a folder with nothing to index says so and leaves the index as it was
        Path empty = Files.createDirectory(docs.resolve("empty"));
        InProcessCli.Outcome nothing = cli.run("index", empty.toString());
        assertThat(nothing.exitCode()).isZero();
        assertThat(nothing.stdout()).startsWith("no .txt, .md or .markdown file to index in ").contains("is unchanged");
        ScriptedModel again = ScriptedModel.of(toolCalls(call("search_documents", "{\"query\":\"返品\"}")), text("30日以内"));
        cli.models((name, env) -> again);
        assertThat(cli.run("run", "--docs", "返品期限は?").exitCode()).isEqualTo(ExitCodes.SUCCEEDED);
        assertThat(again.requests().get(1).messages().get(2).content().toString()).contains("返品は到着から30日以内です。");
    }

    @Test
    void indexingAgainRemovesTheFilesDeletedFromTheFolderAndNamesThem() throws Exception {
        Files.writeString(docs.resolve("faq.md"), "返品は到着から30日以内です。");
        Files.writeString(docs.resolve("old.md"), "Refunds take 90 days.");
        assertThat(cli.run("index", docs.toString()).stdout()).contains("indexed 2 files as 2 passages in ");
        Files.delete(docs.resolve("old.md"));
        InProcessCli.Outcome again = cli.run("index", docs.toString());
        assertThat(again.exitCode()).as(again.stderr()).isZero();
        assertThat(again.stdout()).contains("removed 1 file no longer in " + docs + " from the index: old.md")
                .contains("indexed 1 file as 1 passage in ");
        Files.delete(docs.resolve("faq.md"));
        InProcessCli.Outcome none = cli.run("index", docs.toString());
        assertThat(none.stdout()).contains("removed 1 file no longer in " + docs + " from the index: faq.md")
                .contains("no .txt, .md or .markdown file left to index in ").doesNotContain("unchanged");
    }

    /**
     * Before: a folder whose only file had become binary was indexed again with 'no .txt or .md file to index in DIR;
     * the index in ... is unchanged', though it held one (named as skipped) and the index had just lost its passages.
     */
    @Test
    void aFolderWhoseEveryFileIsSkippedSaysSoAndThatTheirEarlierPassagesAreGone() throws Exception {
        Files.writeString(docs.resolve("faq.md"), "返品は到着から30日以内です。");
        assertThat(cli.run("index", docs.toString()).stdout()).contains("indexed 1 file as 1 passage in ");
        Files.write(docs.resolve("faq.md"), new byte[] {(byte) 0xff, (byte) 0xfe, 'a', 0});
        InProcessCli.Outcome skipped = cli.run("index", docs.toString());
        assertThat(skipped.exitCode()).as(skipped.stderr()).isZero();
        assertThat(skipped.stderr()).contains("rein index: skipped faq.md (not UTF-8)");
        assertThat(skipped.stdout()).doesNotContain("unchanged").doesNotContain("no .txt, .md or .markdown file")
                .startsWith("no file in " + docs + " could be indexed (1 skipped, named above); ")
                .contains("a skipped file that an earlier indexing took passages from has lost them");
        ScriptedModel model = ScriptedModel.of(toolCalls(call("search_documents", "{\"query\":\"返品\"}")), text("none"));
        cli.models((name, env) -> model);
        InProcessCli.Outcome run = cli.run("run", "--docs", "返品期限は?");
        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCodes.SUCCEEDED);
        assertThat(model.requests().get(1).messages().get(2).content().toString()).as("as it said: the passage is gone")
                .contains("results: 0").doesNotContain("返品は到着から30日以内です。");
    }

    /**
     * Before: the help and the messages said '.txt or .md' though a .markdown file is indexed too, so a folder of them
     * seemed not to be taken. They name every kind the indexer takes, from its one list (LuceneIndexer.FILE_KINDS).
     */
    @Test
    void theHelpAndTheMessagesNameEveryKindOfFileIndexed() throws Exception {
        Path only = Files.createDirectory(docs.resolve("markdown"));
        Files.writeString(only.resolve("guide.markdown"), "返品は到着から30日以内です。");
        InProcessCli.Outcome indexed = cli.run("index", only.toString());
        assertThat(indexed.stdout()).as(indexed.stderr()).startsWith("indexed 1 file as 1 passage");
        Files.delete(only.resolve("guide.markdown"));
        assertThat(cli.run("index", only.toString()).stdout()).contains("no .txt, .md or .markdown file left to index in ");
        assertThat(cli.run("index", "--help").stdout()).contains("Index a folder of .txt, .md or .markdown files");
    }

    /** "the index ... is unchanged": an empty folder creates no index, so --docs still says to build one. */
    @Test
    void anEmptyFolderCreatesNoIndex() throws Exception {
        Path empty = Files.createDirectory(docs.resolve("empty"));
        InProcessCli.Outcome nothing = cli.run("index", empty.toString());
        assertThat(nothing.exitCode()).isZero();
        assertThat(nothing.stdout()).startsWith("no .txt, .md or .markdown file to index in ").contains("is unchanged");
        assertThat(cli.home().resolve("index")).doesNotExist();
        cli.models((name, env) -> ScriptedModel.of(text("never")));
        InProcessCli.Outcome refused = cli.run("run", "--docs", "返品期限は?");
        assertThat(refused.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(refused.stderr()).contains("rein index DIR");
    }
    /**
     * A REIN_HOME that is a file is said as every other command says it, with what to do. Before: "cannot write the
     * document index in H/index: H/index: Not a directory", the path twice and no next step.
     */
    @Test
    void aHomeThatIsAFileIsOneLineNamingItAndWhatToSet() throws Exception {
        Path file = Files.writeString(docs.resolve("home.txt"), "x");
        Files.writeString(docs.resolve("faq.md"), "返品は30日以内です。");
        InProcessCli.Outcome index = cli.env("REIN_HOME", file.toString()).run("index", docs.toString());
        assertThat(index.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(index.stderrLines()).singleElement().asString().isEqualTo("rein index: cannot open the document index in "
                + file.toAbsolutePath() + " (" + file.toAbsolutePath() + " is a file, not a directory); set REIN_HOME to the"
                + " directory of your runs");
    }
}
