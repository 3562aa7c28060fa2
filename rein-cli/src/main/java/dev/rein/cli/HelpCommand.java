package dev.rein.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;

/**
 * {@code rein help [COMMAND...]}: the help of {@code rein}, of one of its commands, or of a command of a command
 * ({@code rein help memory list}). In place of picocli's {@code HelpCommand}, which takes one word and ignored the rest
 * ({@code rein help run extra} printed run's help and said nothing of {@code extra}): a word beyond a command that has no
 * commands of its own is a usage error naming it, and a word that names no command is told as the command itself tells it.
 */
@Command(name = "help", helpCommand = true, synopsisHeading = "%nUsage: ",
        description = {"Display help information about the specified command."})
final class HelpCommand implements CommandLine.IHelpCommandInitializable2, Runnable {
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show usage help for the help command and exit.")
    private boolean helpRequested;

    @Parameters(paramLabel = "COMMAND", arity = "0..*",
            description = "The COMMAND to display the usage help message for (a command of a command after it: memory list).")
    private List<String> words = new ArrayList<>();

    private CommandLine self;
    private CommandLine.Help.ColorScheme colorScheme;
    private PrintWriter out;

    @Override
    public void init(CommandLine helpCommandLine, CommandLine.Help.ColorScheme colorScheme, PrintWriter out, PrintWriter err) {
        this.self = helpCommandLine;
        this.colorScheme = colorScheme;
        this.out = out;
    }

    @Override
    public void run() {
        List<String> given = new ArrayList<>(words);
        // picocli parses a help command leniently: an unknown option after it is set aside, not refused
        given.addAll(self.getParseResult() == null ? List.of() : self.getParseResult().unmatched());
        CommandLine target = self.getParent();
        for (int i = 0; i < given.size(); i++) {
            String word = given.get(i);
            CommandLine sub = word.startsWith("-") ? null : target.getSubcommands().get(word);
            if (sub != null) {
                target = sub;
            } else if (!target.getSubcommands().isEmpty() && !word.startsWith("-")) {
                // worded as picocli's own, so Errors names it as 'rein rnu' is named: unknown command, the likely one
                throw new ParameterException(target, "Unknown subcommand '" + word + "'.", null, word);
            } else if (word.startsWith("-") && !target.getSubcommands().isEmpty()) {
                String path = target.getCommandSpec().qualifiedName();
                throw new ParameterException(self, "'" + word + "' is not a command: " + self.getCommandSpec().qualifiedName()
                        + " takes the names of commands, e.g. rein help run or rein help memory list; the options of " + path
                        + " are in '" + path + " --help'");
            } else {
                String path = target.getCommandSpec().qualifiedName();
                String help = self.getCommandSpec().qualifiedName() + " " + String.join(" ", given.subList(0, i));
                throw new ParameterException(self, "'" + word + "' is one word too many: " + path
                        + " has no commands of its own"
                        + ", so give only the command whose help you want: " + help.strip());
            }
        }
        target.usage(out, colorScheme);
    }
}
