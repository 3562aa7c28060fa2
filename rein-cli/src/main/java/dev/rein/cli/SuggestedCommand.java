package dev.rein.cli;

/**
 * A command a message suggests for a run in the middle of a sentence ("see 'rein show run_1' for the arguments"), set off
 * so that a person sees where it ends: in quotes it does not hold itself. The run id in it is quoted for the shell
 * ({@link CliHome#shellId}), and quotes of one kind nested in the same kind read as the command ending before its id
 * ({@code 'rein show 'run_1\x1b[2Jold''}); pasted with those outer quotes, a {@code $run} of the id even stood outside
 * any quotes. One rule for every such hint:
 * <ul>
 * <li>in single quotes, as every other command in Rein's messages, when the command holds no single quote: nearly every
 *     id, and any id with a space ({@code 'rein show "my run"'});
 * <li>else in double quotes when it holds nothing a shell reads inside them ({@code " $ ` !}): an id with an escape
 *     'rein runs' shows ({@code "rein show 'run_1\x1b[2Jold'"});
 * <li>else with no quotes around it ({@code see rein show 'it'\''s $5'}): no quote could set it off without being its own.
 * </ul>
 * Pasted together with the quotes set around it, the command is one word a shell runs nothing of. A command that
 * ends a sentence after a colon ("continue the run with: rein resume run_1") needs none of this and stays bare.
 */
final class SuggestedCommand {
    private SuggestedCommand() {}

    /** {@code command} set off by the rule above. */
    static String quoted(String command) {
        return dev.rein.internal.text.ShellWords.setOff(command); // one rule with rein-store-jdbc's hint
    }

    /** {@code command} ("rein show") for the run {@code runId}, its id as 'rein runs' shows it, set off by the rule above. */
    static String forRun(String command, String runId) {
        return quoted(command + " " + CliHome.shellId(runId));
    }

    /** {@code command} for the run {@code runId} followed by {@code rest} ("\"TEXT\"" of a reply), set off by the rule above. */
    static String forRun(String command, String runId, String rest) {
        return quoted(command + " " + CliHome.shellId(runId) + " " + rest);
    }
}
