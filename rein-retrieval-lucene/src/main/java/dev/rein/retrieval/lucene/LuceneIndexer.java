package dev.rein.retrieval.lucene;

import dev.rein.retrieval.RetrievalException;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.BytesRef;

/**
 * Indexes a folder of text and Markdown files ({@value #FILE_KINDS}) into a
 * {@link LuceneRetriever} index. Each file is split into passages of whole paragraphs (at most
 * {@value #MAX_PASSAGE_CHARS} characters, a longer paragraph is cut); a passage's source is the
 * file's path relative to the folder and its passage number, e.g. {@code guide/returns.md#2}.
 * Re-indexing a folder replaces its files' passages and removes those of files no longer in it
 * (other folders' passages in the same index stay). Files must be UTF-8 and at most
 * {@value #MAX_FILE_BYTES} bytes; others, and files that cannot be read, are skipped and named, and
 * lose the passages an earlier indexing took from them.
 */
public final class LuceneIndexer {
    /**
     * The kinds of file indexed, by the end of their name (case ignored), as messages and help name them; the one list
     * the indexer takes them from.
     */
    public static final String FILE_KINDS = ".txt, .md or .markdown";
    private static final List<String> SUFFIXES = List.of(FILE_KINDS.split(", | or "));

    /** The longest passage, in characters (Unicode code points: an emoji counts as one). */
    public static final int MAX_PASSAGE_CHARS = 1_200;
    /** The largest file indexed, in bytes (32 MiB); a larger one is skipped and named. */
    public static final long MAX_FILE_BYTES = 32L << 20;

    private LuceneIndexer() {}

    /**
     * What one indexing did.
     *
     * @param files    the files indexed
     * @param passages their passages
     * @param skipped  the files left out, each with why
     * @param removed  the files indexed from this folder before that are no longer in it; their
     *                 passages were removed
     */
    public record Report(int files, int passages, List<String> skipped, List<String> removed) {
        public Report(int files, int passages, List<String> skipped) {
            this(files, passages, skipped, List.of());
        }
    }

    /**
     * @throws RetrievalException when {@code folder} is not a directory or the index cannot be written
     * @throws dev.rein.ReinException when {@code folder} or {@code index} is null
     */
    public static Report indexDirectory(Path folder, Path index) {
        if (folder == null || index == null) {
            throw new dev.rein.ReinException("LuceneIndexer.indexDirectory was given no " + (folder == null
                    ? "folder (null): pass the folder of " + FILE_KINDS + " files to index"
                    : "index folder (null): pass the folder to write the index in, e.g. Path.of(\".rein/index\")"));
        }
        if (!Files.isDirectory(folder)) {
            throw new RetrievalException("'" + folder + "' is not a directory; give the folder of " + FILE_KINDS + " files to index");
        }
        if (Files.exists(index) && !Files.isDirectory(index)) {
            throw LuceneRetriever.notAFolder(index);
        }
        requireApart(folder, index);
        LuceneRetriever.requireOwnFolder(index);
        List<Path> files = new ArrayList<>();
        List<String> passedOver = new ArrayList<>();
        try {
            walk(folder, files, passedOver);
        } catch (IOException e) {
            throw new RetrievalException("cannot read the folder " + folder + ": " + why(e), e);
        }
        files.sort(null);
        passedOver.sort(null);
        if (files.isEmpty() && !LuceneRetriever.exists(index)) {
            // nothing to index and nothing indexed before: no empty index is made
            return new Report(0, 0, List.copyOf(passedOver));
        }
        int passages = 0;
        List<String> skipped = new ArrayList<>();
        List<String> removed;
        try (IndexWriter writer = LuceneRetriever.writer(index)) {
            String root = folder.toRealPath().toString();
            // A file deleted from the folder must not stay searchable (and cited) from an earlier indexing.
            Set<String> present = new HashSet<>();
            files.forEach(f -> present.add(relative(folder, f)));
            removed = indexedFrom(writer, root).stream().filter(p -> !present.contains(p)).sorted().toList();
            Set<String> otherRoots = otherRoots(writer, root);
            for (String gone : removed) {
                writer.deleteDocuments(new BooleanQuery.Builder().add(new TermQuery(new Term(LuceneRetriever.ROOT, root)), Occur.FILTER)
                        .add(new TermQuery(new Term(LuceneRetriever.PATH, gone)), Occur.FILTER).build());
            }
            for (Path file : files) {
                String relative = relative(folder, file);
                // Before the checks: a file skipped now (binary, too large, unreadable) must not be cited for its earlier text.
                writer.deleteDocuments(ownPassages(relative, otherRoots));
                String text;
                try {
                    // Checked before reading: a file over 2 GiB cannot even be read into an array (an Error, not an exception).
                    long size = Files.size(file);
                    if (size > MAX_FILE_BYTES) {
                        skipped.add(relative + " (too large: " + size + " bytes, the limit is " + MAX_FILE_BYTES + ")");
                        continue;
                    }
                    text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                            .decode(java.nio.ByteBuffer.wrap(Files.readAllBytes(file))).toString();
                } catch (CharacterCodingException e) {
                    skipped.add(relative + " (not UTF-8)");
                    continue;
                } catch (IOException e) {
                    // One unreadable file (permissions, a file removed meanwhile) does not stop the others.
                    skipped.add(relative + " (cannot read: " + why(e) + ")");
                    continue;
                }
                if (text.indexOf('\0') >= 0) {
                    // NUL is valid UTF-8 but never in text: a binary file, or UTF-16 text (which would index as noise).
                    skipped.add(relative + " (not UTF-8 text: it has NUL bytes)");
                    continue;
                }
                if (text.startsWith("\uFEFF")) {
                    // a UTF-8 byte order mark (Windows editors write one) marks the encoding, it is no text of the file
                    text = text.substring(1);
                }
                List<String> parts = passages(text);
                for (int i = 0; i < parts.size(); i++) {
                    Document doc = new Document();
                    doc.add(new StringField(LuceneRetriever.ROOT, root, Field.Store.YES));
                    doc.add(new StringField(LuceneRetriever.PATH, relative, Field.Store.YES));
                    doc.add(new StringField(LuceneRetriever.SOURCE, relative + "#" + (i + 1), Field.Store.YES));
                    doc.add(new TextField(LuceneRetriever.TEXT, parts.get(i), Field.Store.YES));
                    writer.addDocument(doc);
                }
                passages += parts.size();
            }
            if (writer.hasDeletions()) {
                // Lucene only marks a passage deleted: its text stays in the segment's files until a merge. A document
                // deleted or edited for what it said (personal data) must be gone from the index's files, not just unfound.
                writer.forceMergeDeletes();
            }
            writer.commit();
        } catch (IOException | org.apache.lucene.util.ThreadInterruptedException e) {
            if (LuceneRetriever.interrupted(e)) { // the writer commits only at the end: nothing of this indexing is in the index
                throw new RetrievalException("cannot write the document index in " + index + ": the indexing was interrupted"
                        + " (its thread's interrupt: the work was cancelled) before it was done, so nothing of it was written and"
                        + " the index is as the last indexing left it; index the folder again", e);
            }
            throw LuceneRetriever.failure("cannot write", index, (IOException) e);
        }
        int indexed = files.size() - skipped.size();
        skipped.addAll(passedOver);
        return new Report(indexed, passages, List.copyOf(skipped), removed);
    }

    /**
     * Refuses an index folder that is the documents folder, or holds it, by whatever name either is given (a path through
     * "..", a link): Lucene's files would be written among the documents, and deleting the index folder, as a damaged
     * index needs, would delete the documents. An index folder inside the documents folder is its own ($REIN_HOME/index
     * when the working directory is indexed): none of Lucene's files has a document's name, so none is indexed.
     */
    private static void requireApart(Path folder, Path index) {
        Path documents;
        Path indexFolder;
        try {
            documents = folder.toRealPath();
            indexFolder = real(index);
        } catch (IOException | SecurityException e) {
            return; // the walk or the writer says what is wrong with the folder
        }
        String how = documents.equals(indexFolder) ? "is" : documents.startsWith(indexFolder) ? "holds" : null;
        if (how != null) {
            throw new RetrievalException("the index folder " + index.toAbsolutePath() + " " + how + " the documents folder " + documents
                    + ": an index written there would put Lucene's files " + (how.equals("is") ? "among" : "beside") + " the documents,"
                    + " and deleting the index folder (as a damaged index needs) would delete the documents, so nothing was written;"
                    + " give the index a folder of its own (such as .rein/index), not the documents folder nor one that holds it");
        }
    }

    /** {@code path}'s real path when it exists, else its nearest existing folder's real path with the rest of it. */
    private static Path real(Path path) throws IOException {
        if (Files.exists(path)) {
            return path.toRealPath(); // a link's ".." is the link target's parent, which normalizing would not take
        }
        Path absolute = path.toAbsolutePath().normalize();
        for (Path existing = absolute; existing != null; existing = existing.getParent()) {
            if (Files.exists(existing)) {
                return existing.toRealPath().resolve(existing.relativize(absolute));
            }
        }
        return absolute;
    }

    /**
     * The files to index under {@code folder}, following links (a folder linked in is indexed as if it were
     * there); a link back to a folder it is in, a link to nothing and a folder that cannot be read are named
     * in {@code passedOver}, and the walk goes on.
     */
    private static void walk(Path folder, List<Path> files, List<String> passedOver) throws IOException {
        Files.walkFileTree(folder, java.util.EnumSet.of(java.nio.file.FileVisitOption.FOLLOW_LINKS), Integer.MAX_VALUE,
                new java.nio.file.SimpleFileVisitor<>() {
                    @Override
                    public java.nio.file.FileVisitResult visitFile(Path file, java.nio.file.attribute.BasicFileAttributes attrs) {
                        if (attrs.isRegularFile() && indexable(file)) {
                            files.add(file);
                        } else if (attrs.isSymbolicLink() && indexable(file)) {
                            // a link whose target cannot be reached: walkFileTree gives the link itself
                            passedOver.add(relative(folder, file) + " (a link to nothing: " + target(file) + " does not exist)");
                        }
                        return java.nio.file.FileVisitResult.CONTINUE;
                    }

                    @Override
                    public java.nio.file.FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                        if (file.equals(folder)) {
                            throw e;
                        }
                        passedOver.add(relative(folder, file) + (e instanceof java.nio.file.FileSystemLoopException
                                ? " (a link to a folder it is in: not followed)" : " (cannot read: " + why(e) + ")"));
                        return java.nio.file.FileVisitResult.CONTINUE;
                    }

                    @Override
                    public java.nio.file.FileVisitResult postVisitDirectory(Path dir, IOException e) {
                        if (e != null) {
                            // a folder whose listing broke off: the files found before are indexed
                            passedOver.add(relative(folder, dir) + "/ (cannot read all of the folder: " + why(e) + ")");
                        }
                        return java.nio.file.FileVisitResult.CONTINUE;
                    }
                });
    }

    /** Why a file or folder could not be read, in words: not Java's exception class, which 'rein index' would print. */
    private static String why(IOException e) {
        String why = dev.rein.internal.text.FileProblems.why(e);
        return why == null ? e.getClass().getSimpleName() : why;
    }

    private static String target(Path link) {
        try {
            Path target = Files.readSymbolicLink(link);
            return link.resolveSibling(target).toString();
        } catch (IOException | UnsupportedOperationException e) {
            return "its target";
        }
    }

    /**
     * {@code file}'s path below {@code folder}, its names joined by '/' whatever the system's separator: a '\\' in a name
     * (which Linux and macOS allow) stays one, so {@code a\\b.md} is not the file {@code b.md} in folder {@code a}.
     */
    private static String relative(Path folder, Path file) {
        return java.util.stream.StreamSupport.stream(folder.relativize(file).spliterator(), false).map(Path::toString)
                .collect(java.util.stream.Collectors.joining("/"));
    }

    /** The paths of the files indexed from the folder {@code root} (indexes written before the root was kept have none). */
    private static Set<String> indexedFrom(IndexWriter writer, String root) throws IOException {
        Set<String> paths = new HashSet<>();
        try (DirectoryReader reader = DirectoryReader.open(writer)) {
            IndexSearcher searcher = new IndexSearcher(reader);
            var stored = searcher.storedFields();
            for (ScoreDoc hit : searcher.search(new TermQuery(new Term(LuceneRetriever.ROOT, root)), Math.max(1, reader.maxDoc())).scoreDocs) {
                paths.add(stored.document(hit.doc, Set.of(LuceneRetriever.PATH)).get(LuceneRetriever.PATH));
            }
        }
        return paths;
    }

    /** The folders other than {@code root} that the index holds passages of. */
    private static Set<String> otherRoots(IndexWriter writer, String root) throws IOException {
        Set<String> roots = new HashSet<>();
        try (DirectoryReader reader = DirectoryReader.open(writer)) {
            Terms terms = MultiTerms.getTerms(reader, LuceneRetriever.ROOT);
            if (terms != null) {
                TermsEnum each = terms.iterator();
                for (BytesRef term = each.next(); term != null; term = each.next()) {
                    roots.add(term.utf8ToString());
                }
            }
        }
        roots.remove(root);
        return roots;
    }

    /**
     * The passages a file at {@code relative} replaces: this folder's, and those of an index written
     * before folders were kept; never another folder's file of the same name (each folder's README.md).
     */
    private static Query ownPassages(String relative, Set<String> otherRoots) {
        BooleanQuery.Builder q = new BooleanQuery.Builder().add(new TermQuery(new Term(LuceneRetriever.PATH, relative)), Occur.FILTER);
        otherRoots.forEach(other -> q.add(new TermQuery(new Term(LuceneRetriever.ROOT, other)), Occur.MUST_NOT));
        return q.build();
    }

    private static boolean indexable(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        return SUFFIXES.stream().anyMatch(name::endsWith);
    }

    /**
     * {@code text} with every line ending as LF: CRLF, a lone CR (classic Mac OS), NEL and LINE SEPARATOR; a PARAGRAPH
     * SEPARATOR ends a paragraph. Otherwise a file saved with any of them would be one paragraph, cut between characters.
     */
    private static String lines(String text) {
        return text.replace("\r\n", "\n").replace('\r', '\n').replace('\u0085', '\n').replace('\u2028', '\n')
                .replace("\u2029", "\n\n");
    }

    /**
     * Whole paragraphs joined up to the passage size; an over-long paragraph is cut into pieces. Sizes are
     * counted in characters (Unicode code points), as the docs say, so an emoji or 𠮷 counts once, and a
     * cut never falls between the two UTF-16 halves of one (each would be stored as U+FFFD).
     */
    static List<String> passages(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        int currentChars = 0;
        // a blank line may hold spaces regex's \s does not know: the ideographic space Japanese text indents with, a no-break space
        for (String paragraph : lines(text).split("\n[\\s\\p{Zs}]*\n")) {
            String p = paragraph.strip();
            if (p.isEmpty()) {
                continue;
            }
            int chars = p.codePointCount(0, p.length());
            if (!current.isEmpty() && currentChars + chars + 2 > MAX_PASSAGE_CHARS) {
                out.add(current.toString());
                current.setLength(0);
                currentChars = 0;
            }
            while (chars > MAX_PASSAGE_CHARS) {
                int cut = p.offsetByCodePoints(0, MAX_PASSAGE_CHARS);
                out.add(p.substring(0, cut));
                p = p.substring(cut);
                chars -= MAX_PASSAGE_CHARS;
            }
            if (!current.isEmpty()) {
                current.append("\n\n");
                currentChars += 2;
            }
            current.append(p);
            currentChars += chars;
        }
        if (!current.isEmpty()) {
            out.add(current.toString());
        }
        return out;
    }
}
