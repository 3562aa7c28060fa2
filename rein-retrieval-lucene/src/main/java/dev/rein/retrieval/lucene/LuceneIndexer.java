package dev.rein.retrieval.lucene;

import dev.rein.retrieval.RetrievalException;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.Term;

/**
 * Indexes a folder of text and Markdown files ({@code .txt}, {@code .md}, {@code .markdown}) into a
 * {@link LuceneRetriever} index. Each file is split into passages of whole paragraphs (at most
 * {@value #MAX_PASSAGE_CHARS} characters, a longer paragraph is cut); a passage's source is the
 * file's path relative to the folder and its passage number, e.g. {@code guide/returns.md#2}.
 * Re-indexing a file replaces its passages. Files must be UTF-8.
 */
public final class LuceneIndexer {
    /** The longest passage, in characters. */
    public static final int MAX_PASSAGE_CHARS = 1_200;

    private LuceneIndexer() {}

    /** What one indexing did. */
    public record Report(int files, int passages, List<String> skipped) {}

    /**
     * @throws RetrievalException when {@code folder} is not a directory or the index cannot be written
     */
    public static Report indexDirectory(Path folder, Path index) {
        if (!Files.isDirectory(folder)) {
            throw new RetrievalException("'" + folder + "' is not a directory; give the folder of .txt and .md files to index");
        }
        List<Path> files;
        try (Stream<Path> walk = Files.walk(folder)) {
            files = walk.filter(Files::isRegularFile).filter(LuceneIndexer::indexable).sorted().toList();
        } catch (IOException e) {
            throw new RetrievalException("cannot read the folder " + folder + ": " + e.getMessage(), e);
        }
        int passages = 0;
        List<String> skipped = new ArrayList<>();
        try (IndexWriter writer = LuceneRetriever.writer(index)) {
            for (Path file : files) {
                String relative = folder.relativize(file).toString().replace('\\', '/');
                String text;
                try {
                    text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                            .decode(java.nio.ByteBuffer.wrap(Files.readAllBytes(file))).toString();
                } catch (CharacterCodingException e) {
                    skipped.add(relative + " (not UTF-8)");
                    continue;
                }
                writer.deleteDocuments(new Term(LuceneRetriever.PATH, relative));
                List<String> parts = passages(text);
                for (int i = 0; i < parts.size(); i++) {
                    Document doc = new Document();
                    doc.add(new StringField(LuceneRetriever.PATH, relative, Field.Store.YES));
                    doc.add(new StringField(LuceneRetriever.SOURCE, relative + "#" + (i + 1), Field.Store.YES));
                    doc.add(new TextField(LuceneRetriever.TEXT, parts.get(i), Field.Store.YES));
                    writer.addDocument(doc);
                }
                passages += parts.size();
            }
            writer.commit();
        } catch (IOException e) {
            throw new RetrievalException("cannot write the document index in " + index + ": " + e.getMessage(), e);
        }
        return new Report(files.size() - skipped.size(), passages, List.copyOf(skipped));
    }

    private static boolean indexable(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        return name.endsWith(".txt") || name.endsWith(".md") || name.endsWith(".markdown");
    }

    /** Whole paragraphs joined up to the passage size; an over-long paragraph is cut into pieces. */
    static List<String> passages(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String paragraph : text.replace("\r\n", "\n").split("\n\\s*\n")) {
            String p = paragraph.strip();
            if (p.isEmpty()) {
                continue;
            }
            if (!current.isEmpty() && current.length() + p.length() + 2 > MAX_PASSAGE_CHARS) {
                out.add(current.toString());
                current.setLength(0);
            }
            while (p.length() > MAX_PASSAGE_CHARS) {
                out.add(p.substring(0, MAX_PASSAGE_CHARS));
                p = p.substring(MAX_PASSAGE_CHARS);
            }
            if (!current.isEmpty()) {
                current.append("\n\n");
            }
            current.append(p);
        }
        if (!current.isEmpty()) {
            out.add(current.toString());
        }
        return out;
    }
}
