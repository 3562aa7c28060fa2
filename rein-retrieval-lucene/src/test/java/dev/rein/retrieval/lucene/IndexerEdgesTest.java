package dev.rein.retrieval.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.rein.retrieval.RetrievalException;
import dev.rein.retrieval.RetrievedDocument;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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

    /** The start of each file Lucene writes (CodecUtil.CODEC_MAGIC) and a few bytes: a leftover of an indexing cut short. */
    private static final byte[] LUCENES_HEADER = {0x3f, (byte) 0xd7, 0x6c, 0x17, 1, 2, 3};

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

    /** Probe: mixed-script passages rank by the query's words, full-width Latin and digits found as typed half-width (NFKC). */
    @Test
    void mixedScriptPassagesRankByTheQuerysWordsInAnyWidth() throws Exception {
        Files.writeString(docs.resolve("iphone.md"), "ｉＰｈｏｎｅ１５の返品は３０日以内です。", StandardCharsets.UTF_8);
        Files.writeString(docs.resolve("android.md"), "Android端末の修理は店舗で受け付けます。", StandardCharsets.UTF_8);
        Files.writeString(docs.resolve("returns.md"), "返品の送料はお客様負担です。", StandardCharsets.UTF_8);
        LuceneIndexer.indexDirectory(docs, index);
        assertThat(LuceneRetriever.open(index).search("iPhone 返品", 3)).first().extracting(RetrievedDocument::source)
                .isEqualTo("iphone.md#1");
        assertThat(LuceneRetriever.open(index).search("android 修理", 3)).first().extracting(RetrievedDocument::source)
                .isEqualTo("android.md#1");
        assertThat(LuceneRetriever.open(index).search("送料", 3)).extracting(RetrievedDocument::source).containsExactly("returns.md#1");
    }

    /**
     * Before: Lucene only marks a deleted passage as deleted; its text stayed in the index's files (stored fields and
     * terms) until some later merge, so a document deleted or edited for what it said (personal data) was still
     * readable in .rein/index after indexing again.
     */
    @Test
    void theTextOfADeletedOrEditedFileIsGoneFromTheIndexFilesAfterIndexingAgain() throws Exception {
        String gone = "deletedsecret" + java.util.UUID.randomUUID().toString().replace("-", "");
        String edited = "editedsecret" + java.util.UUID.randomUUID().toString().replace("-", "");
        Files.writeString(docs.resolve("customer.md"), "山田太郎様の電話番号 " + gone, StandardCharsets.UTF_8);
        Files.writeString(docs.resolve("notes.md"), "担当者メモ " + edited + "\n\n返品は30日以内です。", StandardCharsets.UTF_8);
        for (int i = 0; i < 30; i++) { // other passages, so that the deletions are a small part of the index
            Files.writeString(docs.resolve("faq" + i + ".md"), "よくある質問 " + i + " 配送について。", StandardCharsets.UTF_8);
        }
        LuceneIndexer.indexDirectory(docs, index);
        assertThat(storedAnywhere(gone)).isTrue();

        Files.delete(docs.resolve("customer.md"));
        Files.writeString(docs.resolve("notes.md"), "返品は30日以内です。", StandardCharsets.UTF_8);
        LuceneIndexer.indexDirectory(docs, index);

        assertThat(storedAnywhere(gone)).as("the deleted file's text among the index's passages, deleted ones too").isFalse();
        assertThat(indexFilesHold(gone)).as("the deleted file's text in the index files").isFalse();
        assertThat(storedAnywhere(edited)).as("the edited-out text among the index's passages, deleted ones too").isFalse();
        assertThat(indexFilesHold(edited)).as("the edited-out text in the index files").isFalse();
        try (var reader = org.apache.lucene.index.DirectoryReader.open(org.apache.lucene.store.FSDirectory.open(index))) {
            assertThat(reader.numDeletedDocs()).isZero();
        }
        assertThat(LuceneRetriever.open(index).search("返品", 5)).extracting(RetrievedDocument::source).containsExactly("notes.md#1");
    }

    /**
     * Before: with two folders in one index, once Lucene had merged their passages into one segment (as it does after
     * some indexings), indexing one folder again marked its old passages deleted in that segment and left their text
     * in the index's files.
     */
    @Test
    void theTextOfADeletedFileIsGoneFromTheIndexFilesAlsoWhenAnotherFoldersPassagesShareItsSegment() throws Exception {
        String gone = "deletedsecret" + java.util.UUID.randomUUID().toString().replace("-", "");
        Files.writeString(docs.resolve("customer.md"), "山田太郎様の電話番号 " + gone, StandardCharsets.UTF_8);
        Files.writeString(docs.resolve("policy.md"), "返品は30日以内です。", StandardCharsets.UTF_8);
        for (int i = 0; i < 30; i++) {
            Files.writeString(other.resolve("faq" + i + ".md"), "よくある質問 " + i + " 配送について。", StandardCharsets.UTF_8);
        }
        LuceneIndexer.indexDirectory(docs, index);
        LuceneIndexer.indexDirectory(other, index);
        try (var writer = LuceneRetriever.writer(index)) {
            writer.forceMerge(1); // what Lucene's merge policy does by itself after enough indexings
        }
        assertThat(storedAnywhere(gone)).isTrue();

        Files.delete(docs.resolve("customer.md"));
        LuceneIndexer.indexDirectory(docs, index);

        assertThat(storedAnywhere(gone)).as("the deleted file's text among the index's passages, deleted ones too").isFalse();
        assertThat(indexFilesHold(gone)).as("the deleted file's text in the index files").isFalse();
        assertThat(LuceneRetriever.open(index).search("配送", 50)).hasSize(30);
        assertThat(LuceneRetriever.open(index).search("返品", 5)).extracting(RetrievedDocument::source).containsExactly("policy.md#1");
    }

    /** Whether a passage holding {@code text} is stored in the index, one marked deleted included (Lucene keeps it until a merge). */
    private boolean storedAnywhere(String text) throws java.io.IOException {
        try (var dir = org.apache.lucene.store.FSDirectory.open(index);
             var reader = org.apache.lucene.index.DirectoryReader.open(dir)) {
            for (var leaf : reader.leaves()) {
                var stored = leaf.reader().storedFields();
                for (int doc = 0; doc < leaf.reader().maxDoc(); doc++) {
                    if (stored.document(doc).get(LuceneRetriever.TEXT).contains(text)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private boolean indexFilesHold(String text) throws java.io.IOException {
        byte[] needle = text.getBytes(StandardCharsets.UTF_8);
        try (var files = Files.list(index)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                byte[] bytes = Files.readAllBytes(f);
                outer:
                for (int i = 0; i + needle.length <= bytes.length; i++) {
                    for (int j = 0; j < needle.length; j++) {
                        if (bytes[i + j] != needle[j]) {
                            continue outer;
                        }
                    }
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Before: a file saved with a UTF-8 byte order mark (Windows Notepad, Excel's "UTF-8 CSV" habit) had U+FEFF kept at the
     * start of its first passage, so the passage the model read and cited began with an invisible character.
     */
    @Test
    void aByteOrderMarkAtTheStartOfAFileIsNotPartOfItsFirstPassage() throws Exception {
        Files.write(docs.resolve("returns.md"), ("\uFEFF返品は30日以内です。\n\nReturns within 30 days.").getBytes(StandardCharsets.UTF_8));
        Files.write(docs.resolve("only-a-mark.md"), "\uFEFF".getBytes(StandardCharsets.UTF_8));
        LuceneIndexer.Report report = LuceneIndexer.indexDirectory(docs, index);
        assertThat(report.passages()).as("a file holding only the mark has no passage").isEqualTo(1);
        assertThat(LuceneRetriever.open(index).search("返品", 5)).singleElement().satisfies(d -> {
            assertThat(d.source()).isEqualTo("returns.md#1");
            assertThat(d.text()).isEqualTo("返品は30日以内です。\n\nReturns within 30 days.");
        });
    }

    /**
     * Before: only CRLF and LF ended a line, so a file saved with classic Mac line endings (a lone CR) was one paragraph,
     * cut between characters at 1,200 rather than split into its paragraphs.
     */
    @Test
    void everyKindOfLineEndingSplitsParagraphs() {
        for (String nl : new String[] {"\n", "\r\n", "\r", "\u0085", "\u2028"}) {
            assertThat(LuceneIndexer.passages("返品は30日以内です。" + nl + "Returns within 30 days." + nl + nl + "x".repeat(1_190)))
                    .as("line ending U+%04X", (int) nl.charAt(0))
                    .containsExactly("返品は30日以内です。\nReturns within 30 days.", "x".repeat(1_190));
        }
        assertThat(LuceneIndexer.passages("one\u2029" + "y".repeat(1_199))).as("a paragraph separator ends a paragraph")
                .containsExactly("one", "y".repeat(1_199));
    }

    /**
     * Before: a line holding only spaces that regex's \\s does not know (the ideographic space U+3000 Japanese text indents
     * with, a no-break space) did not end a paragraph, though it reads as a blank line.
     */
    @Test
    void aLineOfOnlyIdeographicOrNoBreakSpacesEndsAParagraph() {
        for (String blank : new String[] {"\u3000", " \u3000\t", "\u00a0"}) {
            assertThat(LuceneIndexer.passages("返品は30日以内です。\n" + blank + "\n" + "x".repeat(1_190)))
                    .as("blank line U+%04X", (int) blank.charAt(0)).containsExactly("返品は30日以内です。", "x".repeat(1_190));
        }
        assertThat(LuceneIndexer.passages("\u3000返品は30日以内です。\n\u3000送料は無料です。")).as("an indented line is no blank line")
                .containsExactly("返品は30日以内です。\n\u3000送料は無料です。");
    }

    /** Before: the index folder the writer was opened on was never closed (IndexWriter.close leaves its Directory open). */
    @Test
    void theWritersFolderIsClosedWithTheWriter() throws Exception {
        org.apache.lucene.store.Directory folder;
        try (var writer = LuceneRetriever.writer(index)) {
            folder = writer.getDirectory();
            assertThat(folder.listAll()).isNotNull();
        }
        assertThatThrownBy(folder::listAll).isInstanceOf(org.apache.lucene.store.AlreadyClosedException.class);
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
    void twoFoldersWithAFileOfTheSameNameKeepEachOthersPassages() throws Exception {
        Files.writeString(docs.resolve("README.md"), "Returns within 30 days.", StandardCharsets.UTF_8);
        Files.writeString(other.resolve("README.md"), "配送は二日かかります。", StandardCharsets.UTF_8);
        LuceneIndexer.indexDirectory(docs, index);
        LuceneIndexer.indexDirectory(other, index);
        assertThat(LuceneRetriever.open(index).search("returns", 5)).as("the first folder's README is still indexed")
                .extracting(RetrievedDocument::text).containsExactly("Returns within 30 days.");
        assertThat(LuceneRetriever.open(index).search("配送", 5)).extracting(RetrievedDocument::text)
                .containsExactly("配送は二日かかります。");
    }

    @Test
    void aLongParagraphIsCutBetweenCharactersNeverInsideOne() throws Exception {
        // a paragraph longer than a passage, with a character outside the BMP (two UTF-16 units) at the cut
        String paragraph = "あ".repeat(LuceneIndexer.MAX_PASSAGE_CHARS - 1) + "😀𠮷野家の牛丼" + "い".repeat(100);
        Files.writeString(docs.resolve("long.md"), paragraph, StandardCharsets.UTF_8);
        LuceneIndexer.indexDirectory(docs, index);
        assertThat(String.join("", LuceneIndexer.passages(paragraph))).isEqualTo(paragraph);
        assertThat(LuceneIndexer.passages(paragraph)).allSatisfy(p -> assertThat(Character.isHighSurrogate(p.charAt(p.length() - 1))
                || Character.isLowSurrogate(p.charAt(0))).as("a passage begins or ends inside a character").isFalse());
        assertThat(LuceneRetriever.open(index).search("牛丼", 5)).singleElement()
                .satisfies(hit -> assertThat(hit.text()).as("Japanese text and emoji pass intact").startsWith("𠮷野家の牛丼")
                        .doesNotContain("\uFFFD"));
    }

    /**
     * docs/memory.md: passages of at most 1,200 characters. Before, the limit counted UTF-16 units, so text
     * of characters outside the BMP (emoji, kanji such as 𠮷) was cut at 600 characters and paragraphs that
     * fit together were kept apart.
     */
    @Test
    void thePassageLimitCountsCharactersNotUtf16Units() {
        String emoji = "😀".repeat(LuceneIndexer.MAX_PASSAGE_CHARS);
        assertThat(LuceneIndexer.passages(emoji)).as("1,200 characters are one passage").containsExactly(emoji);
        String longer = "𠮷".repeat(LuceneIndexer.MAX_PASSAGE_CHARS) + "野家";
        assertThat(LuceneIndexer.passages(longer)).containsExactly("𠮷".repeat(LuceneIndexer.MAX_PASSAGE_CHARS), "野家");
        String half = "🍣".repeat(500);
        assertThat(LuceneIndexer.passages(half + "\n\n" + half)).as("two paragraphs of 500 characters share a passage")
                .containsExactly(half + "\n\n" + half);
        assertThat(LuceneIndexer.passages("あ".repeat(1_199) + "😀𠮷")).as("a cut never falls inside a character")
                .containsExactly("あ".repeat(1_199) + "😀", "𠮷");
    }

    @Test
    void anIndexPathThatIsAFileIsNamedWithWhatToDo() throws Exception {
        Files.writeString(docs.resolve("policy.md"), "返品は30日以内です。", StandardCharsets.UTF_8);
        Path file = index.resolve("index");
        Files.writeString(file, "not a folder");
        // Before: "cannot write the document index in .../index: .../index" (the exception's message was the path)
        assertThatThrownBy(() -> LuceneIndexer.indexDirectory(docs, file)).isInstanceOf(RetrievalException.class)
                .hasMessageContaining(file + " is a file, not a folder").hasMessageContaining("move it aside");
        assertThat(Files.readString(file)).isEqualTo("not a folder");
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

    @Test
    void aHugeFileIsSkippedAndNamedAndTheRestIsIndexed() throws Exception {
        writeFaq();
        try (RandomAccessFile huge = new RandomAccessFile(docs.resolve("dump.txt").toFile(), "rw")) {
            huge.setLength(3L << 30); // sparse: 3 GiB that take no disk space
        }
        LuceneIndexer.Report report = LuceneIndexer.indexDirectory(docs, index);
        assertThat(report.files()).isEqualTo(1);
        assertThat(report.skipped()).singleElement().asString().startsWith("dump.txt (too large: ");
        assertThat(LuceneRetriever.open(index).search("returns", 5)).extracting(RetrievedDocument::source).containsExactly("faq.md#1");
    }

    /**
     * Before: a folder linked into the indexed folder (docs/shared -> ../shared-docs) was passed over without a
     * word, so its files were never found and the report did not say why; a link to a file that does not exist
     * was passed over silently too, and a folder that could not be read made the whole indexing fail with an
     * UncheckedIOException ('rein index: internal error').
     */
    @Test
    void aLinkedFolderIsIndexedALinkLoopIsNamedNotFollowedAndADanglingLinkIsNamed() throws Exception {
        writeFaq();
        Files.writeString(other.resolve("warranty.md"), "保証は一年間です。", StandardCharsets.UTF_8);
        Files.createSymbolicLink(docs.resolve("shared"), other);
        Files.createDirectories(docs.resolve("sub"));
        Files.createSymbolicLink(docs.resolve("sub/loop"), docs);
        Files.createSymbolicLink(docs.resolve("gone.md"), docs.resolve("nowhere.md"));

        LuceneIndexer.Report report = LuceneIndexer.indexDirectory(docs, index);

        assertThat(report.files()).isEqualTo(2);
        assertThat(LuceneRetriever.open(index).search("保証", 5)).extracting(RetrievedDocument::source).containsExactly("shared/warranty.md#1");
        assertThat(report.skipped()).containsExactly(
                "gone.md (a link to nothing: " + docs.resolve("nowhere.md") + " does not exist)",
                "sub/loop (a link to a folder it is in: not followed)");
        assertThat(LuceneRetriever.open(index).search("returns", 5)).extracting(RetrievedDocument::source).containsExactly("faq.md#1");
    }

    /**
     * Before: indexing while another indexing wrote the same index (two 'rein index' at once) failed with Lucene's
     * words alone ('cannot write the document index in X: Lock held by this virtual machine: X/write.lock'),
     * which said neither what held it nor what to do.
     */
    @Test
    void indexingWhileAnotherIndexingWritesSaysSoAndWhatToDo() throws Exception {
        indexFaq(index);
        try (var other = LuceneRetriever.writer(index)) {
            assertThatThrownBy(() -> LuceneIndexer.indexDirectory(docs, index)).isInstanceOf(RetrievalException.class)
                    .hasMessageStartingWith("the document index in " + index + " is being written by another indexing")
                    .hasMessageContaining("write.lock")
                    .hasMessageContaining("try again when it is done");
        }
        assertThat(LuceneIndexer.indexDirectory(docs, index).files()).as("indexed once the other is done").isEqualTo(1);
    }

    /**
     * Before: an indexing whose thread was interrupted (an application cancelling it, a server shutting down) failed with
     * "cannot write the document index in DIR: null", the message of Java's ClosedByInterruptException. It now says the
     * indexing was interrupted, that the index is as the last indexing left it, and to index again; the thread stays
     * interrupted, and nothing of the cut-short indexing is committed.
     */
    @Test
    void anInterruptedIndexingSaysSoAndLeavesTheIndexAsItWas() throws Exception {
        indexFaq(index);
        Files.delete(docs.resolve("faq.md"));
        Files.writeString(docs.resolve("shipping.md"), "Shipping is free.", StandardCharsets.UTF_8);
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> LuceneIndexer.indexDirectory(docs, index)).isInstanceOf(RetrievalException.class)
                    .hasMessage("cannot write the document index in " + index + ": the indexing was interrupted (its thread's"
                            + " interrupt: the work was cancelled) before it was done, so nothing of it was written and the index"
                            + " is as the last indexing left it; index the folder again");
            assertThat(Thread.currentThread().isInterrupted()).as("the interrupt is kept for the caller").isTrue();
        } finally {
            Thread.interrupted();
        }
        LuceneRetriever retriever = LuceneRetriever.open(index);
        assertThat(retriever.search("returns", 5)).extracting(RetrievedDocument::source).containsExactly("faq.md#1");
        assertThat(retriever.search("shipping", 5)).isEmpty();
        LuceneIndexer.indexDirectory(docs, index);
        assertThat(LuceneRetriever.open(index).search("shipping", 5)).extracting(RetrievedDocument::source).containsExactly("shipping.md#1");
    }

    /**
     * Before: a search whose thread was interrupted (a tool call cancelled at its timeout) failed with "cannot search the
     * document index in DIR: null" (Java's ClosedByInterruptException). It now says the search was interrupted; the
     * thread stays interrupted, and the next search finds as before.
     */
    @Test
    void anInterruptedSearchSaysSo() throws Exception {
        indexFaq(index);
        LuceneRetriever retriever = LuceneRetriever.open(index);
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> retriever.search("returns", 5)).isInstanceOf(RetrievalException.class)
                    .hasMessage("cannot search the document index in " + index + ": the search was interrupted (its thread's"
                            + " interrupt: the work was cancelled) before it was done; search again");
            assertThat(Thread.currentThread().isInterrupted()).as("the interrupt is kept for the caller").isTrue();
        } finally {
            Thread.interrupted();
        }
        assertThat(retriever.search("returns", 5)).extracting(RetrievedDocument::source).containsExactly("faq.md#1");
    }

    /**
     * Before: a file whose name holds a backslash (which Linux and macOS allow; an archive made on Windows unpacks so)
     * was cited with a slash there, so 'a\\b.md' and the file b.md in folder a were one path: indexing the second deleted
     * the first's passages, though the report counted both. A backslash in a name now stays one, and each is found.
     */
    @Test
    void aFileWhoseNameHoldsABackslashIsNotTakenForTheFileInASubfolder() throws Exception {
        assumeTrue(java.io.File.separatorChar == '/', "a file name can hold a backslash on this system");
        Files.writeString(docs.resolve("a\\b.md"), "Refunds within 30 days.", StandardCharsets.UTF_8);
        Files.createDirectories(docs.resolve("a"));
        Files.writeString(docs.resolve("a").resolve("b.md"), "Shipping is free.", StandardCharsets.UTF_8);
        assertThat(LuceneIndexer.indexDirectory(docs, index).files()).isEqualTo(2);
        LuceneRetriever retriever = LuceneRetriever.open(index);
        assertThat(retriever.search("refunds", 5)).extracting(RetrievedDocument::source).containsExactly("a\\b.md#1");
        assertThat(retriever.search("shipping", 5)).extracting(RetrievedDocument::source).containsExactly("a/b.md#1");
        assertThat(LuceneIndexer.indexDirectory(docs, index).removed()).as("indexed again, nothing is taken for removed").isEmpty();
        assertThat(retriever.search("refunds", 5)).hasSize(1);
    }

    @Test
    void aFileThatCannotBeReadIsSkippedAndNamedAndTheRestIsIndexed() throws Exception {
        Path unreadable = Path.of("/proc/self/mem"); // a regular file whose first bytes cannot be read (EIO)
        assumeTrue(Files.isRegularFile(unreadable), "needs Linux's /proc/self/mem");
        writeFaq();
        Files.createSymbolicLink(docs.resolve("broken.txt"), unreadable);
        LuceneIndexer.Report report = LuceneIndexer.indexDirectory(docs, index);
        assertThat(report.files()).isEqualTo(1);
        // Before: "broken.txt (cannot read: java.io.IOException: Input/output error)", Java's class name in what 'rein index' prints
        assertThat(report.skipped()).singleElement().asString().isEqualTo("broken.txt (cannot read: Input/output error)");
        assertThat(LuceneRetriever.open(index).search("returns", 5)).extracting(RetrievedDocument::source).containsExactly("faq.md#1");
    }

    @Test
    void aBinaryOrUtf16FileIsSkippedAsNotUtf8Text() throws Exception {
        writeFaq();
        // both decode as UTF-8 without an error, but NUL bytes mean they are not UTF-8 text
        Files.writeString(docs.resolve("notes.txt"), "returns policy", StandardCharsets.UTF_16LE);
        Files.write(docs.resolve("image.md"), new byte[] {0, 0, 0, 1, 'r', 'e', 't', 'u', 'r', 'n', 's', 0});
        LuceneIndexer.Report report = LuceneIndexer.indexDirectory(docs, index);
        assertThat(report.files()).isEqualTo(1);
        assertThat(report.skipped()).containsExactly("image.md (not UTF-8 text: it has NUL bytes)",
                "notes.txt (not UTF-8 text: it has NUL bytes)");
        assertThat(LuceneRetriever.open(index).search("returns", 5)).extracting(RetrievedDocument::source).containsExactly("faq.md#1");
    }

    @Test
    void aQueryOfMoreWordsThanLuceneTakesInOneQueryStillFindsPassages() throws Exception {
        indexFaq(index);
        StringBuilder query = new StringBuilder("returns");
        for (int i = 0; i < 3_000; i++) {
            query.append(" word").append(i);
        }
        assertThat(LuceneRetriever.open(index).search(query.toString(), 5)).extracting(RetrievedDocument::source)
                .containsExactly("faq.md#1");
        assertThat(LuceneRetriever.open(index).search("days ".repeat(2_000), 5)).extracting(RetrievedDocument::source)
                .containsExactly("faq.md#1");
    }

    /** A segment's file missing (a partial copy, a backup restored in part) or cut short: damaged too, with what to do. */
    @Test
    void anIndexMissingASegmentFileOrWithOneCutShortIsNamedAsDamagedWithWhatToDo() throws Exception {
        indexFaq(index);
        List<Path> segmentFiles = filesIn(index, n -> n.startsWith("_"));
        assertThat(segmentFiles).isNotEmpty();
        Path cut = segmentFiles.get(0);
        byte[] bytes = Files.readAllBytes(cut);
        Files.write(cut, java.util.Arrays.copyOf(bytes, bytes.length / 2));
        assertThatThrownBy(() -> LuceneRetriever.open(index).search("returns", 5)).isInstanceOf(RetrievalException.class)
                .hasMessageContaining("damaged").hasMessageContaining("delete " + index);
        for (Path f : segmentFiles) {
            Files.delete(f);
        }
        assertThatThrownBy(() -> LuceneRetriever.open(index).search("returns", 5)).isInstanceOf(RetrievalException.class)
                .hasMessageContaining("damaged").hasMessageContaining("delete " + index);
        assertThatThrownBy(() -> LuceneIndexer.indexDirectory(docs, index)).isInstanceOf(RetrievalException.class)
                .hasMessageContaining("damaged").hasMessageContaining("delete " + index).hasMessageContaining("index the folder again");
    }

    @Test
    void aDamagedIndexIsNamedWithWhatToDo() throws Exception {
        indexFaq(index);
        List<Path> commits = flipCommitsLastByte(index); // Lucene's header stays: the index's own file, damaged
        assertThatThrownBy(() -> LuceneIndexer.indexDirectory(docs, index)).isInstanceOf(RetrievalException.class)
                .hasMessageContaining("damaged").hasMessageContaining("delete " + index).hasMessageContaining("index the folder again");
        assertThatThrownBy(() -> LuceneRetriever.open(index).search("returns", 5)).isInstanceOf(RetrievalException.class)
                .hasMessageContaining("damaged").hasMessageContaining("delete " + index);

        // a commit not beginning with Lucene's header may be a file of another program's named segments_1: kept, and not
        // said to be deletable, as a segment's file of that kind is
        for (Path f : commits) {
            Files.write(f, new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        }
        assertThatThrownBy(() -> LuceneRetriever.open(index).search("returns", 5)).isInstanceOf(RetrievalException.class)
                .hasMessageContaining("is damaged").hasMessageContaining("Rein cannot tell which").hasMessageNotContaining("delete " + index);
        assertThatThrownBy(() -> LuceneIndexer.indexDirectory(docs, index)).isInstanceOf(RetrievalException.class)
                .hasMessageContaining("Rein cannot tell which").hasMessageNotContaining("delete " + index);
    }

    /** faq.md in the documents folder: "Returns within 30 days.", which the damaged-index tests search for ("returns"). */
    private void writeFaq() throws java.io.IOException {
        Files.writeString(docs.resolve("faq.md"), "Returns within 30 days.", StandardCharsets.UTF_8);
    }

    /** {@link #writeFaq} and the documents folder indexed into {@code folder}: one commit, segments_1, and one segment. */
    private void indexFaq(Path folder) throws java.io.IOException {
        writeFaq();
        LuceneIndexer.indexDirectory(docs, folder);
    }

    /** The files (and folders) in {@code folder} whose names {@code name} accepts, sorted. */
    private static List<Path> filesIn(Path folder, java.util.function.Predicate<String> name) throws java.io.IOException {
        try (var files = Files.list(folder)) {
            return files.filter(f -> name.test(f.getFileName().toString())).sorted().toList();
        }
    }

    /** The names in {@code folder}, sorted. */
    private static List<String> namesIn(Path folder) throws java.io.IOException {
        return filesIn(folder, n -> true).stream().map(f -> f.getFileName().toString()).toList();
    }

    /** The first commit (segments_N) in {@code folder}, by name. */
    private static Path commitIn(Path folder) throws java.io.IOException {
        return filesIn(folder, n -> n.startsWith("segments_")).stream().findFirst().orElseThrow();
    }

    /**
     * Flips the last byte of every commit (segments_N) in {@code folder}, which keeps Lucene's header: the index's own
     * files, damaged. Returns them.
     */
    private static List<Path> flipCommitsLastByte(Path folder) throws java.io.IOException {
        List<Path> commits = filesIn(folder, n -> n.startsWith("segments_"));
        for (Path f : commits) {
            flipLastByte(f);
        }
        return commits;
    }

    private static void flipLastByte(Path file) throws java.io.IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(f.length() - 1);
            int last = f.read();
            f.seek(f.length() - 1);
            f.write(last ^ 0xFF);
        }
    }

    /**
     * Before: a damaged index in a folder that holds other files too (the project's folder, given as the index folder)
     * said to delete that folder and index again, which deleted the user's files with it. Such a folder is now not to be
     * deleted: the message names the other files and says to index into a folder of its own.
     */
    @Test
    void aDamagedIndexInAFolderHoldingOtherFilesDoesNotSayToDeleteTheFolder() throws Exception {
        writeFaq();
        Files.writeString(other.resolve("README.md"), "# Project", StandardCharsets.UTF_8);
        Files.createDirectories(other.resolve("notes"));
        LuceneIndexer.indexDirectory(docs, other);
        flipCommitsLastByte(other);
        String remedy = "; " + other + " holds other files too (README.md, notes), so do not delete it: index the folder again"
                + " into a folder of its own, new or empty (such as .rein/index), and search that one";
        assertThatThrownBy(() -> LuceneRetriever.open(other).search("returns", 5)).isInstanceOf(RetrievalException.class)
                .hasMessageStartingWith("the document index in " + other + " is damaged").hasMessageContaining(remedy + " (Lucene: ")
                .hasMessageNotContaining("delete " + other);
        assertThatThrownBy(() -> LuceneIndexer.indexDirectory(docs, other)).isInstanceOf(RetrievalException.class)
                .hasMessageContaining(remedy + " (Lucene: ");
        assertThat(other.resolve("README.md")).hasContent("# Project");
    }

    /**
     * Before: an index whose segment info a crash left zeroed (its _0.si no longer starts with Lucene's header) was said
     * to be in a folder that "holds other files too (_0.si), so do not delete it", and indexing again said the folder
     * held "files of other names (_0.si)", though _0.si has the very name the index gives its files. Whether such a file
     * is the index's own, damaged, or one of the user's with such a name (a _0.doc of theirs) cannot be told from it, so
     * both now say exactly that, and still neither delete it nor say to delete the folder.
     */
    @Test
    void aDamagedIndexWhoseSegmentFileIsZeroedSaysItCannotTellWhoseItIsAndKeepsIt() throws Exception {
        indexFaq(index);
        List<Path> infos = filesIn(index, n -> n.endsWith(".si"));
        assertThat(infos).extracting(p -> p.getFileName().toString()).containsExactly("_0.si");
        Files.write(infos.get(0), new byte[(int) Files.size(infos.get(0))]);
        byte[] zeroed = Files.readAllBytes(infos.get(0));
        String unsure = "_0.si, which has a name Lucene gives the files of an index but does not begin as they do: it is this index's"
                + " own file, damaged (a crash can leave a file zeroed), or a file of another program's with such a name, and"
                + " Rein cannot tell which";
        assertThatThrownBy(() -> LuceneRetriever.open(index).search("returns", 5)).isInstanceOf(RetrievalException.class)
                .hasMessageStartingWith("the document index in " + index + " is damaged")
                .hasMessageContaining("; " + index + " holds " + unsure + ", so do not delete the folder or that file: index the"
                        + " folder again"
                        + " into a folder of its own, new or empty (such as .rein/index), and search that one")
                .hasMessageNotContaining("other files").hasMessageNotContaining("delete " + index);
        assertThatThrownBy(() -> LuceneIndexer.indexDirectory(docs, index)).isInstanceOf(RetrievalException.class)
                .hasMessageStartingWith(index.toAbsolutePath() + " holds a document index and " + unsure)
                .hasMessageContaining("nothing was written there")
                .hasMessageNotContaining("other names").hasMessageNotContaining("delete " + index);
        assertThat(infos.get(0)).hasBinaryContent(zeroed);

        // beside a file of another name, each is named for what it is
        Files.writeString(index.resolve("README.md"), "# Index", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> LuceneRetriever.open(index).search("returns", 5)).isInstanceOf(RetrievalException.class)
                .hasMessageContaining("; " + index + " holds other files too (README.md), and " + unsure + ", so do not delete"
                        + " the folder or that file: index the folder again");
    }

    /**
     * Before: a damaged index was named with Lucene's own text, which names Java classes ('codec header mismatch: actual
     * header=... (resource=BufferedChecksumIndexInput(MMapIndexInput(path=...)))'), and a failure to open the folder with
     * Java's message alone, often the path alone. The message now says in plain words what is wrong and what to do,
     * naming the file Lucene could not read, with Lucene's words about it at the end, without its Java classes.
     */
    @Test
    void aDamagedIndexIsDescribedInPlainWordsWithLucenesDetailAtTheEnd() throws Exception {
        indexFaq(index);
        String commit = commitIn(index).getFileName().toString();
        flipLastByte(index.resolve(commit));
        assertThatThrownBy(() -> LuceneRetriever.open(index).search("returns", 5)).isInstanceOf(RetrievalException.class)
                .hasMessageStartingWith("the document index in " + index + " is damaged: its file " + commit + " is not as Lucene"
                        + " wrote it (cut short, overwritten or zeroed, as a crash, a full disk or a partial copy can leave it),"
                        + " so the index cannot be read; delete " + index + " and index the folder again (rein index DIR)")
                .hasMessageContaining(" (Lucene: ")
                .hasMessageNotContaining("Exception").hasMessageNotContaining("IndexInput").hasMessageNotContaining("resource");

        // a folder on the index's path that is a file: Java's message was the path alone
        Path file = other.resolve("notes.txt");
        Files.writeString(file, "my notes", StandardCharsets.UTF_8);
        Path under = file.resolve("index");
        assertThatThrownBy(() -> LuceneRetriever.open(under)).isInstanceOf(RetrievalException.class)
                .hasMessage("cannot open the document index in " + under + ": " + file + " is a file, not a directory; give a"
                        + " folder for the index whose path runs through folders only");
        assertThat(file).hasContent("my notes");
    }

    /**
     * A file indexed as text and replaced since by one that is skipped (now binary, UTF-16 or too large) no longer
     * answers with what it held before: the index would cite the file for text it does not have.
     */
    @Test
    void aFileSkippedOnReindexingLosesThePassagesOfItsEarlierText() throws Exception {
        writeFaq();
        Files.writeString(docs.resolve("notes.txt"), "返品の送料は無料です。", StandardCharsets.UTF_8);
        Files.writeString(docs.resolve("prices.md"), "Shipping costs 500 yen.", StandardCharsets.UTF_8);
        LuceneIndexer.indexDirectory(docs, index);
        assertThat(LuceneRetriever.open(index).search("送料", 5)).extracting(RetrievedDocument::source).containsExactly("notes.txt#1");

        Files.writeString(docs.resolve("notes.txt"), "返品の送料は有料になりました。", StandardCharsets.UTF_16LE);
        try (RandomAccessFile huge = new RandomAccessFile(docs.resolve("prices.md").toFile(), "rw")) {
            huge.setLength(3L << 30);
        }
        LuceneIndexer.Report report = LuceneIndexer.indexDirectory(docs, index);

        assertThat(report.skipped()).hasSize(2);
        assertThat(LuceneRetriever.open(index).search("送料", 5)).as("notes.txt no longer says this").isEmpty();
        assertThat(LuceneRetriever.open(index).search("shipping", 5)).as("prices.md no longer says this").isEmpty();
        assertThat(LuceneRetriever.open(index).search("returns", 5)).extracting(RetrievedDocument::source).containsExactly("faq.md#1");
    }

    /** Japanese words of one and two characters are found as words, whatever is written around them. */
    @Test
    void oneAndTwoCharacterJapaneseWordsAreFound() throws Exception {
        Files.writeString(docs.resolve("colors.md"), "好きな色は青です。", StandardCharsets.UTF_8);
        Files.writeString(docs.resolve("pets.md"), "猫を二匹飼っている。", StandardCharsets.UTF_8);
        Files.writeString(docs.resolve("trip.md"), "来週、大阪へ出張します。", StandardCharsets.UTF_8);
        LuceneIndexer.indexDirectory(docs, index);
        LuceneRetriever retriever = LuceneRetriever.open(index);
        assertThat(retriever.search("青", 5)).extracting(RetrievedDocument::source).containsExactly("colors.md#1");
        assertThat(retriever.search("猫", 5)).extracting(RetrievedDocument::source).containsExactly("pets.md#1");
        assertThat(retriever.search("大阪", 5)).extracting(RetrievedDocument::source).containsExactly("trip.md#1");
        assertThat(retriever.search("出張", 5)).extracting(RetrievedDocument::source).containsExactly("trip.md#1");
        assertThat(retriever.search("犬", 5)).isEmpty();
    }

    /**
     * Japanese text as text extracted from a PDF or written on macOS often holds it: decomposed kana (デ as テ and
     * U+3099), Kangxi radicals for kanji (⽇ U+2F47 for 日), half-width kana. Before, kuromoji split the first two
     * into single characters and a search for the word typed as usual found nothing.
     */
    @Test
    void japaneseWordsAreFoundWhateverUnicodeFormTheTextOrTheQueryIsIn() throws Exception {
        Files.writeString(docs.resolve("db.md"), java.text.Normalizer.normalize("データベースの設定ガイド", java.text.Normalizer.Form.NFD),
                StandardCharsets.UTF_8);
        Files.writeString(docs.resolve("report.md"), "\u2F47\u2F49の報告書", StandardCharsets.UTF_8); // ⽇⽉ (Kangxi radicals)
        Files.writeString(docs.resolve("memo.md"), "ﾊﾟｽﾜｰﾄﾞの変更手順", StandardCharsets.UTF_8);
        LuceneIndexer.indexDirectory(docs, index);
        LuceneRetriever retriever = LuceneRetriever.open(index);
        assertThat(retriever.search("データベース", 5)).extracting(RetrievedDocument::source).containsExactly("db.md#1");
        assertThat(retriever.search("ガイド", 5)).extracting(RetrievedDocument::source).containsExactly("db.md#1");
        assertThat(retriever.search("日月", 5)).extracting(RetrievedDocument::source).containsExactly("report.md#1");
        assertThat(retriever.search("パスワード", 5)).extracting(RetrievedDocument::source).containsExactly("memo.md#1");
        // and a query in those forms finds text written as usual
        Files.writeString(docs.resolve("db.md"), "データベースの設定ガイド", StandardCharsets.UTF_8);
        LuceneIndexer.indexDirectory(docs, index);
        assertThat(retriever.search(java.text.Normalizer.normalize("データベース", java.text.Normalizer.Form.NFD), 5))
                .extracting(RetrievedDocument::source).containsExactly("db.md#1");
        // the passage is cited as the file holds it
        assertThat(retriever.search("報告書", 5)).singleElement().satisfies(d -> assertThat(d.text()).isEqualTo("\u2F47\u2F49の報告書"));
    }

    /**
     * Before: kuromoji tags a word of a script it does not know (Korean Hangul, Arabic, Hebrew, Devanagari, Thai, ...) as a
     * symbol, and the analyzer's part-of-speech filter dropped it, so such a document was indexed (counted in the report)
     * but no query found it, and a query in such a script found nothing. Now such words are kept; Korean (whose words carry
     * their particles) and Thai (written without spaces) are searched by two-character terms, so a word finds the passage
     * that holds it with a particle attached or inside a longer run.
     */
    @Test
    void wordsOfScriptsKuromojiDoesNotKnowAreFound() throws Exception {
        Files.writeString(docs.resolve("ko.md"), "환불은 30일 이내에 가능합니다. 회의실은 3층에 있습니다.", StandardCharsets.UTF_8);
        Files.writeString(docs.resolve("ar.md"), "سياسة استرداد المبلغ خلال ثلاثين يوما", StandardCharsets.UTF_8);
        Files.writeString(docs.resolve("he.md"), "מדיניות החזר כספי תוך שלושים יום", StandardCharsets.UTF_8);
        Files.writeString(docs.resolve("hi.md"), "धनवापसी नीति तीस दिनों के भीतर", StandardCharsets.UTF_8);
        Files.writeString(docs.resolve("th.md"), "การคืนสินค้าภายในสามสิบวัน", StandardCharsets.UTF_8);
        Files.writeString(docs.resolve("ja.md"), "返品は30日以内です。", StandardCharsets.UTF_8);
        LuceneIndexer.indexDirectory(docs, index);
        LuceneRetriever retriever = LuceneRetriever.open(index);
        assertThat(retriever.search("환불", 5)).extracting(RetrievedDocument::source).containsExactly("ko.md#1");
        assertThat(retriever.search("회의실", 5)).extracting(RetrievedDocument::source).containsExactly("ko.md#1");
        assertThat(retriever.search("استرداد", 5)).extracting(RetrievedDocument::source).containsExactly("ar.md#1");
        assertThat(retriever.search("החזר", 5)).extracting(RetrievedDocument::source).containsExactly("he.md#1");
        assertThat(retriever.search("धनवापसी", 5)).extracting(RetrievedDocument::source).containsExactly("hi.md#1");
        assertThat(retriever.search("สินค้า", 5)).extracting(RetrievedDocument::source).containsExactly("th.md#1");
        // Japanese is searched by word as before: its particles and symbols still find nothing
        assertThat(retriever.search("返品", 5)).extracting(RetrievedDocument::source).containsExactly("ja.md#1");
        assertThat(retriever.search("は", 5)).isEmpty();
        assertThat(retriever.search("※", 5)).isEmpty();
        assertThat(retriever.search("불가", 5)).as("a Korean word no passage holds").isEmpty();
    }

    /**
     * Before: kuromoji knows kanji of the Basic Multilingual Plane only; one beyond it (𠮷 of the name 𠮷田, 𩸽 the fish,
     * written as surrogate pairs) it tagged as a symbol, which was dropped, so a query for it found nothing and 𠮷田 was
     * searched as 田 alone. Now such a kanji is kept as a word.
     */
    @Test
    void aKanjiBeyondTheBasicPlaneIsFound() throws Exception {
        Files.writeString(docs.resolve("menu.md"), "𩸽の塩焼き定食", StandardCharsets.UTF_8);
        Files.writeString(docs.resolve("staff.md"), "担当は𠮷田さんです。", StandardCharsets.UTF_8);
        Files.writeString(docs.resolve("other.md"), "担当は山田さんです。", StandardCharsets.UTF_8);
        LuceneIndexer.indexDirectory(docs, index);
        LuceneRetriever retriever = LuceneRetriever.open(index);
        assertThat(retriever.search("𩸽", 5)).extracting(RetrievedDocument::source).containsExactly("menu.md#1");
        assertThat(retriever.search("𠮷田", 5)).extracting(RetrievedDocument::source).first().isEqualTo("staff.md#1");
        assertThat(retriever.search("𠮷", 5)).extracting(RetrievedDocument::source).containsExactly("staff.md#1");
    }

    /**
     * Before: Lucene's writer deletes every file of its folder whose name it takes for one of its own (a name starting
     * with '_' and holding a dot, or with 'segments') and no index needs, so an index written into a folder of the
     * user's (the documents folder itself, a Hugo site whose sections hold _index.md, a Jekyll site's _config.yml)
     * deleted those files, and a file named segments_notes.txt there made it fail with a bare NumberFormatException.
     * Now a folder that holds such files but no index is refused, naming them, and nothing in it is changed.
     */
    @Test
    void aFolderOfTheUsersFilesIsNotTakenAsTheIndexAndNoneOfItsFilesIsDeleted() throws Exception {
        Files.writeString(docs.resolve("_index.md"), "# Handbook\n\nWelcome.", StandardCharsets.UTF_8);
        Files.writeString(docs.resolve("_config.yml"), "title: handbook", StandardCharsets.UTF_8);
        Files.writeString(docs.resolve("refunds.md"), "Refunds within 30 days.", StandardCharsets.UTF_8);
        // as the index of another folder (the documents folder itself is refused as such: see below)
        assertThatThrownBy(() -> LuceneIndexer.indexDirectory(index, docs)).isInstanceOf(RetrievalException.class)
                .hasMessageStartingWith(docs.toAbsolutePath() + " holds files but no document index (_config.yml, _index.md)")
                .hasMessageContaining("give the index a folder of its own");
        try (var files = Files.list(docs)) {
            assertThat(files.map(f -> f.getFileName().toString())).containsExactlyInAnyOrder("_index.md", "_config.yml", "refunds.md");
        }
        Files.writeString(other.resolve("segments_notes.txt"), "my notes", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> LuceneIndexer.indexDirectory(docs, other)).isInstanceOf(RetrievalException.class)
                .hasMessageStartingWith(other.toAbsolutePath() + " holds files but no document index (segments_notes.txt)");
        assertThatThrownBy(() -> LuceneRetriever.open(other)).isInstanceOf(RetrievalException.class)
                .hasMessageStartingWith("there is no document index in " + other.toAbsolutePath());
        assertThat(other.resolve("segments_notes.txt")).hasContent("my notes");
        // a folder of its own works as before, also one holding files Lucene leaves alone
        Files.writeString(index.resolve(".DS_Store"), "finder", StandardCharsets.UTF_8);
        LuceneIndexer.indexDirectory(docs, index);
        assertThat(LuceneRetriever.open(index).search("refunds", 5)).extracting(RetrievedDocument::source).containsExactly("refunds.md#1");
        assertThat(index.resolve(".DS_Store")).hasContent("finder");
    }

    /**
     * Before: a folder holding files of names Lucene takes for its own but none of its header (a zeroed _0.si, notes named
     * segments_notes.txt) was refused with the advice "if those files are what an indexing cut short left there, delete
     * them and index again", though nothing shows they are, and Lucene's own leftovers are cleaned up by the writer: the
     * advice could delete the user's files. The message now says to give the index a folder of its own, new or empty, and
     * how to check what those files are, and never to delete them. Nothing in the folder is changed.
     */
    @Test
    void aFolderOfFilesThatAreNotProvablyLucenesIsNeverAdvisedToBeDeleted() throws Exception {
        Files.writeString(docs.resolve("refunds.md"), "Refunds within 30 days.", StandardCharsets.UTF_8);
        Files.write(other.resolve("_0.si"), new byte[16]);
        Files.writeString(other.resolve("segments_notes.txt"), "my notes", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> LuceneIndexer.indexDirectory(docs, other)).isInstanceOf(RetrievalException.class)
                .hasMessage(other.toAbsolutePath() + " holds files but no document index (_0.si, segments_notes.txt): Lucene deletes"
                        + " files of such names in the folder it writes an index in, so nothing was written there; give the index a"
                        + " folder of its own, new or empty (such as .rein/index), and index again there, which loses nothing (the"
                        + " index is built from the documents). Nothing shows that those files are Lucene's, so they are kept: to"
                        + " check one, look at its first four bytes (od -A n -t x1 -N 4 FILE shows them): each file Lucene writes"
                        + " begins with 3f d7 6c 17")
                .hasMessageNotContaining("delete them");
        assertThat(other.resolve("_0.si")).hasBinaryContent(new byte[16]);
        assertThat(other.resolve("segments_notes.txt")).hasContent("my notes");
    }

    /**
     * Before: the check for a folder of the user's took the files an interrupted first indexing leaves (Lucene's own
     * segment files and lock, no segments_N yet) for the user's and refused the folder, where the writer cleans them
     * up. Now names Lucene's codecs give their files are leftovers: such a folder is indexed into as before.
     */
    @Test
    void aFolderLeftByAnInterruptedFirstIndexingIsIndexedIntoAsBefore() throws Exception {
        Files.writeString(docs.resolve("refunds.md"), "Refunds within 30 days.", StandardCharsets.UTF_8);
        for (String leftover : List.of("_0.cfs", "_0.cfe", "_0.si", "_1.fdt", "_1.fdx", "_1.fdm", "_1.fnm", "_1_Lucene103_0.doc",
                "_1_Lucene103_0.tim", "_1_Lucene90_0.dvd", "_1_Lucene90FieldsIndex-doc_ids_0.tmp", "pending_segments_1")) {
            Files.write(index.resolve(leftover), LUCENES_HEADER); // each of Lucene's files begins with its header
        }
        Files.createFile(index.resolve("_2.si")); // one made but not yet written
        Files.createFile(index.resolve("write.lock")); // Lucene's lock file is empty
        LuceneIndexer.indexDirectory(docs, index);
        assertThat(LuceneRetriever.open(index).search("refunds", 5)).extracting(RetrievedDocument::source).containsExactly("refunds.md#1");
        assertThat(index.resolve("_1_Lucene90FieldsIndex-doc_ids_0.tmp")).doesNotExist();
        assertThat(index.resolve("pending_segments_1")).doesNotExist();
        // only the user's files are named, not the leftovers beside them
        Files.write(other.resolve("_0.si"), LUCENES_HEADER);
        Files.writeString(other.resolve("_index.md"), "# Handbook", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> LuceneIndexer.indexDirectory(docs, other)).isInstanceOf(RetrievalException.class)
                .hasMessageStartingWith(other.toAbsolutePath() + " holds files but no document index (_index.md)");
    }

    /**
     * Before: a file of the user's whose name is also one Lucene gives its own files (a Word document _draft.doc, a
     * _notes.pos: '_', a name of letters and digits, one of its codecs' extensions) was taken for a leftover of an
     * indexing cut short, so the folder was indexed into and Lucene's writer deleted it, whether the folder held an index
     * or not. Lucene writes a header at the start of each of its files: a file of such a name without it is the user's
     * now, and the folder is refused naming it, with nothing in it changed.
     */
    @Test
    void aFileOfTheUsersWithANameLikeLucenesOwnIsNotDeleted() throws Exception {
        Files.writeString(docs.resolve("refunds.md"), "Refunds within 30 days.", StandardCharsets.UTF_8);
        byte[] word = {(byte) 0xD0, (byte) 0xCF, 0x11, (byte) 0xE0, (byte) 0xA1, (byte) 0xB1, 0x1A, (byte) 0xE1, 1, 2};
        Files.write(docs.resolve("_draft.doc"), word);
        assertThatThrownBy(() -> LuceneIndexer.indexDirectory(other, docs)).isInstanceOf(RetrievalException.class)
                .hasMessageStartingWith(docs.toAbsolutePath() + " holds files but no document index (_draft.doc)")
                .hasMessageContaining("give the index a folder of its own");
        assertThat(docs.resolve("_draft.doc")).hasBinaryContent(word);

        LuceneIndexer.indexDirectory(docs, index);
        Files.write(index.resolve("_draft.doc"), word);
        Files.writeString(index.resolve("_notes.pos"), "my notes", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> LuceneIndexer.indexDirectory(docs, index)).isInstanceOf(RetrievalException.class)
                .hasMessageStartingWith(index.toAbsolutePath() + " holds a document index and _draft.doc, _notes.pos, which have names"
                        + " Lucene gives the files of an index but do not begin as they do: each is this index's own file, damaged"
                        + " (a crash can leave a file zeroed), or a file of another program's with such a name, and Rein cannot"
                        + " tell which; Lucene deletes files of such names in the folder it writes an index in, so nothing was"
                        + " written there");
        assertThat(index.resolve("_draft.doc")).hasBinaryContent(word);
        assertThat(index.resolve("_notes.pos")).hasContent("my notes");
        assertThat(LuceneRetriever.open(index).search("refunds", 5)).extracting(RetrievedDocument::source).containsExactly("refunds.md#1");
    }

    /**
     * Before: the check for a folder of the user's was skipped when the folder already held an index (one an older Rein
     * built in the documents folder), so the writer still deleted the user's files there whose names Lucene takes for its
     * own. Now such a folder is refused too, naming them, before anything is written; Lucene's own files do not count.
     */
    @Test
    void aFolderHoldingAnIndexAndFilesOfTheUsersIsRefusedBeforeAnythingIsWritten() throws Exception {
        Files.writeString(docs.resolve("refunds.md"), "Refunds within 30 days.", StandardCharsets.UTF_8);
        LuceneIndexer.indexDirectory(docs, index);
        Files.writeString(index.resolve("_index.md"), "# Handbook", StandardCharsets.UTF_8);
        Files.writeString(index.resolve("_config.yml"), "title: handbook", StandardCharsets.UTF_8);
        Files.write(index.resolve("_2_Lucene90FieldsIndex-doc_ids_0.tmp"), LUCENES_HEADER); // left by a cut-short indexing
        Files.writeString(docs.resolve("shipping.md"), "Shipping is free.", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> LuceneIndexer.indexDirectory(docs, index)).isInstanceOf(RetrievalException.class)
                .hasMessageStartingWith(index.toAbsolutePath() + " holds a document index and files of other names (_config.yml, _index.md)")
                .hasMessageContaining("give the index a folder of its own");
        assertThat(index.resolve("_index.md")).hasContent("# Handbook");
        assertThat(index.resolve("_config.yml")).hasContent("title: handbook");
        assertThat(LuceneRetriever.open(index).search("shipping", 5)).isEmpty();
        assertThat(LuceneRetriever.open(index).search("refunds", 5)).extracting(RetrievedDocument::source).containsExactly("refunds.md#1");
    }

    /** The names in {@code folder} and below, relative to it with '/', sorted. */
    private static List<String> tree(Path folder) throws java.io.IOException {
        try (var files = Files.walk(folder)) {
            return files.filter(f -> !f.equals(folder)).map(f -> folder.relativize(f).toString().replace('\\', '/')).sorted().toList();
        }
    }

    /**
     * Before: the documents folder given as the index folder too (or by another name for it: a path through "..", a link
     * to it) was indexed into when it held none of the names Lucene takes for its own: Lucene's files were written among
     * the documents, so deleting the index folder, as a damaged index needs, deleted the documents. Now it is refused,
     * saying so and what to do, before anything is written.
     */
    @Test
    void theDocumentsFolderGivenAsTheIndexFolderIsRefusedBeforeAnythingIsWritten() throws Exception {
        Files.writeString(docs.resolve("refunds.md"), "Refunds within 30 days.", StandardCharsets.UTF_8);
        Files.createDirectories(docs.resolve("guide"));
        Files.writeString(docs.resolve("guide/shipping.md"), "Shipping is free.", StandardCharsets.UTF_8);
        Path link = other.resolve("handbook");
        List<Path> sameFolder = new java.util.ArrayList<>(List.of(docs, docs.resolve("guide/..")));
        try {
            Files.createSymbolicLink(link, docs);
            sameFolder.add(link);
        } catch (UnsupportedOperationException | java.io.IOException noLinks) {
            // a file system without links: the other spellings are still checked
        }
        for (Path given : sameFolder) {
            assertThatThrownBy(() -> LuceneIndexer.indexDirectory(docs, given)).isInstanceOf(RetrievalException.class)
                    .hasMessage("the index folder " + given.toAbsolutePath() + " is the documents folder " + docs.toRealPath()
                            + ": an index written there would put Lucene's files among the documents, and deleting the index"
                            + " folder (as a damaged index needs) would delete the documents, so nothing was written; give the"
                            + " index a folder of its own (such as .rein/index), not the documents folder nor one that holds it");
            assertThatThrownBy(() -> LuceneIndexer.indexDirectory(given, docs)).isInstanceOf(RetrievalException.class)
                    .hasMessageStartingWith("the index folder " + docs.toAbsolutePath() + " is the documents folder ");
        }
        assertThat(tree(docs)).containsExactly("guide", "guide/shipping.md", "refunds.md");
    }

    /**
     * Before: an index folder holding the documents folder (the index in the project's folder, the documents in its docs/)
     * was indexed into when it held none of the names Lucene takes for its own: Lucene's files were written beside the
     * documents' folder, and deleting the index folder, as a damaged index needs, deleted the documents with it. Now it is
     * refused, saying so and what to do, before anything is written.
     */
    @Test
    void anIndexFolderHoldingTheDocumentsFolderIsRefusedBeforeAnythingIsWritten() throws Exception {
        Path handbook = other.resolve("site/handbook");
        Files.createDirectories(handbook);
        Files.writeString(handbook.resolve("refunds.md"), "Refunds within 30 days.", StandardCharsets.UTF_8);
        Files.writeString(other.resolve("README.md"), "# Project", StandardCharsets.UTF_8);
        for (Path index : List.of(other, other.resolve("site"))) {
            assertThatThrownBy(() -> LuceneIndexer.indexDirectory(handbook, index)).isInstanceOf(RetrievalException.class)
                    .hasMessage("the index folder " + index.toAbsolutePath() + " holds the documents folder " + handbook.toRealPath()
                            + ": an index written there would put Lucene's files beside the documents, and deleting the index"
                            + " folder (as a damaged index needs) would delete the documents, so nothing was written; give the"
                            + " index a folder of its own (such as .rein/index), not the documents folder nor one that holds it");
        }
        assertThat(tree(other)).containsExactly("README.md", "site", "site/handbook", "site/handbook/refunds.md");
    }

    /**
     * An index folder inside the documents folder (rein index . with $REIN_HOME/index in the working directory) is
     * indexed into: deleting it deletes the index alone, and no file of Lucene's is taken for a document, also when
     * the folder is indexed again.
     */
    @Test
    void anIndexFolderInsideTheDocumentsFolderIsIndexedIntoAndLucenesFilesAreNoDocuments() throws Exception {
        Files.writeString(docs.resolve("refunds.md"), "Refunds within 30 days.", StandardCharsets.UTF_8);
        Path inside = docs.resolve(".rein/index");
        LuceneIndexer.Report first = LuceneIndexer.indexDirectory(docs, inside);
        Files.writeString(docs.resolve("shipping.md"), "Shipping is free.", StandardCharsets.UTF_8);
        LuceneIndexer.Report again = LuceneIndexer.indexDirectory(docs, inside);
        assertThat(first.files()).isEqualTo(1);
        assertThat(again.files()).isEqualTo(2);
        assertThat(again.skipped()).isEmpty();
        assertThat(LuceneRetriever.open(inside).search("refunds shipping", 5)).extracting(RetrievedDocument::source)
                .containsExactlyInAnyOrder("refunds.md#1", "shipping.md#1");
        assertThat(docs.resolve("refunds.md")).hasContent("Refunds within 30 days.");
    }

    /**
     * Before: a search after the index folder was deleted (as the damaged-index message says to do before indexing
     * again) while an agent had it open failed with Lucene's internals ('no segments* file found in
     * MMapDirectory@... lockFactory=org.apache.lucene.store.NativeFSLockFactory@...; files: []'), in the tool's
     * error to the model and the user's log. Now it says there is no index there and how to build it again.
     */
    @Test
    void aSearchAfterTheIndexWasDeletedSaysThereIsNoIndexAndHowToBuildOne() throws Exception {
        Files.writeString(docs.resolve("returns.md"), "返品は30日以内です", StandardCharsets.UTF_8);
        LuceneIndexer.indexDirectory(docs, index);
        LuceneRetriever retriever = LuceneRetriever.open(index);
        try (var files = Files.walk(index)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
        for (boolean folderToo : new boolean[] {true, false}) {
            if (!folderToo) {
                Files.createDirectories(index);
            }
            assertThatThrownBy(() -> retriever.search("返品", 5)).isInstanceOf(RetrievalException.class)
                    .hasMessage("there is no document index in " + index.toAbsolutePath()
                            + " (it was deleted since it was opened); build it again (on the command line: rein index DIR)");
        }
        LuceneIndexer.indexDirectory(docs, index);
        assertThat(retriever.search("返品", 5)).as("found once built again").hasSize(1);
    }

    /**
     * Before: opening a retriever on a folder that does not exist (a path mistyped), and searching after the index
     * folder was deleted, created that folder and those on its way (Lucene's FSDirectory makes its folder), empty,
     * while saying there is no index there. Reading an index now makes nothing.
     */
    @Test
    void openingOrSearchingAnIndexThatIsNotThereMakesNoFolder() throws Exception {
        Path mistyped = other.resolve("typo").resolve("index");
        assertThatThrownBy(() -> LuceneRetriever.open(mistyped)).isInstanceOf(RetrievalException.class)
                .hasMessageStartingWith("there is no document index in " + mistyped.toAbsolutePath());
        assertThat(other.resolve("typo")).doesNotExist();

        Files.writeString(docs.resolve("returns.md"), "返品は30日以内です", StandardCharsets.UTF_8);
        LuceneIndexer.indexDirectory(docs, index);
        LuceneRetriever retriever = LuceneRetriever.open(index);
        try (var files = Files.walk(index)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
        assertThatThrownBy(() -> retriever.search("返品", 5)).isInstanceOf(RetrievalException.class)
                .hasMessageContaining("it was deleted since it was opened");
        assertThat(index).doesNotExist();
        Files.createDirectories(index); // the temporary folder, for its cleanup
    }

    /**
     * A symbolic link whose target is missing is no index to build: it is said so (a folder on the way that cannot be
     * entered is said the same way, through the file system's own words; as root that cannot be tested).
     */
    @Test
    void aDanglingLinkToTheIndexIsSaidSoNotThatThereIsNoIndex() throws Exception {
        Path link = other.resolve("index");
        Path gone = other.resolve("moved-away");
        Files.createSymbolicLink(link, gone);
        assertThatThrownBy(() -> LuceneRetriever.open(link)).isInstanceOf(RetrievalException.class)
                .hasMessageStartingWith("cannot open the document index in " + link + ": " + link + " is a symbolic link to " + gone)
                .hasMessageContaining("which does not exist (the link's target is missing)")
                .hasMessageNotContaining("there is no document index");
        assertThat(gone).doesNotExist();

        indexFaq(gone);
        LuceneRetriever retriever = LuceneRetriever.open(link);
        Files.move(gone, other.resolve("elsewhere"));
        assertThatThrownBy(() -> retriever.search("returns", 5)).isInstanceOf(RetrievalException.class)
                .hasMessageContaining("is a symbolic link to " + gone).hasMessageNotContaining("there is no document index");
        assertThat(gone).doesNotExist();
    }

    /** A damaged index in a folder whose name holds a quote names the file that is damaged, not part of the folder's name. */
    @Test
    void aDamagedIndexInAFolderNamedWithQuotesNamesItsFile() throws Exception {
        writeFaq();
        Path quoted = other.resolve("my \"notes\"").resolve("index");
        LuceneIndexer.indexDirectory(docs, quoted);
        String commit = commitIn(quoted).getFileName().toString();
        // a commit checked against its checksum: its header is Lucene's, the rest is damaged
        flipLastByte(quoted.resolve(commit));
        assertThatThrownBy(() -> LuceneRetriever.open(quoted).search("returns", 5)).isInstanceOf(RetrievalException.class)
                .hasMessageContaining("is damaged: its file " + commit + " is not as Lucene wrote it");
    }

    /**
     * Before: a file of the user's named segments_notes (a name Lucene gives a commit: "notes" is a generation in base 36)
     * alone in a folder was taken for an index, so searching it said the index was damaged and that Rein could not tell
     * whether the file was the index's, and indexing into the folder said it held a document index. Nothing in the folder
     * begins as Lucene's files do, so it holds no index: opening it says there is none, and indexing into it refuses the
     * folder as one of the user's. The file is kept as it was.
     */
    @Test
    void aFileOfTheUsersNamedAsACommitAloneIsNoIndex() throws Exception {
        writeFaq();
        Path folder = other.resolve("notes");
        Files.createDirectories(folder);
        Files.writeString(folder.resolve("segments_notes"), "my notes on segments", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> LuceneRetriever.open(folder)).isInstanceOf(RetrievalException.class)
                .hasMessage("there is no document index in " + folder.toAbsolutePath() + "; build one first (on the command line:"
                        + " rein index DIR)");
        assertThatThrownBy(() -> LuceneIndexer.indexDirectory(docs, folder)).isInstanceOf(RetrievalException.class)
                .hasMessageStartingWith(folder.toAbsolutePath() + " holds files but no document index (segments_notes)")
                .hasMessageNotContaining("damaged").hasMessageNotContaining("cannot tell");
        assertThat(folder.resolve("segments_notes")).hasContent("my notes on segments");
        try (var files = Files.list(folder)) {
            assertThat(files.map(f -> f.getFileName().toString())).containsExactly("segments_notes");
        }
    }

    /**
     * Before: a folder was taken for an index only when some file of a name Lucene gives its files still began with
     * Lucene's header, so an index none of whose files kept it was said to be no index: every file but the lock zeroed,
     * every file cut to nothing, or the commit zeroed and the segment's files cut to nothing made opening say "there is no
     * document index ...; build one first", and indexing then refused the folder as the user's, so the advice failed. Such
     * a folder holds files named as a segment's (_0.si), which makes it an index, damaged: opening takes it, searching
     * says it is damaged, indexing does not call it a folder without an index, and nothing is deleted.
     */
    @Test
    void anIndexNoneOfWhoseFilesKeptLucenesHeaderIsDamagedNotAbsent() throws Exception {
        writeFaq();
        for (String damage : List.of("zeroed", "emptied", "commitZeroedSegmentsEmptied")) {
            Path folder = other.resolve(damage);
            LuceneIndexer.indexDirectory(docs, folder);
            List<Path> files = filesIn(folder, n -> !n.equals("write.lock"));
            for (Path f : files) {
                boolean commit = f.getFileName().toString().startsWith("segments_");
                boolean zero = damage.equals("zeroed") || damage.equals("commitZeroedSegmentsEmptied") && commit;
                Files.write(f, new byte[zero ? (int) Files.size(f) : 0]);
            }
            assertThatThrownBy(() -> LuceneRetriever.open(folder).search("returns", 5)).as(damage)
                    .isInstanceOf(RetrievalException.class)
                    .hasMessageStartingWith("the document index in " + folder + " is damaged")
                    .hasMessageNotContaining("no document index")
                    // files cut to nothing hold nothing of anyone's: deleting the folder loses nothing, as before
                    .satisfies(e -> assertThat(e.getMessage().contains("delete " + folder)).isEqualTo(damage.equals("emptied")));
            assertThatThrownBy(() -> LuceneIndexer.indexDirectory(docs, folder)).as(damage).isInstanceOf(RetrievalException.class)
                    .hasMessageContaining("damaged").hasMessageNotContaining("no document index")
                    .satisfies(e -> assertThat(e.getMessage().contains("delete " + folder)).isEqualTo(damage.equals("emptied")));
            assertThat(filesIn(folder, n -> !n.equals("write.lock"))).as(damage).isEqualTo(files);
        }
    }

    /**
     * Before: an index whose files were zeroed after a retriever had opened it was searched as "no document index ... (it
     * was deleted since it was opened)", though its folder and files are all there. It is now said to be damaged.
     */
    @Test
    void anIndexZeroedAfterItWasOpenedIsSaidDamagedNotDeleted() throws Exception {
        indexFaq(index);
        LuceneRetriever retriever = LuceneRetriever.open(index);
        assertThat(retriever.search("returns", 5)).hasSize(1);
        for (Path f : filesIn(index, n -> !n.equals("write.lock"))) {
            Files.write(f, new byte[(int) Files.size(f)]);
        }
        assertThatThrownBy(() -> retriever.search("returns", 5)).isInstanceOf(RetrievalException.class)
                .hasMessageStartingWith("the document index in " + index + " is damaged")
                .hasMessageNotContaining("deleted since it was opened");
    }

    /**
     * Before: an intact index in a folder that also held a file of the user's named segments_notes.txt (Lucene takes every
     * name starting with "segments" for a commit's and reads a base-36 generation after it: "notes.txt" is none, so no
     * reader opens the folder) was called "no document index ...; build one first", and indexing there then refused the
     * folder, so the advice did not work. Opening now says the index is there and what to move out; indexing says the
     * folder holds an index and that file; nothing is deleted, and with the file moved out the index is searched.
     */
    @Test
    void anIntactIndexBesideAFileNamedSegmentsSomethingThatIsNoGenerationSaysToMoveThatFile() throws Exception {
        indexFaq(index);
        Path notes = index.resolve("segments_notes.txt");
        Files.writeString(notes, "my notes", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> LuceneRetriever.open(index)).isInstanceOf(RetrievalException.class)
                .hasMessageStartingWith("cannot open the document index in " + index.toAbsolutePath() + ":")
                .hasMessageContaining("segments_notes.txt").hasMessageContaining("move that file out of " + index.toAbsolutePath())
                .hasMessageNotContaining("no document index");
        assertThatThrownBy(() -> LuceneIndexer.indexDirectory(docs, index)).isInstanceOf(RetrievalException.class)
                .hasMessageStartingWith(index.toAbsolutePath() + " holds a document index and files of other names (segments_notes.txt)");
        assertThat(notes).hasContent("my notes");
        Files.move(notes, other.resolve("segments_notes.txt"));
        assertThat(LuceneRetriever.open(index).search("returns", 5)).hasSize(1);
    }

    /**
     * Before: an intact index beside a file of the user's named segments.txt or segments_Notes (Lucene reads "txt" and
     * "Notes" as base-36 generations newer than the index's commit and looks for segments_txt, segments_notes) was
     * opened, and searching it said only "no such file or directory: .../segments_txt", a file that never was. Opening
     * now says which file to move out, as for segments_notes.txt; nothing is deleted, and with it moved out the index is
     * searched.
     */
    @Test
    void anIntactIndexBesideAFileLuceneReadsAsANewerCommitSaysToMoveThatFile() throws Exception {
        writeFaq();
        for (String name : List.of("segments.txt", "segments_Notes")) {
            Path folder = other.resolve("index" + name.length());
            LuceneIndexer.indexDirectory(docs, folder);
            LuceneRetriever opened = LuceneRetriever.open(folder);
            Files.writeString(folder.resolve(name), "mine", StandardCharsets.UTF_8);
            assertThatThrownBy(() -> LuceneRetriever.open(folder)).as(name).isInstanceOf(RetrievalException.class)
                    .hasMessageStartingWith("cannot open the document index in " + folder.toAbsolutePath() + ":")
                    .hasMessageContaining(name).hasMessageContaining("move that file out of " + folder.toAbsolutePath());
            assertThatThrownBy(() -> opened.search("returns", 5)).as(name).isInstanceOf(RetrievalException.class)
                    .hasMessageStartingWith("cannot search the document index in " + folder.toAbsolutePath() + ":")
                    .hasMessageContaining(name).hasMessageContaining("move that file out of " + folder.toAbsolutePath());
            assertThat(folder.resolve(name)).hasContent("mine");
            Files.move(folder.resolve(name), other.resolve(name));
            assertThat(opened.search("returns", 5)).as(name).hasSize(1);
        }
    }

    /**
     * Before: such a file put in the folder after a retriever had opened the index made search throw Lucene's bare
     * NumberFormatException. It is now a RetrievalException that names the file and what to do; nothing is deleted.
     */
    @Test
    void aFileNamedSegmentsSomethingThatIsNoGenerationAfterOpeningIsAClearError() throws Exception {
        indexFaq(index);
        LuceneRetriever retriever = LuceneRetriever.open(index);
        List<String> before = namesIn(index);
        Files.writeString(index.resolve("segments_notes.txt"), "my notes", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> retriever.search("returns", 5)).isInstanceOf(RetrievalException.class)
                .hasMessageStartingWith("cannot search the document index in " + index.toAbsolutePath() + ":")
                .hasMessageContaining("segments_notes.txt").hasMessageContaining("move that file out of " + index.toAbsolutePath());
        assertThat(index.resolve("segments_notes.txt")).hasContent("my notes");
        assertThat(namesIn(index)).filteredOn(n -> !n.equals("segments_notes.txt")).isEqualTo(before);
    }

    /**
     * Before: a commit cut to its first one to three bytes (a start of Lucene's header: a crash or a partial copy) was taken
     * for text of the user's, so the index was said to hold a file Rein could not tell was its own, and indexing refused
     * the folder. Those bytes are Lucene's: the index is said to be damaged, with what to do.
     */
    @Test
    void aCommitCutToTheFirstBytesOfLucenesHeaderIsADamagedIndex() throws Exception {
        writeFaq();
        for (int kept = 1; kept <= 3; kept++) {
            Path folder = other.resolve("cut" + kept);
            LuceneIndexer.indexDirectory(docs, folder);
            Path commit = commitIn(folder);
            Files.write(commit, java.util.Arrays.copyOf(Files.readAllBytes(commit), kept));
            assertThatThrownBy(() -> LuceneRetriever.open(folder).search("returns", 5)).as("%d bytes", kept)
                    .isInstanceOf(RetrievalException.class).hasMessageContaining("is damaged")
                    .hasMessageContaining("delete " + folder).hasMessageNotContaining("cannot tell");
            assertThatThrownBy(() -> LuceneIndexer.indexDirectory(docs, folder)).as("%d bytes", kept)
                    .isInstanceOf(RetrievalException.class).hasMessageContaining("is damaged")
                    .hasMessageContaining("delete " + folder).hasMessageNotContaining("cannot tell");
        }
    }

    /**
     * Before (since d41cf592): a file named as a segment's whose one or two bytes were a start of Lucene's header (a
     * {@code _notes.doc} or {@code _0.si} of the user's holding "?", 3f, or 3f d7) was taken for Lucene's own, so indexing
     * into its folder deleted it. Only a commit cut short is taken for Lucene's by a start of its header; a segment's file
     * is Lucene's only when empty or beginning with the whole header, so the folder is refused and the file kept. Since
     * c1be7b14 a {@code pending_segments_1} of the user's holding one to three such bytes was still deleted (the commit
     * rule matched pending_ names too); such a name is now a segment's file's case (Lucene renames a pending commit only
     * once whole).
     */
    @Test
    void aSegmentsFileOfOneOrTwoBytesThatStartLucenesHeaderIsTheUsersAndKept() throws Exception {
        writeFaq();
        int n = 0;
        for (String name : List.of("_notes.doc", "_0.si", "pending_segments_1")) {
            for (byte[] bytes : List.of(new byte[] {0x3f}, new byte[] {0x3f, (byte) 0xd7}, new byte[] {0x3f, (byte) 0xd7, 0x6c})) {
                for (boolean besideAnIndex : new boolean[] {false, true}) {
                    Path folder = other.resolve("folder" + n++);
                    if (besideAnIndex) {
                        LuceneIndexer.indexDirectory(docs, folder);
                        LuceneIndexer.indexDirectory(docs, folder);
                    } else {
                        Files.createDirectories(folder);
                    }
                    Files.write(folder.resolve(name), bytes);
                    String what = name + " of " + bytes.length + " bytes" + (besideAnIndex ? " beside an index" : "");
                    assertThatThrownBy(() -> LuceneIndexer.indexDirectory(docs, folder)).as(what).isInstanceOf(RetrievalException.class)
                            .hasMessageStartingWith(folder.toAbsolutePath() + (besideAnIndex ? " holds a document index and " + name
                                    : " holds files but no document index (" + name + ")"))
                            .hasMessageContaining("nothing was written there");
                    assertThat(folder.resolve(name)).as(what).hasBinaryContent(bytes);
                }
            }
        }
    }

    /**
     * Before: a search after the index's files were deleted, with a segments.txt of the user's left in the folder, said to
     * move segments.txt out and try again, which finds no index either. It now says the index was deleted since it was
     * opened.
     */
    @Test
    void aSearchAfterTheIndexWasDeletedBesideASegmentsTxtSaysItWasDeleted() throws Exception {
        indexFaq(index);
        LuceneRetriever opened = LuceneRetriever.open(index);
        try (var files = Files.list(index)) {
            for (Path f : files.toList()) {
                Files.delete(f);
            }
        }
        Files.writeString(index.resolve("segments.txt"), "mine", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> opened.search("returns", 5)).isInstanceOf(RetrievalException.class)
                .hasMessage("there is no document index in " + index.toAbsolutePath()
                        + " (it was deleted since it was opened); build it again (on the command line: rein index DIR)");
        assertThat(index.resolve("segments.txt")).hasContent("mine");
    }

    /** Before: a folder named segments.old beside an index was called "that file"; it is now called a folder. */
    @Test
    void aFolderNamedAsACommitBesideAnIndexIsCalledAFolder() throws Exception {
        indexFaq(index);
        LuceneIndexer.indexDirectory(docs, index);
        Files.createDirectory(index.resolve("segments.old"));
        assertThatThrownBy(() -> LuceneRetriever.open(index)).isInstanceOf(RetrievalException.class)
                .hasMessageContaining("segments.old").hasMessageContaining("move that folder out of " + index.toAbsolutePath())
                .hasMessageNotContaining("file");
    }

    /**
     * Before: a folder named as a commit of Lucene's form ({@code segments_old}: "old" read as a generation newer than the
     * index's) beside an index was opened, and searching said Lucene's "No such device: MemorySegmentIndexInput(...) [this
     * may be caused by lack of enough unfragmented virtual address space ...]". A folder is no commit: open and search now
     * say to move that folder out; nothing is changed, and with it moved out the index is searched.
     */
    @Test
    void aFolderNamedAsANewerCommitBesideAnIndexSaysToMoveThatFolder() throws Exception {
        indexFaq(index);
        LuceneRetriever opened = LuceneRetriever.open(index);
        Files.createDirectory(index.resolve("segments_old"));
        assertThatThrownBy(() -> LuceneRetriever.open(index)).isInstanceOf(RetrievalException.class)
                .hasMessageStartingWith("cannot open the document index in " + index.toAbsolutePath() + ":")
                .hasMessageContaining("segments_old").hasMessageContaining("move that folder out of " + index.toAbsolutePath());
        assertThatThrownBy(() -> opened.search("returns", 5)).isInstanceOf(RetrievalException.class)
                .hasMessageStartingWith("cannot search the document index in " + index.toAbsolutePath() + ":")
                .hasMessageContaining("move that folder out of " + index.toAbsolutePath());
        assertThat(index.resolve("segments_old")).isDirectory();
        Files.move(index.resolve("segments_old"), other.resolve("segments_old"));
        assertThat(opened.search("returns", 5)).hasSize(1);
    }

    /**
     * Before: a {@code segments_7} of one byte ({@code 3f}) beside an intact index (its readable commit segments_2) was
     * called a damaged index, with "delete the folder and index again". Lucene renames a pending commit to segments_N only
     * once written and synced, so such a file is none of its crashes: it is named and said to be moved out; nothing is
     * changed, and with it moved out the index is searched and written as before.
     */
    @Test
    void aCommitCutShortAboveAReadableCommitSaysToMoveThatFileOut() throws Exception {
        indexFaq(index);
        LuceneIndexer.indexDirectory(docs, index);
        List<String> before = namesIn(index);
        assertThat(before).contains("segments_2");
        LuceneRetriever opened = LuceneRetriever.open(index);
        Files.write(index.resolve("segments_7"), new byte[] {0x3f});
        String at = index.toAbsolutePath().toString();
        for (var attempt : List.<org.assertj.core.api.ThrowableAssert.ThrowingCallable>of(
                () -> LuceneRetriever.open(index).search("returns", 5), () -> opened.search("returns", 5),
                () -> LuceneIndexer.indexDirectory(docs, index))) {
            assertThatThrownBy(attempt).isInstanceOf(RetrievalException.class).hasMessageContaining("segments_7")
                    .hasMessageContaining("segments_2").hasMessageContaining("move that file out of " + at)
                    .hasMessageNotContaining("delete " + at).hasMessageNotContaining("index the folder again");
        }
        assertThat(index.resolve("segments_7")).hasBinaryContent(new byte[] {0x3f});
        assertThat(namesIn(index)).filteredOn(n -> !n.equals("segments_7")).isEqualTo(before);
        Files.move(index.resolve("segments_7"), other.resolve("segments_7"));
        assertThat(opened.search("returns", 5)).hasSize(1);
        LuceneIndexer.indexDirectory(docs, index);
        assertThat(opened.search("returns", 5)).hasSize(1);
    }

    /**
     * Before: after the index's files were deleted and a text file of the user's named as a commit (segments_1 holding
     * "my notes") put in the folder, a held search called the index damaged, while opening said there is no index. The
     * search now says the index was deleted since it was opened, as opening does.
     */
    @Test
    void aSearchAfterTheIndexWasDeletedBesideATextFileNamedAsACommitSaysItWasDeleted() throws Exception {
        indexFaq(index);
        LuceneRetriever opened = LuceneRetriever.open(index);
        try (var files = Files.list(index)) {
            for (Path f : files.toList()) {
                Files.delete(f);
            }
        }
        Files.writeString(index.resolve("segments_1"), "my notes", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> opened.search("returns", 5)).isInstanceOf(RetrievalException.class)
                .hasMessage("there is no document index in " + index.toAbsolutePath()
                        + " (it was deleted since it was opened); build it again (on the command line: rein index DIR)");
        assertThat(index.resolve("segments_1")).hasContent("my notes");
    }

    /**
     * Before: indexing into a folder holding an index and a folder named as one of Lucene's files ({@code segments_9},
     * {@code _0.si}) called that folder a file that may be the index's own, damaged ("a crash can leave a file zeroed"),
     * and said to move "those files" out. It is now called a folder, with the other names, and no crash is spoken of.
     */
    @Test
    void aFolderNamedAsLucenesFileBesideAnIndexIsRefusedAsAFolder() throws Exception {
        writeFaq();
        int n = 0;
        for (String name : List.of("segments_9", "_0.si")) {
            Path folder = other.resolve("folder" + n++);
            LuceneIndexer.indexDirectory(docs, folder);
            LuceneIndexer.indexDirectory(docs, folder);
            Files.createDirectory(folder.resolve(name));
            assertThatThrownBy(() -> LuceneIndexer.indexDirectory(docs, folder)).as(name).isInstanceOf(RetrievalException.class)
                    .hasMessageStartingWith(folder.toAbsolutePath() + " holds a document index and ")
                    .hasMessageContaining("(" + name + ")").hasMessageContaining("move that folder out of " + folder.toAbsolutePath())
                    .hasMessageNotContaining("crash").hasMessageNotContaining("file of another program's");
            assertThat(folder.resolve(name)).isDirectory();
        }
    }

    /**
     * Before: a folder named as a commit ({@code segments_1}) in a folder with no index was refused as "files but no
     * document index", with advice to look at "those files'" first four bytes with od, which a folder has none of. It is
     * now named as a folder, with no od advice and the way out for it; beside a file of such a name, each is named for
     * what it is, and the od advice speaks of the file.
     */
    @Test
    void aFolderNamedAsACommitWithNoIndexIsNamedAsAFolderWithoutAdviceForFiles() throws Exception {
        writeFaq();
        Path alone = other.resolve("alone");
        Files.createDirectories(alone.resolve("segments_1"));
        assertThatThrownBy(() -> LuceneIndexer.indexDirectory(docs, alone)).isInstanceOf(RetrievalException.class)
                .hasMessageStartingWith(alone.toAbsolutePath() + " holds a folder but no document index (segments_1): ")
                .hasMessageContaining("nothing was written there").hasMessageContaining("give the index a folder of its own")
                .hasMessageEndingWith("or move that folder out of " + alone.toAbsolutePath())
                .hasMessageNotContaining("od -A").hasMessageNotContaining("first four bytes")
                .hasMessageNotContaining("those files").hasMessageNotContaining("holds files");
        assertThat(alone.resolve("segments_1")).isDirectory();

        Path both = other.resolve("both");
        Files.createDirectories(both.resolve("segments_1"));
        Files.write(both.resolve("_0.si"), new byte[16]);
        assertThatThrownBy(() -> LuceneIndexer.indexDirectory(docs, both)).isInstanceOf(RetrievalException.class)
                .hasMessageStartingWith(both.toAbsolutePath() + " holds files (_0.si) and a folder (segments_1) but no document"
                        + " index: ")
                .hasMessageContaining("(the index is built from the documents), or move that file and that folder out of "
                        + both.toAbsolutePath() + ". Nothing shows that those files are Lucene's, so they are kept: to check"
                        + " one, look at its first four bytes (od -A n -t x1 -N 4 FILE shows them)");
        assertThat(both.resolve("_0.si")).hasBinaryContent(new byte[16]);
        assertThat(both.resolve("segments_1")).isDirectory();
    }

    /**
     * Before: a zeroed {@code pending_segments_3} beside an index (a commit being written when a crash came, or another
     * program's file) was described as "this index's own file, damaged", though Lucene reads an index from its
     * segments_N and a pending commit is none of it. It is now named as a commit that was being written, not the index's.
     */
    @Test
    void aZeroedPendingCommitBesideAnIndexIsNamedAsACommitInProgressNotTheIndexsFile() throws Exception {
        indexFaq(index);
        LuceneIndexer.indexDirectory(docs, index);
        Files.write(index.resolve("pending_segments_3"), new byte[64]);
        assertThatThrownBy(() -> LuceneIndexer.indexDirectory(docs, index)).isInstanceOf(RetrievalException.class)
                .hasMessageStartingWith(index.toAbsolutePath() + " holds a document index and pending_segments_3, which has the"
                        + " name Lucene gives a commit while it writes it, not a file of the index")
                .hasMessageContaining("Rein cannot tell which").hasMessageContaining("move that file out of " + index.toAbsolutePath())
                .hasMessageNotContaining("index's own file").hasMessageNotContaining("damaged");
        assertThat(index.resolve("pending_segments_3")).hasBinaryContent(new byte[64]);
        assertThat(LuceneRetriever.open(index).search("returns", 5)).hasSize(1);
    }

    /**
     * A search of a damaged index (its commit's last byte flipped) beside a zeroed pending commit names the damaged commit,
     * then the pending one as a commit Lucene was writing, never as the index's own file, and keeps both.
     */
    @Test
    void aDamagedIndexsSearchNamesAZeroedPendingCommitAsACommitInProgress() throws Exception {
        indexFaq(index);
        Path commit = commitIn(index);
        flipCommitsLastByte(index);
        byte[] damaged = Files.readAllBytes(commit);
        Files.write(index.resolve("pending_segments_5"), new byte[64]);

        assertThatThrownBy(() -> LuceneRetriever.open(index).search("returns", 5)).isInstanceOf(RetrievalException.class)
                .hasMessageStartingWith("the document index in " + index.toAbsolutePath() + " is damaged: its file "
                        + commit.getFileName() + " is not as Lucene wrote it")
                .hasMessageContaining("; " + index.toAbsolutePath() + " holds pending_segments_5, which has the name Lucene"
                        + " gives a commit while it writes it, not a file of the index (Lucene reads the index from its"
                        + " segments_N), but does not begin as one does: it is a commit a crash left zeroed or cut short while"
                        + " Lucene wrote it, or a file of another program's with such a name, and Rein cannot tell which, so"
                        + " do not delete the folder or that file: index the folder again into a folder of its own")
                .hasMessageNotContaining("index's own file");
        assertThat(index.resolve("pending_segments_5")).hasBinaryContent(new byte[64]);
        assertThat(commit).hasBinaryContent(damaged);
    }

    /**
     * A zeroed segment's file and a zeroed pending commit beside an index are named in one sentence, each for what it may
     * be (the index's own file, damaged; a commit Lucene was writing), and indexing leaves both as they were.
     */
    @Test
    void aZeroedSegmentFileAndPendingCommitBesideAnIndexAreNamedEachForWhatItMayBe() throws Exception {
        indexFaq(index);
        Files.write(index.resolve("pending_segments_5"), new byte[64]);
        Files.write(index.resolve("_9.si"), new byte[64]);

        assertThatThrownBy(() -> LuceneIndexer.indexDirectory(docs, index)).isInstanceOf(RetrievalException.class)
                .hasMessage(index.toAbsolutePath() + " holds a document index and _9.si, which has a name Lucene gives the"
                        + " files of an index but does not begin as they do: it is this index's own file, damaged (a crash can"
                        + " leave a file zeroed), or a file of another program's with such a name, and Rein cannot tell which,"
                        + " and pending_segments_5, which has the name Lucene gives a commit while it writes it, not a file of"
                        + " the index (Lucene reads the index from its segments_N), but does not begin as one does: it is a"
                        + " commit a crash left zeroed or cut short while Lucene wrote it, or a file of another program's with"
                        + " such a name, and Rein cannot tell which; Lucene deletes files of such names in the folder it writes"
                        + " an index in, so nothing was written there; give the index a folder of its own, new or empty (such"
                        + " as .rein/index), and index again there, or move those files out of " + index.toAbsolutePath());
        assertThat(index.resolve("pending_segments_5")).hasBinaryContent(new byte[64]);
        assertThat(index.resolve("_9.si")).hasBinaryContent(new byte[64]);
        assertThat(LuceneRetriever.open(index).search("returns", 5)).hasSize(1);
    }
}
