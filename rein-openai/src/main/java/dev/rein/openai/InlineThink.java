package dev.rein.openai;

/**
 * Splits the reasoning a MiniMax model writes at the start of its {@code content}, {@code <think>…</think>}, from the
 * answer after it, fragment by fragment as a stream brings them: MiniMax's own API, asked without its non-standard
 * {@code reasoning_split}, returns the thinking so (its OpenAI API guide: "the content field will contain {@code
 * <think>} tag content, which must be preserved completely"), and so does a server whose reasoning parser puts the
 * opening tag back (vLLM's {@code minimax_m2_append_think}). Read as text, the thinking would start the answer, or a typed
 * JSON result. A server with no reasoning parser sends the thinking without {@code <think>} (the chat template puts it
 * in the prompt), which is split only when asked ({@code openedInPrompt}): nothing tells it from an answer until {@code
 * </think>}, if one comes.
 *
 * <p>A tag split across fragments ({@code <thi}, {@code nk>}) is held back until it is whole; text that does not begin
 * with {@code <think>} (after white space) passes through unchanged. What the thinking was wrapped in, the tags and the
 * white space after {@code </think>}, is kept verbatim ({@link #prefix}), so the content can go back to the model as it
 * came.
 *
 * <p>Asked for another model ({@link OpenAiModelBuilder.ThinkTags}), the same split applies to any model's content; and
 * for a model whose chat template opens the block in the prompt ({@code openedInPrompt}), the content begins inside it:
 * what comes before {@code </think>} is thinking (a {@code <think>} at the start is taken as its tag), and content that
 * ends without {@code </think>}, not cut by the output limit, was the answer after all.
 */
final class InlineThink {
    static final String OPEN = "<think>";
    static final String CLOSE = "</think>";

    /** What one fragment released: thinking and answer text, either possibly empty. */
    record Parts(String thinking, String text) {
        static final Parts NONE = new Parts("", "");
    }

    private enum State { START, THINKING, AFTER, TEXT }

    private State state = State.START;
    /** Text held back until it can be told: leading white space, a tag not yet whole, the white space after the block. */
    private final StringBuilder pending = new StringBuilder();
    /** The content's thinking part verbatim: white space before it, the tags, the thinking, the white space after. */
    private final StringBuilder prefix = new StringBuilder();
    private final StringBuilder thinking = new StringBuilder();
    /** Whether the content begins inside the block, its {@code <think>} in the prompt. */
    private final boolean openedInPrompt;
    /** Whether the block's {@code <think>} came in the content. */
    private boolean opened;
    /** The tag the prompt opened the block with, put back before it when it goes back ({@link #prefix}); empty else. */
    private String openedBy = "";

    /** For content whose think block, if any, begins with its {@code <think>} (a MiniMax model's). */
    InlineThink() {
        this(false);
    }

    /** @param openedInPrompt whether the content begins inside the block, its {@code <think>} in the prompt */
    InlineThink(boolean openedInPrompt) {
        this.openedInPrompt = openedInPrompt;
    }

    /** Whether the content began with a think block. */
    boolean found() {
        return !prefix.isEmpty();
    }

    /** The thinking between the tags, without the line breaks around it. */
    String thinking() {
        return thinking.toString().strip();
    }

    /**
     * The content's think block as it came, with the white space around it ({@code "<think>\n…\n</think>\n\n"}); for a
     * block opened in the prompt, with the {@code <think>\n} the chat template put there before it, as the model's whole
     * output was.
     */
    String prefix() {
        return openedBy + prefix;
    }

    /** Takes the next fragment of the content. */
    Parts accept(String fragment) {
        if (fragment.isEmpty()) {
            return Parts.NONE;
        }
        return switch (state) {
            case TEXT -> new Parts("", fragment);
            case START -> start(fragment);
            case THINKING -> think(fragment);
            case AFTER -> after(fragment);
        };
    }

    /**
     * Releases what is held back at the end of the content.
     *
     * @param cut whether the output limit cut the content ({@code finish_reason} {@code length})
     */
    Parts finish(boolean cut) {
        String held = pending.toString();
        pending.setLength(0);
        if (state == State.THINKING && openedInPrompt && !opened && !cut) {
            // The block was never closed, nor the content cut: no thinking, the answer, verbatim. (A live view heard it
            // as thinking: nothing tells the two apart before the end.)
            String all = prefix + held;
            openedBy = "";
            prefix.setLength(0);
            thinking.setLength(0);
            state = State.TEXT;
            return new Parts("", all);
        }
        return switch (state) {
            case START, TEXT -> new Parts("", held); // white space, or "<thi" that never became a tag: text
            case THINKING -> { // never closed (cut by the output limit): all of it was thinking
                prefix.append(held);
                thinking.append(held);
                yield new Parts(held, "");
            }
            case AFTER -> {
                prefix.append(held); // only white space after the block
                yield Parts.NONE;
            }
        };
    }

    private Parts start(String fragment) {
        pending.append(fragment);
        String held = pending.toString();
        int lead = firstNonSpace(held);
        if (lead < 0) {
            return Parts.NONE;
        }
        String rest = held.substring(lead);
        if (rest.startsWith(OPEN)) {
            state = State.THINKING;
            opened = true;
            prefix.append(held, 0, lead + OPEN.length());
            pending.setLength(0);
            return think(held.substring(lead + OPEN.length()));
        }
        if (OPEN.startsWith(rest)) {
            return Parts.NONE; // "<thi": wait for the rest of the tag
        }
        pending.setLength(0);
        if (openedInPrompt) {
            // the block began in the prompt: this is its thinking, until </think>
            state = State.THINKING;
            openedBy = OPEN + "\n";
            return think(held);
        }
        state = State.TEXT;
        return new Parts("", held);
    }

    private Parts think(String fragment) {
        pending.append(fragment);
        String held = pending.toString();
        pending.setLength(0);
        int close = held.indexOf(CLOSE);
        if (close >= 0) {
            String thought = held.substring(0, close);
            thinking.append(thought);
            prefix.append(thought).append(CLOSE);
            state = State.AFTER;
            Parts after = after(held.substring(close + CLOSE.length()));
            return new Parts(thought, after.text());
        }
        // Hold back an end that may be the start of </think>, to be told by the next fragment.
        int keep = partialTag(held);
        String thought = held.substring(0, held.length() - keep);
        pending.append(held, held.length() - keep, held.length());
        thinking.append(thought);
        prefix.append(thought);
        return new Parts(thought, "");
    }

    private Parts after(String fragment) {
        pending.append(fragment);
        String held = pending.toString();
        int lead = firstNonSpace(held);
        if (lead < 0) {
            return Parts.NONE; // the blank line after </think>: part of the block, not of the answer
        }
        prefix.append(held, 0, lead);
        pending.setLength(0);
        state = State.TEXT;
        return new Parts("", held.substring(lead));
    }

    /** The length of the longest end of {@code text} that begins {@code </think>} without being all of it. */
    private static int partialTag(String text) {
        for (int length = Math.min(CLOSE.length() - 1, text.length()); length > 0; length--) {
            if (CLOSE.startsWith(text.substring(text.length() - length))) {
                return length;
            }
        }
        return 0;
    }

    private static int firstNonSpace(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (!Character.isWhitespace(text.charAt(i))) {
                return i;
            }
        }
        return -1;
    }

    /** The think block a reasoning text goes back in, as MiniMax's models write it. */
    static String wrap(String reasoning) {
        return OPEN + "\n" + reasoning + "\n" + CLOSE + "\n\n";
    }
}
