package dev.rein.retrieval.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.retrieval.RetrievedDocument;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The folder indexer at its edges: files deleted or moved between indexings, several folders in one index. */
class IndexerEdgesTest {
    @TempDir
    Path docs;
    @TempDir
    Path other;
    @TempDir
    Path index;

    @Test
    void aFileDeletedFromTheFolderIsNoLongerFoundAfterReindexing() throws Exception {
        Files.writeString(docs.resolve("old-policy.md"), "Refunds take 90 days.", StandardCharsets.UTF_8);
        Files.writeString(docs.resolve("policy.md"), "返品は30日以内です。", StandardCharsets.UTF_8);
        LuceneIndexer.indexDirectory(docs, index);
        assertThat(LuceneRetriever.open(index).search("refunds", 5)).extracting(RetrievedDocument::source)
                .containsExactly("old-policy.md#1");

        Files.delete(docs.resolve("old-policy.md"));
        LuceneIndexer.Report report = LuceneIndexer.indexDirectory(docs, index);

        assertThat(report.files()).isEqualTo(1);
        assertThat(report.removed()).containsExactly("old-policy.md");
        assertThat(LuceneRetriever.open(index).search("refunds", 5)).isEmpty();
        assertThat(LuceneRetriever.open(index).search("返品", 5)).extracting(RetrievedDocument::source).containsExactly("policy.md#1");
    }

    @Test
    void reindexingOneFolderKeepsAnotherFoldersPassages() throws Exception {
        Files.writeString(docs.resolve("returns.md"), "Returns within 30 days.", StandardCharsets.UTF_8);
        Files.writeString(other.resolve("shipping.md"), "Shipping takes two days.", StandardCharsets.UTF_8);
        LuceneIndexer.indexDirectory(docs, index);
        LuceneIndexer.indexDirectory(other, index);
        LuceneIndexer.indexDirectory(docs, index);
        assertThat(LuceneRetriever.open(index).search("shipping", 5)).extracting(RetrievedDocument::source)
                .containsExactly("shipping.md#1");
        assertThat(LuceneRetriever.open(index).search("returns", 5)).extracting(RetrievedDocument::source)
                .containsExactly("returns.md#1");
    }

    @Test
    void aFolderWhoseFilesWereAllDeletedLeavesNothingOfThemInTheIndex() throws Exception {
        Files.writeString(docs.resolve("gone.txt"), "Personal data of a customer.", StandardCharsets.UTF_8);
        LuceneIndexer.indexDirectory(docs, index);
        Files.delete(docs.resolve("gone.txt"));
        LuceneIndexer.Report report = LuceneIndexer.indexDirectory(docs, index);
        assertThat(report.files()).isZero();
        assertThat(report.removed()).containsExactly("gone.txt");
        assertThat(LuceneRetriever.open(index).search("customer", 5)).isEmpty();
    }
}
