package dev.rein.retrieval.lucene;

import dev.rein.retrieval.RetrievalException;
import dev.rein.retrieval.RetrievedDocument;
import dev.rein.retrieval.Retriever;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.FilteringTokenFilter;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.TokenFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.apache.lucene.analysis.ja.JapaneseAnalyzer;
import org.apache.lucene.analysis.ja.JapaneseBaseFormFilter;
import org.apache.lucene.analysis.ja.JapaneseKatakanaStemFilter;
import org.apache.lucene.analysis.ja.JapaneseTokenizer;
import org.apache.lucene.analysis.ja.tokenattributes.PartOfSpeechAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexFormatTooNewException;
import org.apache.lucene.index.IndexFormatTooOldException;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.QueryBuilder;

/**
 * The default {@link Retriever}: an Apache Lucene index on disk, ranked by BM25 (Lucene's default
 * similarity), analysed with kuromoji's {@link JapaneseAnalyzer} so that Japanese text is split into
 * words (Latin text is lower-cased words as usual); words of scripts kuromoji does not know (Korean, Arabic, Thai, ...)
 * are kept, Korean and scripts written without spaces as two-character terms. Build the index with {@link LuceneIndexer};
 * each search opens the index as it is on disk, so a re-index is seen by the next search.
 *
 * <pre>{@code
 * LuceneIndexer.indexDirectory(Path.of("docs"), Path.of(".rein/index"));
 * Tool search = SearchDocumentsTool.of(LuceneRetriever.open(Path.of(".rein/index")));
 * }</pre>
 */
public final class LuceneRetriever implements Retriever {
    static final String SOURCE = "source";
    static final String PATH = "path";
    /** The real path of the folder a passage was indexed from. */
    static final String ROOT = "root";
    static final String TEXT = "text";

    /** The most words of a query that are searched for (Lucene's limit is 1,024 clauses). */
    public static final int MAX_QUERY_TERMS = 1_000;

    private final Path index;

    private LuceneRetriever(Path index) {
        this.index = index;
    }

    /**
     * A retriever over the index in {@code index}.
     *
     * @throws RetrievalException when there is no index there
     * @throws dev.rein.ReinException when {@code index} is null
     */
    public static LuceneRetriever open(Path index) {
        if (index == null) {
            throw new dev.rein.ReinException("LuceneRetriever.open was given no index folder (null): pass the folder"
                    + " LuceneIndexer.indexDirectory wrote, e.g. Path.of(\".rein/index\")");
        }
        if (Files.exists(index) && !Files.isDirectory(index)) {
            throw notAFolder(index);
        }
        // before FSDirectory.open, which creates a missing folder (and those on its way): reading makes nothing
        if (!Files.isDirectory(index)) {
            String inTheWay = dev.rein.internal.text.FileProblems.fileOnTheWay(index.toString());
            if (inTheWay != null) {
                throw new RetrievalException("cannot open the document index in " + index + ": " + inTheWay + " is a file, not a"
                        + " directory; give a folder for the index whose path runs through folders only");
            }
            throw notThere(index, "there is no document index in " + index.toAbsolutePath()
                    + "; build one first (on the command line: rein index DIR)");
        }
        try (Directory dir = FSDirectory.open(index)) {
            if (!indexIn(dir, index)) {
                throw new RetrievalException("there is no document index in " + index.toAbsolutePath()
                        + "; build one first (on the command line: rein index DIR)");
            }
            List<String> notCommits = notCommits(index, dir.listAll());
            if (!notCommits.isEmpty()) {
                throw notCommitsIn("cannot open", index, notCommits, null);
            }
        } catch (IOException e) {
            throw failure("cannot open", index, e);
        }
        return new LuceneRetriever(index);
    }

    /**
     * Why {@code index} is no folder: {@code noIndex} only when it provably does not exist; a symbolic link whose target is
     * missing, or a path that cannot be looked at (a folder on its way that cannot be entered), is said so, as it is no
     * missing index to build.
     */
    private static RetrievalException notThere(Path index, String noIndex) {
        String dangling = dev.rein.internal.text.FileProblems.danglingLink(index.toString());
        if (dangling != null) {
            return new RetrievalException("cannot open the document index in " + index + ": " + dangling
                    + "; restore the link's target, or give the path of the index's folder itself");
        }
        // notExists is false also when it cannot tell (no permission on a folder on the way): that is said as it is
        if (Files.notExists(index)) {
            return new RetrievalException(noIndex);
        }
        try {
            Files.readAttributes(index, java.nio.file.attribute.BasicFileAttributes.class);
        } catch (IOException e) {
            return failure("cannot open", index, e);
        }
        return new RetrievalException(noIndex); // there after all (made meanwhile): as when it was not
    }

    /** An index path that is a file: Lucene's own error names only the path. */
    static RetrievalException notAFolder(Path index) {
        return new RetrievalException(index.toAbsolutePath() + " is a file, not a folder, so it cannot hold the document index;"
                + " move it aside and index again (rein index DIR), or give another folder for the index");
    }

    static Analyzer analyzer() {
        return new NormalizingJapaneseAnalyzer();
    }

    /**
     * kuromoji's analyzer on NFKC-normalised text (as the memory stores match): text extracted from a
     * PDF or written on macOS holds decomposed kana (デ as テ and U+3099) and Kangxi radicals for kanji
     * (⽇ for 日), which kuromoji alone splits into single characters that no typed query meets. The
     * stored passage keeps the file's own text; only the words indexed and searched are normalised.
     */
    private static final class NormalizingJapaneseAnalyzer extends JapaneseAnalyzer {
        /**
         * JapaneseAnalyzer's chain, with two changes for text in other scripts: kuromoji tags a word of a script it
         * does not know (Korean Hangul, Arabic, Hebrew, Devanagari, Thai, ...) as a symbol (記号-一般), which the
         * part-of-speech filter dropped, so such a document was indexed but never found; such words are kept. And
         * {@link ScriptBigrams} splits those of scripts whose words are not set apart by spaces into two-character terms.
         */
        @Override
        protected TokenStreamComponents createComponents(String fieldName) {
            Tokenizer tokenizer = new JapaneseTokenizer(null, true, true, JapaneseTokenizer.DEFAULT_MODE);
            TokenStream stream = new JapaneseBaseFormFilter(tokenizer);
            stream = new KeepOtherScripts(stream, getDefaultStopTags());
            stream = new StopFilter(stream, getStopwordSet());
            stream = new JapaneseKatakanaStemFilter(stream);
            stream = new LowerCaseFilter(stream);
            stream = new ScriptBigrams(stream);
            return new TokenStreamComponents(tokenizer, stream);
        }

        @Override
        protected java.io.Reader initReader(String fieldName, java.io.Reader reader) {
            return super.initReader(fieldName, nfkc(reader));
        }

        @Override
        protected java.io.Reader initReaderForNormalization(String fieldName, java.io.Reader reader) {
            return super.initReaderForNormalization(fieldName, nfkc(reader));
        }

        /** Whole: a passage is at most 1,200 characters, a query what the model wrote. */
        private static java.io.Reader nfkc(java.io.Reader reader) {
            StringBuilder text = new StringBuilder();
            char[] buffer = new char[4096];
            try {
                for (int n; (n = reader.read(buffer)) != -1; ) {
                    text.append(buffer, 0, n);
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return new java.io.StringReader(java.text.Normalizer.normalize(text, java.text.Normalizer.Form.NFKC));
        }
    }

    /**
     * JapanesePartOfSpeechStopFilter (particles, auxiliary verbs, symbols), except that a token holding a letter of a
     * script Japanese is not written in is kept: kuromoji tags such a word as a symbol only because it does not know it.
     */
    private static final class KeepOtherScripts extends FilteringTokenFilter {
        private final Set<String> stopTags;
        private final PartOfSpeechAttribute partOfSpeech = addAttribute(PartOfSpeechAttribute.class);
        private final CharTermAttribute term = addAttribute(CharTermAttribute.class);

        KeepOtherScripts(TokenStream input, Set<String> stopTags) {
            super(input);
            this.stopTags = stopTags;
        }

        @Override
        protected boolean accept() {
            String pos = partOfSpeech.getPartOfSpeech();
            return pos == null || !stopTags.contains(pos) || term.codePoints().anyMatch(LuceneRetriever::otherScriptLetter);
        }
    }

    /**
     * A letter kuromoji does not know: of a script other than those Japanese is written in (kanji, kana, and Latin, Greek,
     * Cyrillic it knows), or a kanji beyond the Basic Multilingual Plane (𠮷, 𩸽), which its character table does not reach.
     */
    private static boolean otherScriptLetter(int cp) {
        if (!Character.isLetter(cp)) {
            return false;
        }
        return switch (Character.UnicodeScript.of(cp)) {
            case HAN -> Character.isSupplementaryCodePoint(cp);
            case HIRAGANA, KATAKANA, LATIN, GREEK, CYRILLIC, COMMON, INHERITED -> false;
            default -> true;
        };
    }

    /**
     * Splits a token of a script written without spaces between words (Thai, Lao, Khmer, Myanmar) or whose words carry
     * their particles (Korean: 회의실은 is 회의실 and 은) into overlapping two-character terms, as the memory stores split
     * Japanese: kuromoji gives such a run as one token, which only the same whole run would find. A word of one or two
     * characters stays as it is.
     */
    private static final class ScriptBigrams extends TokenFilter {
        private final CharTermAttribute term = addAttribute(CharTermAttribute.class);
        private final PositionIncrementAttribute increment = addAttribute(PositionIncrementAttribute.class);
        private final OffsetAttribute offset = addAttribute(OffsetAttribute.class);
        /** The code points of the token being split, or null; the next two-character term starts at {@code next}. */
        private int[] split;
        private int next;
        private State token;
        private int start;
        private int end;

        ScriptBigrams(TokenStream input) {
            super(input);
        }

        @Override
        public boolean incrementToken() throws IOException {
            if (split == null) {
                if (!input.incrementToken()) {
                    return false;
                }
                if (!bigrammed(term) || term.codePoints().count() <= 2) {
                    return true;
                }
                split = term.codePoints().toArray();
                token = captureState();
                start = offset.startOffset();
                end = offset.endOffset();
                next = 0;
            } else {
                restoreState(token);
                increment.setPositionIncrement(1);
            }
            String bigram = new String(split, next, 2);
            int from = charsOf(next);
            term.setEmpty().append(bigram);
            if (end - start == charsOf(split.length)) { // offsets within the token hold only when no filter changed its length
                offset.setOffset(start + from, start + from + bigram.length());
            }
            if (++next + 1 >= split.length) {
                split = null;
            }
            return true;
        }

        private int charsOf(int codePoints) {
            int chars = 0;
            for (int i = 0; i < codePoints; i++) {
                chars += Character.charCount(split[i]);
            }
            return chars;
        }

        private static boolean bigrammed(CharSequence token) {
            return token.codePoints().filter(Character::isLetter).findFirst().stream().anyMatch(cp -> switch (Character.UnicodeScript.of(cp)) {
                case HANGUL, THAI, LAO, KHMER, MYANMAR -> true;
                default -> false;
            });
        }

        @Override
        public void reset() throws IOException {
            super.reset();
            split = null;
            token = null;
        }
    }

    @Override
    public List<RetrievedDocument> search(String query, int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("a search's limit is the most passages to return, 0 or more; was " + limit);
        }
        if (query == null) {
            throw new dev.rein.ReinException("LuceneRetriever.search was given no query (null): pass the words to search for");
        }
        if (limit == 0) {
            return List.of(); // Lucene wants at least one hit; none were asked for
        }
        if (!Files.isDirectory(index)) { // FSDirectory.open would create it again, empty
            throw notThere(index, "there is no document index in " + index.toAbsolutePath()
                    + " (it was deleted since it was opened); build it again (on the command line: rein index DIR)");
        }
        try (Analyzer analyzer = analyzer(); Directory dir = FSDirectory.open(index); DirectoryReader reader = DirectoryReader.open(dir)) {
            List<String> terms = terms(analyzer, query);
            // Lucene takes at most 1,024 clauses in a query (one per word): a longer query (a pasted page) is cut to its first distinct words.
            Query q = terms.size() <= MAX_QUERY_TERMS ? new QueryBuilder(analyzer).createBooleanQuery(TEXT, query) : firstTerms(terms);
            if (q == null) {
                return List.of(); // only stop words or punctuation: nothing to look for
            }
            IndexSearcher searcher = new IndexSearcher(reader);
            List<RetrievedDocument> results = new ArrayList<>();
            var stored = searcher.storedFields();
            for (ScoreDoc hit : searcher.search(q, limit).scoreDocs) {
                Document doc = stored.document(hit.doc);
                results.add(new RetrievedDocument(doc.get(SOURCE), doc.get(TEXT), hit.score));
            }
            return results;
        } catch (NumberFormatException e) { // Lucene's reading of a generation from a name such as segments_notes.txt
            if (gone(index)) { // moving that file out would find no index either
                throw deletedSinceOpened(e);
            }
            throw notCommitsIn("cannot search", index, notCommitsIn(index), e);
        } catch (IOException | org.apache.lucene.util.ThreadInterruptedException e) {
            if (interrupted(e)) {
                throw new RetrievalException("cannot search the document index in " + index + ": the search was interrupted (its"
                        + " thread's interrupt: the work was cancelled) before it was done; search again", e);
            }
            // first, as the index's files deleted beside a segments.txt of the user's are no index that moving it out finds;
            // Lucene would name its directory object and lock factory, not what happened
            if (gone(index)) {
                throw deletedSinceOpened(e);
            }
            List<String> notCommits = notCommitsIn(index);
            if (!notCommits.isEmpty()) { // Lucene looked for a commit such a name stands for (segments.txt: segments_txt)
                throw notCommitsIn("cannot search", index, notCommits, e);
            }
            throw failure("cannot search", index, (IOException) e);
        }
    }

    /** A search of an index whose folder is there but whose commit is gone: deleted since the retriever opened it. */
    private RetrievalException deletedSinceOpened(Exception cause) {
        return new RetrievalException("there is no document index in " + index.toAbsolutePath()
                + " (it was deleted since it was opened); build it again (on the command line: rein index DIR)", cause);
    }

    /**
     * Whether {@code e} ended the work because its thread was interrupted (the file channels close on an interrupt and say
     * no more than null; Lucene wraps an InterruptedException); the interrupt is set again for the caller, whose
     * cancelling it was.
     */
    static boolean interrupted(Exception e) {
        if (e instanceof java.nio.channels.ClosedByInterruptException || e instanceof org.apache.lucene.util.ThreadInterruptedException
                || Thread.currentThread().isInterrupted()) {
            Thread.currentThread().interrupt();
            return true;
        }
        return false;
    }

    /** The words of {@code text} as the index holds them, in order. */
    private static List<String> terms(Analyzer analyzer, String text) throws IOException {
        List<String> terms = new ArrayList<>();
        try (TokenStream tokens = analyzer.tokenStream(TEXT, text)) {
            CharTermAttribute term = tokens.addAttribute(CharTermAttribute.class);
            tokens.reset();
            while (tokens.incrementToken()) {
                terms.add(term.toString());
            }
            tokens.end();
        }
        return terms;
    }

    private static Query firstTerms(List<String> terms) {
        BooleanQuery.Builder q = new BooleanQuery.Builder();
        new LinkedHashSet<>(terms).stream().limit(MAX_QUERY_TERMS).forEach(t -> q.add(new TermQuery(new Term(TEXT, t)), BooleanClause.Occur.SHOULD));
        return q.build();
    }

    /**
     * The failure of {@code what} on the index; an index that Lucene cannot read is named as such,
     * with what to do: it is built from the files, so it can be deleted and built again.
     */
    static RetrievalException failure(String what, Path index, IOException e) {
        if (e instanceof CorruptIndexException || e instanceof IndexFormatTooOldException || e instanceof IndexFormatTooNewException) {
            String file = fileOf(e);
            String older = damaged(e) && file != null && COMMIT_FILE.matcher(file).matches() ? readableOlderCommit(index, file) : null;
            if (older != null) {
                // Lucene writes a commit as pending_segments_N and renames it only once whole and synced, so a crash leaves
                // no segments_N cut short above a commit it can read: moving that one file out loses nothing
                Path at = index.toAbsolutePath();
                return new RetrievalException(what + " the document index in " + at + ": its newest commit, " + file + ", is not as"
                        + " Lucene wrote it (cut short, overwritten or zeroed), though its older commit " + older + " is readable; Lucene"
                        + " names a commit segments_N only once it is whole, so " + file + " was"
                        + " not left by an indexing cut short (it is a partial copy or another program's file): move that file out of " + at
                        + " and try again. Nothing was changed (Lucene: " + lucenesWords(e) + ")", e);
            }
            List<String> others = othersIn(index);
            List<String> unsure = unsureIn(index);
            // a folder holding the user's files too must not be deleted with the index, nor one holding a file that may be
            // the user's: a segment's file a crash zeroed cannot be told from a user's _0.doc starting with zeros
            List<String> held = new ArrayList<>();
            if (!others.isEmpty()) {
                held.add("other files too (" + named(others) + ")");
            }
            if (!unsure.isEmpty()) {
                held.add(unsure(unsure));
            }
            String remedy = held.isEmpty() ? "delete " + index + " and index the folder again (rein index DIR)"
                    : index + " holds " + String.join(", and ", held) + ", so do not delete "
                            + (unsure.isEmpty() ? "it" : "the folder or " + (unsure.size() == 1 ? "that file" : "those files"))
                            + ": index the folder again into a"
                            + " folder of its own, new or empty (such as .rein/index), and search that one";
            return new RetrievalException("the document index in " + index + " " + unreadable(e) + "; " + remedy
                    + " (Lucene: " + lucenesWords(e) + ")", e);
        }
        if (e instanceof org.apache.lucene.store.LockObtainFailedException) {
            // one writer at a time: another indexing (another 'rein index', or this process's) holds the index's write lock
            return new RetrievalException("the document index in " + index + " is being written by another indexing (another"
                    + " 'rein index' of this index, or LuceneIndexer in another process): " + e.getMessage()
                    + "; try again when it is done", e);
        }
        // some of Java's exceptions carry no message, others the path alone
        String why = dev.rein.internal.text.FileProblems.why(e);
        String inTheWay = why != null && why.endsWith(" is a file, not a directory")
                ? "; give a folder for the index whose path runs through folders only" : "";
        return new RetrievalException(what + " the document index in " + index + ": " + (why == null ? e.toString() : why) + inTheWay, e);
    }

    /**
     * What is wrong with an index Lucene cannot read, in plain words, after "the document index in X": Lucene's own text
     * names Java classes. A commit (segments_N) not starting with Lucene's header is reported by Lucene as a format too
     * old, its version being the first four bytes: that is damage, not an old index.
     */
    private static String unreadable(IOException e) {
        String file = fileOf(e);
        String which = file == null ? "one of its files" : "its file " + file;
        if (e instanceof IndexFormatTooNewException) {
            return "was written by a newer Lucene than this Rein's (" + org.apache.lucene.util.Version.LATEST + "), which cannot"
                    + " read it";
        }
        if (!damaged(e)) {
            return "was written by an older Lucene than this Rein's (" + org.apache.lucene.util.Version.LATEST + ") reads";
        }
        return "is damaged: " + which + " is not as Lucene wrote it (cut short, overwritten or zeroed, as a crash, a full disk or a"
                + " partial copy can leave it), so the index cannot be read";
    }

    /**
     * Whether Lucene's {@code e} (a corrupt index or a format it cannot read) says a file is damaged, not written by
     * another Lucene: a file not starting with the header is reported as a format too old, its first four bytes its version.
     */
    private static boolean damaged(IOException e) {
        if (e instanceof IndexFormatTooNewException) {
            return false;
        }
        return !(e instanceof IndexFormatTooOldException old) || old.getMinVersion() != null
                && old.getMinVersion() == CodecUtil.CODEC_MAGIC && old.getMaxVersion() != null && old.getMaxVersion() == CodecUtil.CODEC_MAGIC;
    }

    /**
     * The newest commit in {@code index} below {@code commit} (segments_N of a lower generation) that Lucene reads, with every
     * file it names there, or null: none, or it cannot be read either.
     */
    private static String readableOlderCommit(Path index, String commit) {
        try (Directory dir = FSDirectory.open(index)) {
            long generation = org.apache.lucene.index.SegmentInfos.generationFromSegmentsFileName(commit);
            String older = null;
            long best = -1;
            for (String name : dir.listAll()) {
                if (COMMIT_FILE.matcher(name).matches() && !Files.isDirectory(index.resolve(name))) {
                    long g = org.apache.lucene.index.SegmentInfos.generationFromSegmentsFileName(name);
                    if (g < generation && g > best) {
                        best = g;
                        older = name;
                    }
                }
            }
            if (older == null) {
                return null;
            }
            org.apache.lucene.index.SegmentInfos infos = org.apache.lucene.index.SegmentInfos.readCommit(dir, older);
            for (String file : infos.files(true)) {
                dir.fileLength(file); // throws when a file the commit names is missing
            }
            return older;
        } catch (IOException | RuntimeException e) {
            return null; // no readable older commit: the index is damaged, as said
        }
    }

    /** The name of the file Lucene's exception is about (its resource names the file's path), or null. */
    private static String fileOf(IOException e) {
        String resource = e instanceof CorruptIndexException c ? c.getResourceDescription()
                : e instanceof IndexFormatTooOldException old ? old.getResourceDescription()
                : e instanceof IndexFormatTooNewException fresh ? fresh.getResourceDescription() : null;
        // up to the quote closing the input's parenthesis: a folder's name may hold a quote (my "notes")
        java.util.regex.Matcher path = java.util.regex.Pattern.compile("path=\"(.+?)\"\\)").matcher(String.valueOf(resource));
        if (!path.find()) {
            return null;
        }
        try {
            Path name = Path.of(path.group(1)).getFileName();
            return name == null ? null : name.toString();
        } catch (java.nio.file.InvalidPathException notAPath) {
            return null;
        }
    }

    /** Lucene's own words about an index it cannot read, without the Java classes of the resource it names. */
    private static String lucenesWords(IOException e) {
        if (e instanceof CorruptIndexException c) {
            return c.getOriginalMessage();
        }
        if (e instanceof IndexFormatTooOldException old) {
            if (old.getReason() != null) {
                return old.getReason();
            }
            return old.getMinVersion() != null && old.getMinVersion() == CodecUtil.CODEC_MAGIC
                    ? "the file does not begin with its header" // its "version" is then the file's first four bytes
                    : "format version " + old.getVersion() + ", this Lucene reads " + old.getMinVersion() + " to " + old.getMaxVersion();
        }
        IndexFormatTooNewException fresh = (IndexFormatTooNewException) e;
        return "format version " + fresh.getVersion() + ", this Lucene reads " + fresh.getMinVersion() + " to " + fresh.getMaxVersion();
    }

    /** Whether there is an index in {@code index}. */
    static boolean exists(Path index) {
        if (!Files.isDirectory(index)) {
            return false;
        }
        try (Directory dir = FSDirectory.open(index)) {
            return indexIn(dir, index);
        } catch (IOException e) {
            return true; // something is there: let the writer report what is wrong with it
        }
    }

    /**
     * Lucene's indexExists, except that a file of the user's named segments_... is no commit: indexExists takes any such
     * name for one. A name Lucene reads no generation from ({@link #notCommits}: {@code segments_notes.txt}) is set aside:
     * with no other commit's name there, there is no index (every reader and writer would fail on that name with a bare
     * NumberFormatException); with one, the index is there, and opening says which file to move out for Lucene to read it.
     * A name that parses ({@code segments_notes}: "notes" is a generation in base 36) is no index only when nothing there
     * can be the index's: no file is named as a segment's ({@code _0.si}), and each file named as a commit has text in it
     * that does not begin with Lucene's header. A damaged index keeps its segments' files, or a commit that is empty, zeroed
     * or still begins with (a start of) the header (a crash leaves them so), and is said to be damaged, not absent.
     */
    private static boolean indexIn(Directory dir, Path index) throws IOException {
        if (!DirectoryReader.indexExists(dir)) {
            return false;
        }
        List<String> notCommits = notCommits(index, dir.listAll());
        if (!notCommits.isEmpty() && java.util.Arrays.stream(dir.listAll())
                .noneMatch(n -> n.startsWith(org.apache.lucene.index.IndexFileNames.SEGMENTS + "_") && !notCommits.contains(n))) {
            return false;
        }
        try (var entries = Files.list(index)) {
            // a file that cannot be read may be the index's: the reader says why it cannot read it, not that there is no index
            return entries.anyMatch(f -> {
                String name = f.getFileName().toString();
                if (!segmentFileName(name) || Files.isDirectory(f)) {
                    return false;
                }
                return !LUCENES_COMMIT_FILE.matcher(name).matches() || !Boolean.TRUE.equals(usersText(f));
            });
        } catch (IOException | RuntimeException e) {
            return true; // a folder that cannot be listed: the reader says what is wrong with it
        }
    }

    /**
     * The names Lucene takes for a commit's that keep it from reading the index: it takes every name starting with
     * "segments" (but segments.gen, which it skips) for a commit's and reads the rest after one more character as a
     * base-36 number ({@code SegmentInfos.getLastCommitGeneration}), reading the commit of the highest. So a name it reads
     * no number from ({@code segments_notes.txt}, {@code segments_}) makes every reader and writer of the folder fail with
     * a NumberFormatException, and one not of the form Lucene writes (segments_ and a lower-case base-36 number) whose
     * number is above the index's newest commit's ({@code segments.txt}, {@code segments_Notes}) sends it to a commit that
     * is not there (segments_txt, segments_notes). So does a folder of any such name ({@code segments_old}): Lucene reads
     * folders' names too, and a folder is no commit. A file's name of Lucene's own form is left to the header checks.
     */
    private static List<String> notCommits(Path index, String[] names) {
        long newest = -1;
        for (String name : names) {
            if (commitsFile(index, name) && !name.startsWith(org.apache.lucene.index.IndexFileNames.PENDING_SEGMENTS)) {
                try {
                    newest = Math.max(newest, org.apache.lucene.index.SegmentInfos.generationFromSegmentsFileName(name));
                } catch (NumberFormatException tooLong) {
                    // past a long: among notCommits below
                }
            }
        }
        List<String> notCommits = new ArrayList<>();
        for (String name : names) {
            if (name.startsWith(org.apache.lucene.index.IndexFileNames.SEGMENTS) && !name.startsWith("segments.gen")) {
                try {
                    long generation = org.apache.lucene.index.SegmentInfos.generationFromSegmentsFileName(name);
                    if (!commitsFile(index, name) && generation > newest) {
                        notCommits.add(name);
                    }
                } catch (NumberFormatException notAGeneration) {
                    notCommits.add(name);
                }
            }
        }
        return notCommits.stream().sorted().toList();
    }

    /** Whether {@code name} in {@code index} is a file (not a folder) of the form Lucene gives a commit: segments_N. */
    private static boolean commitsFile(Path index, String name) {
        return LUCENES_COMMIT_FILE.matcher(name).matches() && !Files.isDirectory(index.resolve(name));
    }

    /** {@link #notCommits} of the files in {@code index}; none when it cannot be listed. */
    private static List<String> notCommitsIn(Path index) {
        try (var entries = Files.list(index)) {
            return notCommits(index, entries.map(f -> f.getFileName().toString()).toArray(String[]::new));
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    /**
     * An index Lucene cannot read because its folder holds files named as commits that are none ({@link #notCommits}):
     * they are someone's files (or folders: Lucene reads their names too), so the remedy is to move them out, never to
     * delete anything. {@code names} empty: such a file was there when Lucene read the folder and is gone now.
     */
    private static RetrievalException notCommitsIn(String what, Path index, List<String> names, Exception cause) {
        Path at = index.toAbsolutePath();
        String kind = kind(at, names);
        String why = names.isEmpty()
                ? "the folder held a file whose name Lucene takes for a commit's (a name starting with \"segments\") but is none, and it"
                        + " is gone now; " + what.substring("cannot ".length()) + " again"
                : "the folder also holds " + named(names) + (names.size() == 1 ? ", whose name" : ", whose names") + " Lucene"
                        + " takes for a commit's (it reads a commit's number from each name starting with \"segments\"), though "
                        + (names.size() == 1 ? "it is" : "they are") + " none, so Lucene cannot read the index there; move " + kind
                        + " out of " + at + " and try again. Nothing was changed";
        return new RetrievalException(what + " the document index in " + at + ": " + why, cause);
    }

    /** {@code names} in {@code at} as "that file", "that folder", "those files", "those folders" or "those files and folders". */
    private static String kind(Path at, List<String> names) {
        long folders = names.stream().filter(n -> Files.isDirectory(at.resolve(n), java.nio.file.LinkOption.NOFOLLOW_LINKS)).count();
        return names.size() == 1 ? (folders == 1 ? "that folder" : "that file")
                : folders == names.size() ? "those folders" : folders == 0 ? "those files" : "those files and folders";
    }

    /**
     * Whether {@code file} holds something, not all zero bytes, and does not begin with Lucene's header: text no crash
     * leaves in a commit (a crash leaves one empty or zeroed, and a commit cut short keeps its header, or what it had of
     * it). Null when it cannot be read.
     */
    private static Boolean usersText(Path file) {
        try (var in = new java.io.BufferedInputStream(Files.newInputStream(file))) {
            byte[] start = in.readNBytes(HEADER.length);
            if (startsWithHeader(start)) {
                return false;
            }
            for (byte b : start) {
                if (b != 0) {
                    return true;
                }
            }
            for (int b = in.read(); b != -1; b = in.read()) {
                if (b != 0) {
                    return true;
                }
            }
            return false; // empty or zeroed
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * Whether the index's folder or its commit is gone (deleted since the index was opened), not merely damaged: no folder,
     * or no file in it named as a commit but for text files of the user's ({@link #usersText}) with no segment's file
     * beside them (as {@link #indexIn} takes them).
     */
    private static boolean gone(Path index) {
        if (!Files.isDirectory(index)) {
            return true;
        }
        try (var entries = Files.list(index)) {
            List<Path> commits = new ArrayList<>();
            boolean segments = false;
            for (Path f : entries.toList()) {
                String name = f.getFileName().toString();
                if (commitsFile(index, name) && name.startsWith(org.apache.lucene.index.IndexFileNames.SEGMENTS + "_")) {
                    commits.add(f);
                } else if (segmentFileName(name) && !LUCENES_COMMIT_FILE.matcher(name).matches() && !Files.isDirectory(f)) {
                    segments = true;
                }
            }
            // a text file of the user's named as a commit (segments_1 holding notes) is no commit, as indexIn says, unless
            // a segment's file is there too: then open finds an index, damaged or not, and the search says which file
            boolean usersOnly = commits.stream().allMatch(f -> Boolean.TRUE.equals(usersText(f)));
            return commits.isEmpty() || usersOnly && !segments;
        } catch (IOException | RuntimeException e) {
            return false; // a folder that cannot be listed: the failure says what is wrong with it
        }
    }

    /**
     * Refuses a folder that holds files whose names Lucene takes for its own but are not ({@code _index.md},
     * {@code _config.yml}, {@code segments_notes.txt}): a writer opened on it deletes every such file no index needs, so an
     * index written into a folder of the user's (the documents folder itself) would delete them, also when an index is
     * already there (one an older Rein wrote in the documents folder). Nothing is changed.
     */
    static void requireOwnFolder(Path index) {
        if (!Files.isDirectory(index)) {
            return;
        }
        List<String> atRisk;
        try (var entries = Files.list(index)) {
            atRisk = entries.filter(LuceneRetriever::atRisk).map(f -> f.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            return; // the writer says what is wrong with the folder
        }
        if (atRisk.isEmpty()) {
            return;
        }
        if (exists(index)) {
            // a folder is nobody's damaged file: it goes with the other names, and no crash is spoken of
            java.util.function.Predicate<String> folder = n -> Files.isDirectory(index.resolve(n), java.nio.file.LinkOption.NOFOLLOW_LINKS);
            List<String> unsure = atRisk.stream().filter(n -> segmentFileName(n) && !folder.test(n)).toList();
            List<String> folders = atRisk.stream().filter(folder).toList();
            List<String> others = atRisk.stream().filter(n -> !segmentFileName(n) && !folder.test(n)).toList();
            List<String> held = new ArrayList<>();
            if (!others.isEmpty()) {
                held.add("files of other names (" + named(others) + ")");
            }
            if (!folders.isEmpty()) {
                held.add((folders.size() == 1 ? "a folder" : "folders") + " (" + named(folders) + ")");
            }
            if (!unsure.isEmpty()) {
                held.add(unsure(unsure));
            }
            throw new RetrievalException(index.toAbsolutePath() + " holds a document index and " + String.join(", and ", held)
                    + (unsure.isEmpty() ? ": " : "; ") + "Lucene deletes files of such names in the folder it writes an index in, so nothing was written there;"
                    + " give the index a folder of its own, new or empty (such as .rein/index), and index again there, or move "
                    + kind(index, atRisk) + " out of " + index.toAbsolutePath());
        }
        throw noIndexButUsers(index, atRisk);
    }

    /**
     * The refusal of a folder with no index that holds {@code atRisk} (files, folders or both of names Lucene takes for its
     * own): each is named for what it is. Lucene's own leftovers (its header, or empty) are not among them: nothing shows
     * these files are an indexing's, so the message never advises deleting them, only how to look at them; a folder has
     * no first bytes to look at, and moving it out (with the files beside it, if any) is enough.
     */
    private static RetrievalException noIndexButUsers(Path index, List<String> atRisk) {
        Path at = index.toAbsolutePath();
        List<String> folders = atRisk.stream().filter(n -> Files.isDirectory(at.resolve(n), java.nio.file.LinkOption.NOFOLLOW_LINKS))
                .toList();
        List<String> files = atRisk.stream().filter(n -> !folders.contains(n)).toList();
        String folderWord = folders.size() == 1 ? "a folder" : "folders";
        String held = folders.isEmpty() ? "files but no document index (" + named(files) + ")"
                : files.isEmpty() ? folderWord + " but no document index (" + named(folders) + ")"
                : "files (" + named(files) + ") and " + folderWord + " (" + named(folders) + ") but no document index";
        String folderTaken = folders.size() == 1 ? "a folder of such a name for one of its own files"
                : "folders of such names for its own files";
        String why = files.isEmpty() ? "Lucene takes " + folderTaken + " in the folder it writes an index in"
                : "Lucene deletes files of such names in the folder it writes an index in"
                        + (folders.isEmpty() ? "" : ", and takes " + folderTaken);
        // moving the folders out alone would leave the files in the way, so the mixed case names both
        String rest = files.isEmpty() ? ", or move " + kind(at, folders) + " out of " + at
                : (folders.isEmpty() ? "" : ", or move " + kind(at, files) + " and " + kind(at, folders) + " out of " + at)
                        + ". Nothing shows that those files are Lucene's, so they are kept: to check one, look at its first four bytes"
                        + " (od -A n -t x1 -N 4 FILE shows them): each file Lucene writes begins with " + HEADER_BYTES;
        return new RetrievalException(at + " holds " + held + ": " + why + ", so nothing was written there; give the index"
                + " a folder of its own, new or empty (such as .rein/index), and index again there, which loses nothing (the index"
                + " is built from the documents)" + rest);
    }

    /** {@link CodecUtil#CODEC_MAGIC}, the four bytes each file Lucene writes begins with. */
    private static final byte[] HEADER = java.nio.ByteBuffer.allocate(4).putInt(CodecUtil.CODEC_MAGIC).array();

    /** {@link CodecUtil#CODEC_MAGIC} as od shows a file's first four bytes: 3f d7 6c 17. */
    private static final String HEADER_BYTES = java.util.HexFormat.ofDelimiter(" ").formatHex(HEADER);

    /** The first five names, and how many more. */
    private static String named(List<String> names) {
        return String.join(", ", names.subList(0, Math.min(5, names.size()))) + (names.size() > 5 ? " and " + (names.size() - 5) + " more" : "");
    }

    /**
     * The names in the index folder that are not Lucene's own files (the user's files and folders), sorted, but for those
     * named as a segment's files ({@link #unsureIn}).
     */
    private static List<String> othersIn(Path index) {
        try (var entries = Files.list(index)) {
            return entries.filter(f -> Files.isDirectory(f) || !lucenesOwn(f) && !segmentFileName(f.getFileName().toString()))
                    .map(f -> f.getFileName().toString()).sorted().toList();
        } catch (IOException | RuntimeException e) {
            return List.of(); // a folder that cannot be listed: the message says what it said before
        }
    }

    /**
     * The files in the index folder named as a segment's files but not starting with Lucene's header, sorted: each is the
     * index's own file damaged (a crash can leave one zeroed) or a file of the user's of such a name (a _0.doc of theirs,
     * which may start with zeros too); nothing in the file tells which, so neither is deleted nor said to be deletable.
     */
    private static List<String> unsureIn(Path index) {
        try (var entries = Files.list(index)) {
            return entries.filter(f -> !Files.isDirectory(f) && segmentFileName(f.getFileName().toString()) && !lucenesOwn(f))
                    .map(f -> f.getFileName().toString()).sorted().toList();
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    /**
     * The files of {@link #unsureIn} and what they are, as a noun phrase after "holds". A pending_segments_N is a commit
     * Lucene was writing, which it reads the index from only once renamed to segments_N: none of the index's files, so it
     * is not called the index's own, damaged.
     */
    private static String unsure(List<String> names) {
        List<String> pending = names.stream().filter(n -> n.startsWith(org.apache.lucene.index.IndexFileNames.PENDING_SEGMENTS))
                .toList();
        List<String> segments = names.stream().filter(n -> !pending.contains(n)).toList();
        List<String> phrases = new ArrayList<>();
        if (!segments.isEmpty()) {
            boolean one = segments.size() == 1;
            phrases.add(named(segments) + (one ? ", which has a name" : ", which have names") + " Lucene gives the files of an"
                    + " index but" + (one ? " does not begin as they do: it is this index's own file" : " do not begin as they"
                            + " do: each is this index's own file") + ", damaged (a crash can leave a file zeroed), or a file of"
                    + " another program's with such a name, and Rein cannot tell which");
        }
        if (!pending.isEmpty()) {
            boolean one = pending.size() == 1;
            phrases.add(named(pending) + (one ? ", which has the name" : ", which have the name") + " Lucene gives a commit"
                    + " while it writes it, not a file of the index (Lucene reads the index from its segments_N), but"
                    + (one ? " does not begin as one does: it is a commit" : " do not begin as one does: each is a commit")
                    + " a crash left zeroed or cut short while Lucene wrote it, or a file of another program's with such a"
                    + " name, and Rein cannot tell which");
        }
        return String.join(", and ", phrases);
    }

    /**
     * A name Lucene gives a file of an index that begins with its header: a commit (segments_N), or a segment's file (_ and the
     * segment's name, an optional _suffix, one of its codecs' extensions).
     */
    private static boolean segmentFileName(String name) {
        if (LUCENES_COMMIT_FILE.matcher(name).matches()) {
            return true; // a commit's name, taken as one of the index's files unless it lacks Lucene's header
        }
        java.util.regex.Matcher m = LUCENES_SEGMENT_FILE.matcher(name);
        return m.matches() && LUCENES_EXTENSIONS.contains(m.group(2));
    }

    /**
     * The extensions Lucene 10's codecs give their files (the file formats of the default codec, Lucene103, and the
     * formats it builds on: segment info, compound file, field infos, stored fields, block-tree terms, postings, norms,
     * doc values, term vectors, live docs, points, vectors) and {@code tmp}, of the temporary files a writer sorts in
     * (Directory.createTempOutput). Read from lucene-core's *_EXTENSION constants.
     */
    private static final Set<String> LUCENES_EXTENSIONS = Set.of("si", "cfs", "cfe", "fnm", "fdt", "fdx", "fdm", "tim", "tip",
            "tmd", "doc", "pos", "pay", "psm", "nvd", "nvm", "dvd", "dvm", "tvd", "tvx", "tvm", "liv", "kdd", "kdi", "kdm", "vec",
            "vem", "veq", "vex", "vemf", "vemq", "veb", "vemb", "tmp");

    /** A segment's file as Lucene names it: _ and the segment's base-36 name, an optional _suffix, one of its extensions. */
    private static final java.util.regex.Pattern LUCENES_SEGMENT_FILE = java.util.regex.Pattern.compile("_[a-z0-9]+(_[^.]*)?\\.([a-z]+)");

    /** A commit or a commit being written: segments_ or pending_segments_ and a base-36 generation. */
    private static final java.util.regex.Pattern LUCENES_COMMIT_FILE = java.util.regex.Pattern.compile("(pending_)?segments_[a-z0-9]+");

    /** A commit Lucene finished writing: segments_ and a base-36 generation (no pending_). */
    private static final java.util.regex.Pattern COMMIT_FILE = java.util.regex.Pattern.compile("segments_[a-z0-9]+");

    /**
     * A file Lucene's writer would delete that is not one of Lucene's own: a file of the user's. Lucene's own files left
     * by an indexing cut short (no commit yet) are cleaned up by the writer, as they should be.
     */
    private static boolean atRisk(Path file) {
        String name = file.getFileName().toString();
        return lucenesName(name) && !lucenesOwn(file);
    }

    /**
     * One of Lucene's own files: a name Lucene gives them (a commit, the lock, a segment's file with one of its codecs'
     * extensions) and, for a commit or a segment's file, as the name alone does not tell a user's {@code _draft.doc} or
     * {@code segments_notes} from the index's, Lucene's header at its start ({@link CodecUtil#CODEC_MAGIC}, which each file of a segment begins with), or
     * nothing yet (a file an indexing cut short had just made). A file that cannot be read is taken for the user's.
     */
    private static boolean lucenesOwn(Path file) {
        String name = file.getFileName().toString();
        if (name.equals(IndexWriter.WRITE_LOCK_NAME)) {
            return true;
        }
        // a commit begins with Lucene's header too, and segments_notes is a name a person may give a file
        if (!segmentFileName(name)) {
            return false;
        }
        try (var in = Files.newInputStream(file)) {
            byte[] start = in.readNBytes(HEADER.length);
            // a start of the header marks a commit (segments_N) cut short, but not a segment's file: the writer deletes one
            // no commit names, and a _notes.doc or _0.si of the user's may hold one or two such bytes ("?" is 3f); nor a
            // pending_segments_N, which Lucene deletes on a writer's start, and which it syncs and renames whole
            return COMMIT_FILE.matcher(name).matches() ? startsWithHeader(start)
                    : start.length == 0 || java.util.Arrays.equals(start, HEADER);
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Whether a file's first bytes (up to four) are Lucene's header, or as much of it as the file holds: nothing (a file an
     * indexing had just made) or one to three of its bytes (a file cut short, which a crash or a partial copy leaves). Taken
     * so only of a file named as a commit (segments_N): a segment's file or a pending_segments_N of one to three bytes may
     * be the user's.
     */
    private static boolean startsWithHeader(byte[] start) {
        return java.util.Arrays.equals(start, 0, start.length, HEADER, 0, start.length);
    }

    /** A name Lucene's writer takes for one of its files, and deletes when no index needs it (its lock file aside). */
    private static boolean lucenesName(String name) {
        return !name.equals(IndexWriter.WRITE_LOCK_NAME)
                && (org.apache.lucene.index.IndexFileNames.CODEC_FILE_PATTERN.matcher(name).matches()
                || name.startsWith(org.apache.lucene.index.IndexFileNames.SEGMENTS)
                || name.startsWith(org.apache.lucene.index.IndexFileNames.PENDING_SEGMENTS));
    }

    /** A writer on the index, created if missing; closing it closes the index folder it opened too. */
    static IndexWriter writer(Path index) throws IOException {
        Files.createDirectories(index);
        // forceMergeDeletes rewrites every segment holding a deleted passage, not only those past 10 % deleted (see LuceneIndexer)
        // commitOnClose off: an indexing that fails part way (an interrupt, a full disk) is rolled back when its writer is
        // closed, not committed with some files' passages deleted and others not yet added
        IndexWriterConfig config = new IndexWriterConfig(analyzer()).setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND)
                .setCommitOnClose(false)
                .setMergePolicy(new org.apache.lucene.index.TieredMergePolicy().setForceMergeDeletesPctAllowed(0));
        Directory folder = FSDirectory.open(index);
        try {
            // IndexWriter.close leaves the Directory it was given open: this writer owns the one it opened
            return new IndexWriter(folder, config) {
                @Override
                public void close() throws IOException {
                    try (folder) {
                        super.close();
                    }
                }
            };
        } catch (IOException | RuntimeException e) { // another indexing holds the lock, a damaged index
            folder.close();
            throw e;
        }
    }
}
