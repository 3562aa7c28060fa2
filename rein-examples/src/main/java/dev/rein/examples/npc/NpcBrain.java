package dev.rein.examples.npc;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import java.text.Normalizer;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Mira's mind: a conventional state machine runs her routine (patrol, greet, watch, raise the
 * alarm) without any model; only when a traveller speaks, an important moment, does it ask the
 * model, for one short turn. A line answered before is answered from a cache, and a turn that
 * fails or overruns its latency budget falls back to a canned line, so the game never waits.
 */
public final class NpcBrain {
    /** What Mira is doing. */
    public enum Mode { PATROL, WATCH, ALERT }

    /**
     * One tick, for the game log.
     *
     * @param askedModel true when the model was consulted this tick
     * @param modelSteps the model calls of that turn (0 when not consulted)
     */
    public record TickReport(int tick, Mode mode, String action, boolean askedModel, boolean fromCache, int modelSteps,
                             Duration latency) {}

    static final String FALLBACK = "Mira squints at you. \"Speak plainly, traveller, or move along.\"";

    /** A reply given before: the lines said and whether the gate was opened. */
    private record Reply(List<String> lines, boolean openedGate) {}

    private final Village village;
    private final Agent turn;
    private final Map<String, Reply> cache = new HashMap<>();
    private Mode mode = Mode.PATROL;
    private int tick;

    public NpcBrain(Village village, Agent turn) {
        this.village = village;
        this.turn = turn;
    }

    /** Advances the game by one tick: routine from the state machine, the model only when the traveller speaks. */
    public TickReport tick(GameEvent event) {
        tick++;
        long start = System.nanoTime();
        return switch (event) {
            case GameEvent.TravellerSays says -> talk(says.words(), start);
            case GameEvent.Quiet q -> routine(start, mode == Mode.PATROL ? "walks along the wall"
                    : mode == Mode.WATCH ? "watches the traveller" : "keeps her spear raised");
            case GameEvent.TravellerArrives a -> {
                village.travellerArrives();
                mode = Mode.WATCH;
                village.say("Halt! State your business at Hollow Village.");
                yield routine(start, "greets: \"Halt! State your business at Hollow Village.\"");
            }
            case GameEvent.TravellerGets g -> {
                village.travellerGets(g.item());
                yield routine(start, "notices the traveller's " + g.item());
            }
            case GameEvent.WolfAppears w -> {
                mode = Mode.ALERT;
                village.raiseAlarm();
                village.say("Wolf! Everyone inside, now!");
                yield routine(start, "rings the alarm bell: \"Wolf! Everyone inside, now!\"");
            }
            case GameEvent.TravellerLeaves l -> {
                village.travellerLeaves();
                mode = Mode.PATROL;
                yield routine(start, "resumes her patrol");
            }
        };
    }

    private TickReport routine(long start, String action) {
        return new TickReport(tick, mode, action, false, false, 0, Duration.ofNanos(System.nanoTime() - start));
    }

    private TickReport talk(String words, long start) {
        String key = Normalizer.normalize(words, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT).replaceAll("\\W+", " ").strip()
                + "|pass=" + village.travellerHasPass();
        Reply cached = cache.get(key);
        if (cached != null) {
            cached.lines().forEach(village::say);
            if (cached.openedGate()) {
                village.openGate();
            }
            return new TickReport(tick, mode, "says (as before): \"" + String.join(" ", cached.lines()) + "\"", false, true, 0,
                    Duration.ofNanos(System.nanoTime() - start));
        }
        int before = village.said().size();
        boolean wasOpen = village.gateOpen();
        RunResult result = turn.run(situation(village, words));
        List<String> lines = village.said().subList(before, village.said().size());
        Duration latency = Duration.ofNanos(System.nanoTime() - start);
        if (!result.succeeded() || lines.isEmpty()) {
            village.say(FALLBACK);
            return new TickReport(tick, mode, "falls back (" + result.status() + ", " + result.reason() + "): " + FALLBACK, true,
                    false, result.steps(), latency);
        }
        boolean opened = !wasOpen && village.gateOpen();
        cache.put(key, new Reply(List.copyOf(lines), opened));
        return new TickReport(tick, mode, (opened ? "opens the gate and " : "") + "says: \"" + String.join(" ", lines) + "\"", true,
                false, result.steps(), latency);
    }

    /** The goal of one model turn: the scene, and the traveller's words as data. */
    static String situation(Village village, String words) {
        return "Scene: " + village.describe() + "\nThe traveller says: \"" + words.replace("\"", "'") + "\"\n"
                + "Answer as Mira with say (one or two short sentences). Open the gate only for a captain's pass."
                + " Then reply with a few words on what you decided (not shown to the player).";
    }
}
