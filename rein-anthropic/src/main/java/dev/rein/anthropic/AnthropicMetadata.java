package dev.rein.anthropic;

import dev.rein.ReinException;
import dev.rein.model.ModelOption;

/**
 * The request's {@code metadata}: an identifier of the end user on whose behalf the request is
 * made, sent as {@code metadata.user_id}. The API documents it as an opaque identifier (a uuid or
 * a hash) that Anthropic may use to detect abuse; it must not hold a name, an email address or a
 * phone number. Not sent to count_tokens, which takes no metadata.
 *
 * <pre>{@code
 * Agent.builder().model(model).modelOption(AnthropicMetadata.userId(hashOfTheUsersAccountId))
 * }</pre>
 *
 * @param userId the wire value of {@code metadata.user_id}
 */
public record AnthropicMetadata(String userId) implements ModelOption {
    public AnthropicMetadata {
        if (userId == null || userId.isBlank()) {
            throw new ReinException("the user id of AnthropicMetadata is " + (userId == null ? "null" : "blank")
                    + ": give an opaque identifier of the end user, such as a uuid or a hash of their account id"
                    + " (never a name, an email address or a phone number), or leave the option out");
        }
    }

    /** Metadata naming the end user by {@code userId}, an opaque identifier. */
    public static AnthropicMetadata userId(String userId) {
        return new AnthropicMetadata(userId);
    }
}
