package dev.rein.memory;

/**
 * Where a remembered entry came from.
 *
 * @param runId       the run that wrote it, or null when application code wrote it outside a run
 * @param observation the tool call whose observation it repeats, or null (said in the conversation)
 * @param source      the observation's own source (for example {@code orders-db:A-104}), or
 *                    {@code conversation} when it was not an observation
 */
public record MemorySource(String runId, String observation, String source) {
    /** The source of an entry stated in a conversation rather than observed. */
    public static final String CONVERSATION = "conversation";

    public MemorySource {
        source = source == null || source.isBlank() ? CONVERSATION : source;
    }

    /** An entry the application wrote itself, naming where it got it. */
    public static MemorySource application(String source) {
        return new MemorySource(null, null, source);
    }

    /** One line for a person or a model: the source, then the run and observation. */
    public String describe() {
        StringBuilder sb = new StringBuilder(source);
        if (runId != null) {
            sb.append(" (run ").append(runId);
            if (observation != null) {
                sb.append(", observation ").append(observation);
            }
            sb.append(')');
        }
        return sb.toString();
    }
}
