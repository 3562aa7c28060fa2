package dev.rein.anthropic;

import dev.rein.ReinException;
import dev.rein.model.ModelOption;
import dev.rein.model.ModelRequest;
import java.util.List;

/**
 * Beta features to turn on, sent in the {@code anthropic-beta} header as the SDKs' {@code betas}
 * parameter sends them (comma-separated), together with the betas Rein's own features add (those
 * of server-side context edits), each name once, on the messages call and on count_tokens. For
 * betas that only change how the API behaves, such as a longer context window or interleaved
 * thinking; Rein sends no request fields of its own for a beta.
 *
 * <pre>{@code
 * Agent.builder().model(model).modelOption(AnthropicBetas.of("context-1m-2025-08-07"))
 * }</pre>
 *
 * @param names the beta names, as the API's documentation spells them
 */
public record AnthropicBetas(List<String> names) implements ModelOption {
    /** The prefix of the interleaved thinking beta, with which a thinking budget may exceed max tokens. */
    static final String INTERLEAVED_THINKING = "interleaved-thinking-";

    public AnthropicBetas {
        if (names == null || names.isEmpty()) {
            throw new ReinException("AnthropicBetas needs at least one beta name, such as context-1m-2025-08-07");
        }
        for (String name : names) {
            if (name == null || name.isBlank()) {
                throw new ReinException("a beta name is " + (name == null ? "null" : "blank") + ": pass names such as context-1m-2025-08-07");
            }
            if (name.contains(",")) {
                throw new ReinException("the beta name '" + name + "' holds a comma: pass each beta as its own name,"
                        + " AnthropicBetas.of(\"a\", \"b\"); Rein joins them");
            }
            // A header value carries visible ASCII only; a space or a character copied from a web page would fail every request.
            if (!name.chars().allMatch(c -> c > ' ' && c < 0x7f)) {
                throw new ReinException("the beta name '" + name + "' has a space or a character other than visible ASCII,"
                        + " which no header can carry: copy the name from the API's documentation, e.g. context-1m-2025-08-07");
            }
        }
        names = List.copyOf(names);
    }

    /** The betas {@code names}. */
    public static AnthropicBetas of(String... names) {
        return new AnthropicBetas(names == null ? null : java.util.Arrays.asList(names));
    }

    /** Whether {@code request} turns interleaved thinking on. */
    static boolean interleavedThinking(ModelRequest request) {
        return request.option(AnthropicBetas.class)
                .map(b -> b.names().stream().anyMatch(n -> n.startsWith(INTERLEAVED_THINKING))).orElse(false);
    }
}
