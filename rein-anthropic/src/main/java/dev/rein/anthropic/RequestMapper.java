package dev.rein.anthropic;

import com.anthropic.core.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import com.anthropic.models.messages.CacheControlEphemeral;
import com.anthropic.models.messages.ContentBlockParam;
import com.anthropic.models.messages.MessageCountTokensParams;
import com.anthropic.models.messages.MessageCountTokensTool;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.MessageParam;
import com.anthropic.models.messages.RedactedThinkingBlockParam;
import com.anthropic.models.messages.TextBlockParam;
import com.anthropic.models.messages.ThinkingBlockParam;
import com.anthropic.models.messages.Tool;
import com.anthropic.models.messages.ToolChoiceAny;
import com.anthropic.models.messages.ToolChoiceNone;
import com.anthropic.models.messages.ToolChoiceTool;
import com.anthropic.models.messages.ToolResultBlockParam;
import com.anthropic.models.messages.ToolUseBlockParam;
import dev.rein.ReinException;
import dev.rein.json.Json;
import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.ModelRequest;
import dev.rein.model.ServerContextEdit;
import dev.rein.model.ServerContextEdits;
import dev.rein.model.OpaqueBlock;
import dev.rein.model.RedactedThinkingBlock;
import dev.rein.model.TextBlock;
import dev.rein.model.ThinkingBlock;
import dev.rein.model.ToolChoice;
import dev.rein.model.ToolDefinition;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.tool.ToolExecutor;
import java.util.ArrayList;
import java.util.List;

/**
 * Translates a provider-neutral {@link ModelRequest} into the SDK's request parameters.
 *
 * <p>Sampling parameters ({@code temperature}, {@code top_p}, {@code top_k}) are sent only when the
 * request sets them: the API version this SDK speaks rejects them on current models, and the SDK
 * has no typed field for them, so they go in as additional body properties.
 */
final class RequestMapper {
    /** The request pieces both the create and the count-tokens parameters are made of. */
    record Parts(List<TextBlockParam> system, List<Tool> tools, com.anthropic.models.messages.ToolChoice toolChoice,
                 List<MessageParam> messages) {}

    private RequestMapper() {}

    static MessageCreateParams create(ModelRequest request) {
        Parts parts = parts(request, CacheBreakpoints.plan(request));
        MessageCreateParams.Builder b = MessageCreateParams.builder()
                .model(request.model())
                .maxTokens(request.maxTokens())
                .messages(parts.messages());
        if (!parts.system().isEmpty()) {
            b.systemOfTextBlockParams(parts.system());
        }
        parts.tools().forEach(b::addTool);
        if (parts.toolChoice() != null) {
            b.toolChoice(parts.toolChoice());
        }
        if (!request.stopSequences().isEmpty()) {
            b.stopSequences(request.stopSequences());
        }
        if (request.temperature() != null) {
            b.putAdditionalBodyProperty("temperature", JsonValue.from(request.temperature()));
        }
        if (request.topP() != null) {
            b.putAdditionalBodyProperty("top_p", JsonValue.from(request.topP()));
        }
        if (request.topK() != null) {
            b.putAdditionalBodyProperty("top_k", JsonValue.from(request.topK()));
        }
        List<ServerContextEdit> edits = request.option(ServerContextEdits.class).map(ServerContextEdits::edits).orElse(List.of());
        if (!edits.isEmpty()) {
            b.putAdditionalBodyProperty("context_management", ContextEdits.body(edits));
            b.putAdditionalHeader("anthropic-beta", String.join(",", ContextEdits.betas(edits)));
        }
        structuredOutput(request).ifPresent(b::outputConfig);
        return b.build();
    }

    /** The output schema as {@code output_config.format}, when the request opts in with {@link AnthropicStructuredOutput}. */
    private static java.util.Optional<com.anthropic.models.messages.OutputConfig> structuredOutput(ModelRequest request) {
        if (!request.option(AnthropicStructuredOutput.class).map(AnthropicStructuredOutput::enabled).orElse(false)) {
            return java.util.Optional.empty();
        }
        return request.option(dev.rein.model.OutputSchema.class).map(schema -> {
            com.anthropic.models.messages.JsonOutputFormat.Schema.Builder body = com.anthropic.models.messages.JsonOutputFormat.Schema.builder();
            schema.schema().properties().forEach(field -> body.putAdditionalProperty(field.getKey(),
                    JsonValue.from(dev.rein.json.Json.mapper().convertValue(field.getValue(), Object.class))));
            return com.anthropic.models.messages.OutputConfig.builder()
                    .format(com.anthropic.models.messages.JsonOutputFormat.builder().schema(body.build()).build())
                    .build();
        });
    }

    /** Count-tokens parameters: the same prompt, without cache breakpoints or output settings. */
    static MessageCountTokensParams countTokens(ModelRequest request) {
        Parts parts = parts(request, CacheBreakpoints.Plan.NONE);
        MessageCountTokensParams.Builder b = MessageCountTokensParams.builder()
                .model(request.model())
                .messages(parts.messages());
        if (!parts.system().isEmpty()) {
            b.systemOfTextBlockParams(parts.system());
        }
        if (!parts.tools().isEmpty()) {
            b.tools(parts.tools().stream().map(MessageCountTokensTool::ofTool).toList());
        }
        if (parts.toolChoice() != null) {
            b.toolChoice(parts.toolChoice());
        }
        return b.build();
    }

    static Parts parts(ModelRequest request, CacheBreakpoints.Plan plan) {
        CacheControlEphemeral cache = cacheControl(AnthropicOptions.of(request).caching().ttl());
        List<TextBlockParam> system = new ArrayList<>();
        for (int i = 0; i < request.system().size(); i++) {
            boolean mark = plan.system() && i == request.system().size() - 1;
            system.add(text(request.system().get(i), mark ? cache : null));
        }
        List<Tool> tools = new ArrayList<>();
        for (int i = 0; i < request.tools().size(); i++) {
            tools.add(tool(request.tools().get(i), plan.tool() == i ? cache : null));
        }
        List<MessageParam> messages = new ArrayList<>();
        for (int m = 0; m < request.messages().size(); m++) {
            Message message = request.messages().get(m);
            List<ContentBlockParam> blocks = new ArrayList<>();
            for (int i = 0; i < message.content().size(); i++) {
                blocks.add(block(message.content().get(i), plan.marks(m, i) ? cache : null));
            }
            messages.add(switch (message.role()) {
                case USER -> MessageParam.ofUserOfContentBlockParams(blocks);
                case ASSISTANT -> MessageParam.ofAssistantOfContentBlockParams(blocks);
            });
        }
        return new Parts(system, tools, toolChoice(request.toolChoice(), !tools.isEmpty()), messages);
    }

    /** The 5-minute lifetime is the API default, so only the 1-hour one is spelled out. */
    static CacheControlEphemeral cacheControl(CacheTtl ttl) {
        CacheControlEphemeral.Builder b = CacheControlEphemeral.builder();
        if (ttl == CacheTtl.ONE_HOUR) {
            b.ttl(CacheControlEphemeral.Ttl.TTL_1H);
        }
        return b.build();
    }

    static ContentBlockParam block(ContentBlock block, CacheControlEphemeral cache) {
        return switch (block) {
            case TextBlock t -> ContentBlockParam.ofText(text(t, cache));
            case ToolUseBlock u -> ContentBlockParam.ofToolUse(toolUse(u, cache));
            case ToolResultBlock r -> ContentBlockParam.ofToolResult(toolResult(r, cache));
            case ThinkingBlock t -> ContentBlockParam.ofThinking(
                    ThinkingBlockParam.builder().thinking(t.thinking()).signature(t.signature()).build());
            case RedactedThinkingBlock r -> ContentBlockParam.ofRedactedThinking(
                    RedactedThinkingBlockParam.builder().data(r.data()).build());
            // Sent back as received; cache breakpoints are never placed on opaque blocks.
            case OpaqueBlock o -> JsonValue.fromJsonNode(o.json()).convert(ContentBlockParam.class);
        };
    }

    private static TextBlockParam text(TextBlock text, CacheControlEphemeral cache) {
        TextBlockParam.Builder b = TextBlockParam.builder().text(text.text());
        if (cache != null) {
            b.cacheControl(cache);
        }
        return b.build();
    }

    private static ToolUseBlockParam toolUse(ToolUseBlock use, CacheControlEphemeral cache) {
        if (!use.input().isObject()) {
            throw new ReinException("the input of tool_use " + use.id() + " is not a JSON object: " + use.input());
        }
        ToolUseBlockParam.Builder b = ToolUseBlockParam.builder()
                .id(use.id())
                .name(use.name())
                .input(JsonValue.fromJsonNode(wireInput(use)).convert(ToolUseBlockParam.Input.class));
        if (cache != null) {
            b.cacheControl(cache);
        }
        return b.build();
    }

    /**
     * The SDK converts and writes JSON recursively and cannot carry an input nested hundreds of levels
     * deep. Rein refuses such a call before running it (its tool result says why), so the call is sent
     * back with an empty input instead of failing every later request.
     */
    private static JsonNode wireInput(ToolUseBlock use) {
        return Json.depth(use.input()) > ToolExecutor.MAX_ARGUMENT_DEPTH ? Json.object() : use.input();
    }

    private static ToolResultBlockParam toolResult(ToolResultBlock result, CacheControlEphemeral cache) {
        ToolResultBlockParam.Builder b = ToolResultBlockParam.builder()
                .toolUseId(result.toolUseId())
                .content(result.content())
                .isError(result.isError());
        if (cache != null) {
            b.cacheControl(cache);
        }
        return b.build();
    }

    private static Tool tool(ToolDefinition definition, CacheControlEphemeral cache) {
        Tool.Builder b = Tool.builder()
                .name(definition.name())
                .inputSchema(JsonValue.fromJsonNode(definition.inputSchema()).convert(Tool.InputSchema.class));
        if (!definition.description().isEmpty()) {
            b.description(definition.description());
        }
        if (cache != null) {
            b.cacheControl(cache);
        }
        return b.build();
    }

    /**
     * {@code auto} is the API default and is left out; {@code none} without tools says nothing and
     * is left out too, so requests without tools stay valid.
     */
    private static com.anthropic.models.messages.ToolChoice toolChoice(ToolChoice choice, boolean hasTools) {
        if (choice instanceof ToolChoice.None && !hasTools) {
            return null;
        }
        return switch (choice) {
            case ToolChoice.Auto a -> null;
            case ToolChoice.Any a -> com.anthropic.models.messages.ToolChoice.ofAny(ToolChoiceAny.builder().build());
            case ToolChoice.Tool t -> com.anthropic.models.messages.ToolChoice.ofTool(
                    ToolChoiceTool.builder().name(t.name()).build());
            case ToolChoice.None n -> com.anthropic.models.messages.ToolChoice.ofNone(ToolChoiceNone.builder().build());
        };
    }
}
