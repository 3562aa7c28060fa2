package dev.rein.anthropic;

import dev.rein.json.Hashing;
import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.Role;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.provider.WireCache;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The ids a request's tool calls and results are sent under, and the names of its calls ({@link #wireName}). The API takes only ids matching {@code
 * ^[a-zA-Z0-9_-]+$} and refuses a request in which two {@code tool_use} blocks share one (HTTP 400 "`tool_use` ids must
 * be unique"); a turn another provider answered (an OpenAI-compatible fallback through {@code ModelCall.withModel}, a
 * history handed over) may carry an id outside the pattern (Kimi's {@code functions.lookup:0}, an empty id), the same
 * id at every turn ({@code call_0}) or twice in one turn, and the refused history would fail every later step.
 *
 * <p>An id outside the pattern is sent in a form the API takes ({@link #wireId}), on its own: the same for every
 * request. An id that an earlier call of the same request already has is sent as another one, made from the id and
 * how many times it came before in the request, so that no two calls share one; an id the API made (unique, valid) is
 * sent unchanged. Each result is sent under the id of the call it answers: the first not yet answered call with its id
 * in the turn before it (Rein answers the calls of a turn in call order, under the ids the model gave them).
 *
 * <p>What a repeat is sent as depends on the calls before it in the request, which a later step only adds to, so a
 * message goes out the same way at every step (the prompt cache's prefix); when older turns are dropped (a context
 * edit), later repeats may be sent under other ids, the call and its result alike, which is all the API asks: that
 * the ids of one request be distinct and pair. The history keeps the model's ids.
 */
final class WireIds {

    /** A tool block's id: a call's ({@code use}) or the id a result answers, with its form on the wire when alone. */
    private record Id(boolean use, String id, String wire) {}

    /** Each message's tool blocks, in content order, read once per message. */
    private final WireCache<Message, List<Id>> ids = new WireCache<>();

    private static final int MAX_CANDIDATES = 4096;
    /** The ids {@link #candidate} made, by id and repeat. */
    private final Map<String, String> candidates = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * A tool call id the API takes: the id itself when it does, which is every id the API made; any other is sent
     * with each other character as {@code _} and a digest of the whole id after it, so that ids differing only there
     * stay apart ({@code rein} and the digest for an empty id).
     */
    static String wireId(String id) {
        if (valid(id)) {
            return id;
        }
        return base(id) + "_" + Hashing.sha256(id).substring(0, 12);
    }

    /**
     * Whether the API takes {@code id} as a tool call id: {@code ^[a-zA-Z0-9_-]+$}, else a 400 ("tool_use.id: String
     * should match pattern"). Checked by hand: it runs for every call of every request.
     */
    static boolean valid(String id) {
        if (id.isEmpty()) {
            return false;
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-')) {
                return false;
            }
        }
        return true;
    }

    /** The longest tool call name the API takes in a message, in characters (400 "tool_use.name: String should have at most 200 characters"). */
    static final int MAX_NAME = 200;

    /**
     * A tool call's name as the API takes it in a message: the name itself, which every call to one of the request's
     * tools has (Rein's tool names are at most 64 characters). A call to a tool the model made up (a shell command as
     * its name) stays in the history with its refusal, and a name longer than {@value #MAX_NAME} characters would fail
     * every later step; it is sent cut, a digest of the whole name at its end so that long names stay apart. Counted
     * in characters (code points), as the API counts, so no surrogate pair is cut either.
     */
    static String wireName(String name) {
        if (name.length() <= MAX_NAME || name.codePointCount(0, name.length()) <= MAX_NAME) {
            return name;
        }
        String digest = Hashing.sha256(name).substring(0, 12);
        return name.substring(0, name.offsetByCodePoints(0, MAX_NAME - digest.length() - 1)) + "_" + digest;
    }

    private static String base(String id) {
        return id.isEmpty() ? "rein" : id.replaceAll("[^a-zA-Z0-9_-]", "_");
    }

    /**
     * For each message of {@code history}, the ids its tool blocks are sent under, in content order, or null for a
     * message whose blocks go under {@link #wireId} of their own ids; null as a whole when every message's do (no call
     * id repeats in the request: nearly always).
     */
    String[][] plan(List<Message> history) {
        // Nearly always every call id is the API's own (valid, unique): seen so by reading the calls, with no lookup.
        Set<String> calls = null;
        for (Message message : history) {
            for (ContentBlock block : message.content()) {
                if (block instanceof ToolUseBlock u) {
                    calls = calls == null ? new HashSet<>() : calls;
                    if (!valid(u.id()) || !calls.add(u.id())) {
                        return planAnyIds(history);
                    }
                }
            }
        }
        return null;
    }

    /**
     * {@link #plan} for a history with a call id the API would not take or one that repeats; it gives the same plan
     * for any history (package-private for the test that checks the shortcut against it).
     */
    String[][] planAnyIds(List<Message> history) {
        List<List<Id>> blocks = new ArrayList<>(history.size());
        Set<String> reserved = new HashSet<>();
        int uses = 0;
        for (Message message : history) {
            List<Id> of = ids.get(message, WireIds::idsOf);
            blocks.add(of);
            for (Id id : of) {
                if (id.use()) {
                    uses++;
                    reserved.add(id.wire());
                }
            }
        }
        return reserved.size() == uses ? null : distinct(history, blocks, reserved);
    }

    /** The plan when some call id repeats; {@code reserved} holds every call's id as sent alone, which a new one avoids. */
    private String[][] distinct(List<Message> history, List<List<Id>> blocks, Set<String> reserved) {
        String[][] plan = new String[history.size()][];
        Set<String> used = new HashSet<>();
        Map<String, Integer> repeats = new HashMap<>();
        Map<String, ArrayDeque<String>> unanswered = new HashMap<>();
        Map<String, String> latest = new HashMap<>();
        boolean assistantBefore = false;
        for (int m = 0; m < history.size(); m++) {
            boolean assistant = history.get(m).role() == Role.ASSISTANT;
            if (assistant && !assistantBefore) {
                unanswered.clear(); // a turn's calls are answered by the message after it, or not at all
            }
            assistantBefore = assistant;
            List<Id> of = blocks.get(m);
            String[] wire = new String[of.size()];
            boolean changed = false;
            for (int b = 0; b < of.size(); b++) {
                Id id = of.get(b);
                String sent;
                if (id.use()) {
                    sent = id.wire();
                    if (!used.add(sent)) {
                        sent = repeat(id.id(), repeats, used, reserved);
                    }
                    unanswered.computeIfAbsent(id.id(), k -> new ArrayDeque<>()).add(sent);
                    latest.put(id.id(), sent);
                } else {
                    ArrayDeque<String> calls = unanswered.get(id.id());
                    sent = calls != null && !calls.isEmpty() ? calls.poll() : latest.getOrDefault(id.id(), id.wire());
                }
                wire[b] = sent;
                changed |= !sent.equals(id.wire());
            }
            plan[m] = changed ? wire : null;
        }
        return plan;
    }

    /** The id a call is sent under whose id an earlier call of the request has: one no call has, nor will have alone. */
    private String repeat(String id, Map<String, Integer> repeats, Set<String> used, Set<String> reserved) {
        while (true) {
            int n = repeats.merge(id, 1, Integer::sum);
            String sent = candidate(id, n);
            if (!reserved.contains(sent) && used.add(sent)) {
                return sent;
            }
        }
    }

    /**
     * The {@code n}th other id for {@code id}, made from the id and a digest of both. Every request plans every repeat
     * of the history again, so they are remembered rather than hashed at each step (bounded: a server numbering its
     * calls anew each turn repeats the same few ids).
     */
    private String candidate(String id, int n) {
        String key = id + '#' + n;
        String known = candidates.get(key);
        if (known != null) {
            return known;
        }
        if (candidates.size() >= MAX_CANDIDATES) {
            candidates.clear();
        }
        String made = (valid(id) ? id : base(id)) + "_" + Hashing.sha256(key).substring(0, 12);
        candidates.put(key, made);
        return made;
    }

    private static List<Id> idsOf(Message message) {
        List<Id> of = null;
        for (ContentBlock block : message.content()) {
            Id id = switch (block) {
                case ToolUseBlock u -> new Id(true, u.id(), wireId(u.id()));
                case ToolResultBlock r -> new Id(false, r.toolUseId(), wireId(r.toolUseId()));
                default -> null;
            };
            if (id != null) {
                of = of == null ? new ArrayList<>() : of;
                of.add(id);
            }
        }
        return of == null ? List.of() : List.copyOf(of);
    }
}
