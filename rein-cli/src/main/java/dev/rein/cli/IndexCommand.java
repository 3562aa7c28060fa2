package dev.rein.cli;

import dev.rein.internal.text.Counts;
import dev.rein.retrieval.RetrievalException;
import dev.rein.retrieval.lucene.LuceneIndexer;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code rein index DIR}: indexes a folder of text and Markdown files for {@code rein run --docs}. */
@Command(name = "index", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
        header = "Index a folder of " + LuceneIndexer.FILE_KINDS + " files for search_documents (rein run --docs).",
        description = {"Builds or updates the Lucene index in $REIN_HOME/index (BM25; Japanese text is split into words)."
                + " Each file becomes passages of whole paragraphs, cited as PATH#N; indexing a file again replaces its"
                + " passages, and files deleted from the folder since are removed from the index. Files must be UTF-8"
                + " and at most 32 MiB; others, and files that cannot be read, are skipped and named.", ""})
final class IndexCommand implements Callable<Integer> {
    private final CliEnvironment env;

    @ExampleValue("docs/")
    @Parameters(index = "0", paramLabel = "DIR", description = "The folder to index (searched recursively).")
    Path folder;

    IndexCommand(CliEnvironment env) {
        this.env = env;
    }

    @Override
    public Integer call() {
        CliHome home = CliHome.of(env.env());
        home.requireNoFileInTheWay("the document index");
        LuceneIndexer.Report report;
        try {
            report = LuceneIndexer.indexDirectory(folder, home.index());
        } catch (RetrievalException e) {
            throw new UsageException(e.getMessage());
        }
        for (String skipped : report.skipped()) {
            env.err().println("rein index: skipped " + Text.visible(skipped));
        }
        if (!report.removed().isEmpty()) {
            env.out().println("removed " + Counts.of(report.removed().size(), "file") + " no longer in " + folder + " from the index: "
                    + Text.visible(String.join(", ", report.removed())));
        }
        if (report.files() == 0 && !report.skipped().isEmpty()) {
            // not "unchanged": a skipped file loses the passages an earlier indexing took from it (LuceneIndexer)
            env.out().println("no file in " + folder + " could be indexed (" + report.skipped().size() + " skipped, named above);"
                    + " a skipped file that an earlier indexing took passages from has lost them, so it is not cited for text"
                    + " it may no longer hold");
            return 0;
        }
        if (report.files() == 0 && report.removed().isEmpty()) {
            env.out().println("no " + LuceneIndexer.FILE_KINDS + " file to index in " + folder + "; the index in " + home.index() + " is unchanged");
            return 0;
        }
        if (report.files() == 0) {
            env.out().println("no " + LuceneIndexer.FILE_KINDS + " file left to index in " + folder);
            return 0;
        }
        env.out().println("indexed " + Counts.of(report.files(), "file") + " as " + Counts.of(report.passages(), "passage") + " in " + home.index());
        return 0;
    }
}
