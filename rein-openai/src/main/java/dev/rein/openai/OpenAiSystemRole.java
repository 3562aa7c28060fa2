package dev.rein.openai;

import dev.rein.ReinException;
import dev.rein.model.ModelOption;

/**
 * The role the system prompt is sent with. OpenAI's reasoning models (o1 and newer) take their
 * instructions as a {@code developer} message, which replaces the {@code system} message for them
 * (the API turns a system message into one, but a server or proxy in front of such a model may
 * not); the default is {@code system}, which every compatible server knows.
 *
 * <pre>{@code
 * Agent.builder().model(model).modelOption(OpenAiSystemRole.DEVELOPER)
 * }</pre>
 *
 * @param role the wire role, {@code "system"} or {@code "developer"}
 */
public record OpenAiSystemRole(String role) implements ModelOption {
    /** {@code {"role": "system"}}: what is sent when the option is not set. */
    public static final OpenAiSystemRole SYSTEM = new OpenAiSystemRole("system");
    /** {@code {"role": "developer"}}, for OpenAI's reasoning models. */
    public static final OpenAiSystemRole DEVELOPER = new OpenAiSystemRole("developer");

    public OpenAiSystemRole {
        if (!"system".equals(role) && !"developer".equals(role)) {
            throw new ReinException("the system prompt's role is system or developer, not "
                    + (role == null ? "null" : "'" + role + "'"));
        }
    }

    /** The role by its wire name, {@code "system"} or {@code "developer"}. */
    public static OpenAiSystemRole of(String role) {
        return new OpenAiSystemRole(role);
    }
}
