package dev.rein.guard;

import dev.rein.ReinException;
import dev.rein.run.FinalAnswer;
import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Something a final answer must establish before the run may end: a name the model is told when
 * it is missing, an optional hint on how to get it, and a predicate over the proposed answer (its
 * text, the finish report, and the history, which holds every tool result).
 *
 * <pre>{@code
 * RequiredFact.answerMatches("delivery date", Pattern.compile("\\d{4}-\\d{2}-\\d{2}"))
 * RequiredFact.toolSucceeded("order looked up", "get_order").withHint("call get_order with the order id")
 * RequiredFact.of("a source for every figure", answer -> answer.answer().contains("http"))
 * }</pre>
 */
public record RequiredFact(String name, String hint, Predicate<FinalAnswer> present) {
    public RequiredFact {
        if (name == null || name.isBlank()) {
            throw new ReinException("a required fact needs a name: the model is told it by name when it is missing");
        }
        if (present == null) {
            throw new ReinException("required fact '" + name + "' was given no predicate (null): pass how to tell the fact is"
                    + " present, e.g. answer -> answer.answer().contains(\"...\")");
        }
        hint = hint == null || hint.isBlank() ? null : hint;
    }

    public static RequiredFact of(String name, Predicate<FinalAnswer> present) {
        return new RequiredFact(name, null, present);
    }

    /** Present when the answer text matches {@code pattern} somewhere. */
    public static RequiredFact answerMatches(String name, Pattern pattern) {
        if (pattern == null) {
            throw new ReinException("required fact '" + name + "' was given no pattern (null): pass the Pattern the answer must match");
        }
        return of(name, answer -> pattern.matcher(answer.answer()).find());
    }

    /** Present when the answer text contains any of {@code words}, ignoring case. */
    public static RequiredFact answerMentions(String name, String... words) {
        if (words == null || words.length == 0) {
            throw new ReinException("required fact '" + name + "': give at least one word to look for");
        }
        for (String word : words) {
            // every text contains "": a blank word would make the fact present in any answer
            if (word == null || word.isBlank()) {
                throw new ReinException("required fact '" + name + "' was given a " + (word == null ? "null" : "blank")
                        + " word; give the words the answer must mention, none of them blank");
            }
        }
        String[] wanted = words.clone(); // the caller's array may change after the fact is made
        return of(name, answer -> {
            String text = answer.answer().toLowerCase(Locale.ROOT);
            for (String word : wanted) {
                if (text.contains(word.toLowerCase(Locale.ROOT))) {
                    return true;
                }
            }
            return false;
        });
    }

    /**
     * Present when a call of {@code tool} succeeded during the run (its result is not an error),
     * also when a compaction has since removed that call from the history.
     */
    public static RequiredFact toolSucceeded(String name, String tool) {
        if (tool == null) {
            throw new ReinException("required fact '" + name + "' was given no tool (null): pass the name of the tool whose"
                    + " successful call establishes it");
        }
        return new RequiredFact(name, "call " + tool + " and use its result", answer -> succeeded(answer, tool));
    }

    /** The same fact with a hint telling the model how to establish it. */
    public RequiredFact withHint(String text) {
        return new RequiredFact(name, text, present);
    }

    /** What the model is told when this fact is missing. */
    public String describeMissing() {
        return "required fact missing: " + name + (hint == null ? "" : " (" + hint + ")");
    }

    private static boolean succeeded(FinalAnswer answer, String tool) {
        // the run's record of calls survives compaction, which drops old turns from the history
        for (FinalAnswer.Call call : answer.calls()) {
            if (tool.equals(call.tool()) && !call.isError()) {
                return true;
            }
        }
        Set<String> calls = new HashSet<>();
        for (Message message : answer.history()) {
            for (ContentBlock block : message.content()) {
                if (block instanceof ToolUseBlock use && use.name().equals(tool)) {
                    calls.add(use.id());
                } else if (block instanceof ToolResultBlock result && !result.isError() && calls.contains(result.toolUseId())) {
                    return true;
                }
            }
        }
        return false;
    }
}
