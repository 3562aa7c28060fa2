package dev.rein.context;

import dev.rein.json.Json;
import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.ModelRequest;
import dev.rein.model.OpaqueBlock;
import dev.rein.model.RedactedThinkingBlock;
import dev.rein.model.TextBlock;
import dev.rein.model.ThinkingBlock;
import dev.rein.model.ToolDefinition;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import java.util.List;

/**
 * A provider-free estimate of a request's input tokens, erring high: ASCII text at 4 characters
 * a token, every other character (Japanese, Chinese, emoji) at one token each, plus a small
 * overhead per message, block and tool. Use the provider's count ({@code Model.countTokens}) for
 * exact numbers; this is for deciding when to ask.
 */
public final class TokenEstimator {
    private static final int PER_MESSAGE = 4;
    private static final int PER_BLOCK = 3;
    private static final int PER_TOOL = 10;

    private TokenEstimator() {}

    public static long estimate(ModelRequest request) {
        long tokens = text(request.systemText());
        for (ToolDefinition tool : request.tools()) {
            tokens += PER_TOOL + text(tool.name()) + text(tool.description() == null ? "" : tool.description())
                    + text(Json.write(tool.inputSchema()));
        }
        for (Message message : request.messages()) {
            tokens += PER_MESSAGE;
            for (ContentBlock block : message.content()) {
                tokens += PER_BLOCK + block(block);
            }
        }
        return tokens;
    }

    /**
     * An estimate of the tokens of {@code content}, such as a response's blocks: what a run charges
     * as output when the provider reported no usage.
     */
    public static long estimate(List<ContentBlock> content) {
        long tokens = 0;
        for (ContentBlock block : content) {
            tokens += PER_BLOCK + block(block);
        }
        return tokens;
    }

    private static long block(ContentBlock block) {
        return switch (block) {
            case TextBlock t -> text(t.text());
            case ToolUseBlock u -> text(u.name()) + text(Json.write(u.input()));
            case ToolResultBlock r -> text(r.content());
            case ThinkingBlock t -> text(t.thinking());
            case RedactedThinkingBlock r -> text(r.data());
            case OpaqueBlock o -> text(o.json().toString());
        };
    }

    /** Tokens of one text: ASCII characters / 4, rounded up, plus one per other character. */
    public static long text(String s) {
        long ascii = 0;
        long other = 0;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            if (cp < 0x80) {
                ascii++;
            } else {
                other++;
            }
            i += Character.charCount(cp);
        }
        return (ascii + 3) / 4 + other;
    }
}
