package dev.rein.eval.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.eval.Suite;
import dev.rein.eval.TaskCategory;
import dev.rein.eval.env.FileTreeEnvironment;
import dev.rein.eval.run.EvalResult;
import dev.rein.eval.run.EvalRunner;
import dev.rein.eval.run.TrialOutcome;
import dev.rein.eval.run.Verdict;
import dev.rein.agent.Agent;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SuiteFileTest {
    private static final EvalRegistry REGISTRY = EvalRegistry.load();
    private static final String NO_TASKS = "suite.yaml: the suite has no tasks; list them under tasks:, each with an id"
            + " and a goal (and a script to run offline); docs/eval-suite-example.yaml is a suite to start from (format:"
            + " docs/eval.md)";

    private static Suite parse(String yaml) {
        return SuiteFile.parse(yaml, SuiteFile.Format.YAML, "suite.yaml", REGISTRY);
    }

    private static final String HEADER = """
            suite: s
            environment: {name: file_tree, options: {files: {a.txt: alpha}}}
            agent: {toolsets: [files_read]}
            tasks:
            """;

    @Test
    void aTypoIsAnErrorWithItsPlaceInTheFile() {
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    script: [{text: hi}]
                    expect: {must_cal: [read_file]}
                """)).isInstanceOf(ReinException.class)
                .hasMessageStartingWith("suite.yaml, at tasks[0].expect.must_cal (line 8, column")
                .hasMessageContaining("unknown field 'must_cal'; known fields here: ").hasMessageContaining("must_call")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("SuiteSpec").doesNotContain("class "));
    }

    @Test
    void aYamlOrJsonSyntaxErrorSaysWhatIsWrongAndWhereNotOnlyWhatTheParserWasDoing() {
        // an unclosed flow list: the parser's context alone ('while parsing a flow sequence') said nothing of the cause
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    script: [{text: hi}]
                    expect: {must_call: [read_file}
                """)).isInstanceOf(ReinException.class)
                .hasMessage("suite.yaml, at tasks[0].expect.must_call[1] (line 8, column 35): not valid YAML: expected ',' or ']', "
                        + "but got } (while parsing a flow sequence at line 8, column 25)" + WHAT_A_SUITE_IS)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("'reader'").doesNotContain("^"));
        // a key indented less than its siblings: the cause, not 'while parsing a block collection' alone
        assertThatThrownBy(() -> parse("suite: s\ntasks:\n  - id: a\n   goal: g\n"))
                .hasMessage("suite.yaml, at tasks (line 4, column 4): not valid YAML: expected <block end>, but found "
                        + "'<block mapping start>' (while parsing a block collection at line 3, column 3)" + WHAT_A_SUITE_IS);
        // a tab used to indent: placed at the tab, without SnakeYAML's echo of the line
        assertThatThrownBy(() -> parse("suite: s\ntasks:\n\t- id: a\n"))
                .hasMessageStartingWith("suite.yaml (line 3, column 1): not valid YAML: found character '\\t(TAB)' that cannot start any token")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("'reader'").doesNotContain("^"));
        // JSON: Jackson's '[Source: REDACTED ...]' placeholder reads as a masked secret
        assertThatThrownBy(() -> SuiteFile.parse("{\"suite\": \"s\", \"tasks\": [}\n", SuiteFile.Format.JSON, "suite.json", REGISTRY))
                .hasMessageStartingWith("suite.json, at tasks (line 1, column 26): not valid JSON: Unexpected close marker '}': expected ']'")
                .hasMessageContaining("line 1, column 25")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("Source").doesNotContain("REDACTED"));
    }

    /** The next step every error of a file that is no suite at all ends with: what a suite file is and where its format is. */
    private static final String WHAT_A_SUITE_IS = "; a suite file is a YAML mapping (or JSON object) with suite: NAME and"
            + " tasks: [...], each task with an id and a goal: see 'Suite files' in docs/eval.md, or start from"
            + " docs/eval-suite-example.yaml";

    /**
     * 'rein eval bad.json' gave the line and column of what is not JSON (or YAML), and a file that parses but is no
     * mapping (a list, a line of text) 'wrong kind of value: expected a mapping of fields', neither saying what the file
     * should be; each now ends with what a suite file is and where its format is described.
     */
    @Test
    void aFileThatIsNoSuiteSaysWhatASuiteFileIsAndWhereItsFormatIs() {
        assertThatThrownBy(() -> SuiteFile.parse("{\"suite\": \"s\", \"tasks\": [}\n", SuiteFile.Format.JSON, "bad.json", REGISTRY))
                .hasMessageStartingWith("bad.json, at tasks (line 1, column 26): not valid JSON: ")
                .hasMessageEndingWith(WHAT_A_SUITE_IS);
        assertThatThrownBy(() -> SuiteFile.parse("suite: s\n  tasks: [\n", SuiteFile.Format.YAML, "bad.yaml", REGISTRY))
                .hasMessageStartingWith("bad.yaml (line 2, column 8): not valid YAML: ")
                .hasMessageEndingWith(WHAT_A_SUITE_IS);
        assertThatThrownBy(() -> SuiteFile.parse("[1, 2]", SuiteFile.Format.JSON, "list.json", REGISTRY))
                .hasMessage("list.json (line 1, column 1): wrong kind of value: expected a mapping of fields (key: value)"
                        + WHAT_A_SUITE_IS);
        assertThatThrownBy(() -> SuiteFile.parse("These are my notes about the release.\n", SuiteFile.Format.YAML, "notes.yaml", REGISTRY))
                .hasMessageStartingWith("notes.yaml (line 1, column 1): wrong kind of value: expected a mapping of fields")
                .hasMessageEndingWith(WHAT_A_SUITE_IS);
        // a wrong kind of value inside a suite is that field's, and its message says what the field takes: no hint
        assertThatThrownBy(() -> parse(HEADER + "  - id: t\n    goal: [a, b]\n"))
                .hasMessageContaining("wrong kind of value: expected a text value")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("docs/eval-suite-example.yaml"));
        // an empty entry in the task list said only 'tasks[0] is empty'
        assertThatThrownBy(() -> parse("suite: s\ntasks:\n  -\n"))
                .hasMessageContaining("tasks[0] is empty: give each task an id and a goal (- id: release-date, goal: ...)");
    }

    /**
     * A field's value of the wrong kind (a line of text where a list belongs) said only "wrong kind of value: expected a
     * list", not how a list is written there; it now ends with an example of the field, in the file's own format.
     */
    @Test
    void aValueOfTheWrongKindSaysWhatTheFieldTakesWithAnExample() {
        assertThatThrownBy(() -> parse(HEADER + "  - id: t\n    goal: g\n    script: [{text: hi}]\n    expect: {must_call: read_file}\n"))
                .hasMessage("suite.yaml, at tasks[0].expect.must_call (line 8, column 25): wrong kind of value: expected a list,"
                        + " e.g. must_call: [read_file]");
        assertThatThrownBy(() -> parse(HEADER + "  - id: t\n    goal: g\n    script: hi\n"))
                .hasMessageEndingWith(": wrong kind of value: expected a list, e.g. script: [{text: The final answer.}]");
        assertThatThrownBy(() -> parse(HEADER + "  - id: t\n    goal: g\n    script: [{text: hi}]\n    expect: [must_call]\n"))
                .hasMessageEndingWith(": wrong kind of value: expected a mapping of fields (key: value), e.g. expect:"
                        + " {must_call: [read_file]}");
        // the same name takes another kind elsewhere: the agent's approvals is a policy, expect's a list of tools
        assertThatThrownBy(() -> parse(HEADER + "  - id: t\n    goal: g\n    script: [{text: hi}]\n    agent: {approvals: [never]}\n"))
                .hasMessageEndingWith(": wrong kind of value: expected a text value, e.g. approvals: side_effects");
        assertThatThrownBy(() -> parse(HEADER + "  - id: t\n    goal: g\n    script: [{text: hi}]\n    expect: {approvals: write_file}\n"))
                .hasMessageEndingWith(": wrong kind of value: expected a list, e.g. approvals: [write_file]");
        // a JSON file is shown JSON
        assertThatThrownBy(() -> SuiteFile.parse("{\"suite\": \"s\", \"trials\": \"three\", \"tasks\": []}", SuiteFile.Format.JSON,
                "suite.json", REGISTRY))
                .hasMessage("suite.json, at trials (line 1, column 26): wrong kind of value: expected a whole number,"
                        + " e.g. \"trials\": 3");
    }

    /**
     * A whole number too large for its field said Jackson's "Numeric value (99999999999999) out of range of int
     * (-2147483648 - 2147483647)", Java's type and a range of negative numbers the field does not take; in a JSON file it
     * was "not valid JSON", though the file was. It now says the number is too large, the most the field takes, and an
     * example.
     */
    @Test
    void aNumberTooLargeForItsFieldSaysTheMostItTakesWithAnExample() {
        assertThatThrownBy(() -> parse(HEADER.replace("suite: s\n", "suite: s\ntrials: 99999999999999\n") + "  - id: t\n    goal: g\n"
                + "    script: [{text: hi}]\n"))
                .hasMessageStartingWith("suite.yaml, at trials (line 2, column ")
                .hasMessageEndingWith("): the number 99999999999999 is too large: give a whole number of at most 2147483647,"
                        + " e.g. trials: 3");
        assertThatThrownBy(() -> parse(HEADER + "  - id: t\n    goal: g\n    timeout_ms: 99999999999999999999999\n    script: [{text: hi}]\n"))
                .hasMessageEndingWith(": the number 99999999999999999999999 is too large: give a whole number of at most"
                        + " 9223372036854775807, e.g. timeout_ms: 600000");
        assertThatThrownBy(() -> SuiteFile.parse("{\"suite\": \"s\", \"trials\": 99999999999999, \"tasks\": []}", SuiteFile.Format.JSON,
                "suite.json", REGISTRY))
                .hasMessageStartingWith("suite.json, at trials (line 1, column ")
                .hasMessageEndingWith(": the number 99999999999999 is too large: give a whole number of at most 2147483647,"
                        + " e.g. \"trials\": 3");
    }

    /**
     * A negative whole number out of range (expect.max_steps: -99999999999) names the least the field takes. Before: "give a
     * whole number of at most 2147483647", the wrong end of the field's range.
     */
    @Test
    void aNegativeNumberOutOfRangeSaysTheLeastItsFieldTakes() {
        assertThatThrownBy(() -> parse(HEADER + "  - id: t\n    goal: g\n    script: [{text: hi}]\n"
                + "    expect: {max_steps: -99999999999}\n"))
                .hasMessageEndingWith("): the number -99999999999 is too small: give a whole number of at least 1, e.g."
                        + " max_steps: 6");
        assertThatThrownBy(() -> parse(HEADER + "  - id: t\n    goal: g\n    script: [{text: hi, delay_ms: -99999999999999999999}]\n"))
                .hasMessageEndingWith(": the number -99999999999999999999 is too small: give a whole number of at least 0, e.g."
                        + " delay_ms: 5000");
        assertThatThrownBy(() -> SuiteFile.parse("{\"suite\": \"s\", \"trials\": -99999999999999, \"tasks\": []}",
                SuiteFile.Format.JSON, "suite.json", REGISTRY))
                .hasMessageEndingWith(": the number -99999999999999 is too small: give a whole number of at least 1,"
                        + " e.g. \"trials\": 3");
    }

    /**
     * A task without an environment (none on it or the suite) said "set environment on the task or the suite", not how it
     * is written nor which there are; it now gives an example and the known environments.
     */
    @Test
    void aTaskWithoutAnEnvironmentSaysHowToSetOneAndWhichThereAre() {
        assertThatThrownBy(() -> parse("suite: s\ntasks:\n  - id: t\n    goal: g\n    script: [{text: hi}]\n"))
                .hasMessage("suite.yaml (line 3, column 5): tasks[0] (t) has no environment: set environment on the task or the"
                        + " suite, e.g. environment: {name: file_tree, options: {files: {notes.md: ...}}}; the environments are:"
                        + " " + String.join(", ", REGISTRY.names()));
    }

    /**
     * In a .json suite, the examples of how an environment or an agent is set are JSON, as the file is (753e8bab made a
     * wrong kind of value's example follow the file's format). Before: YAML ({@code environment: {name: file_tree, ...}},
     * {@code agent: {toolsets: [files]}}), which a .json file cannot hold.
     */
    @Test
    void aJsonSuitesMissingEnvironmentOrAgentIsShownInJson() {
        assertThatThrownBy(() -> SuiteFile.parse("{\"suite\": \"s\", \"tasks\": [{\"id\": \"t\", \"goal\": \"g\", \"script\":"
                + " [{\"text\": \"hi\"}]}]}", SuiteFile.Format.JSON, "suite.json", REGISTRY))
                .hasMessageContaining("tasks[0] (t) has no environment: set environment on the task or the suite, e.g."
                        + " \"environment\": {\"name\":\"file_tree\",\"options\":{\"files\":{\"notes.md\":\"...\"}}};"
                        + " the environments are: ");
        assertThatThrownBy(() -> SuiteFile.parse("{\"suite\": \"s\", \"environment\": \"file_tree\", \"tasks\": [{\"id\": \"t\","
                + " \"goal\": \"g\", \"script\": [{\"text\": \"hi\"}]}]}", SuiteFile.Format.JSON, "suite.json", REGISTRY))
                .hasMessageEndingWith("tasks[0] (t) has no agent: declare one with the toolsets it gets, e.g. \"agent\":"
                        + " {\"toolsets\":[\"files\"]} (the toolsets of file_tree: files, files_read, files_write), or name a"
                        + " registered agent with \"agent\": {\"use\":\"NAME\"} (file_tree has none)");
    }

    /**
     * A task without an agent said "set agent.use to a registered agent, or agent.toolsets", neither how that is written
     * nor which toolsets or agents its environment has; it now gives an example and both lists.
     */
    @Test
    void aTaskWithoutAnAgentSaysHowToDeclareOneAndWhatItsEnvironmentOffers() {
        assertThatThrownBy(() -> parse("suite: s\nenvironment: file_tree\ntasks:\n  - id: t\n    goal: g\n    script: [{text: hi}]\n"))
                .hasMessageEndingWith("tasks[0] (t) has no agent: declare one with the toolsets it gets, e.g. agent: {toolsets:"
                        + " [files]} (the toolsets of file_tree: files, files_read, files_write), or name a registered agent"
                        + " with agent: {use: NAME} (file_tree has none)");
    }

    @Test
    void errorsInWhatTheFileMeansNameTheLineAndColumnAsSyntaxErrorsDo() {
        // a wrong value, an unknown check and a missing field named the key path but not where it is in the file
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    timeout_ms: -5
                    script: [{text: hi}]
                """)).hasMessage("suite.yaml (line 7, column 17): tasks[0] (t).timeout_ms must be at least 1 (milliseconds), was -5");
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    script: [{text: hi}]
                    expect:
                      checks: [unchanged, nope]
                """)).hasMessage("suite.yaml (line 9, column 27): tasks[0] (t).expect.checks[1]: environment 'file_tree' has no"
                        + " check 'nope'; known: unchanged");
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    script: [{text: hi}]
                  - id: u
                    script: [{text: hi}]
                """)).hasMessage("suite.yaml (line 8, column 5): tasks[1] (u) has no goal: give the text the agent is asked"
                        + " to work on (goal: ...)");
        assertThatThrownBy(() -> parse(HEADER + """
                  - goal: g
                    script: [{text: hi}]
                """)).hasMessage("suite.yaml (line 5, column 5): tasks[0] has no id: give every task a unique id, such as"
                        + " id: release-date");
        // a value a task takes from the suite's defaults is placed where the suite sets it
        assertThatThrownBy(() -> parse("""
                suite: s
                environment: file_tree
                agent:
                  toolsets: [files_read]
                  max_steps: 0
                tasks:
                  - id: t
                    goal: g
                    script: [{text: hi}]
                """)).hasMessage("suite.yaml (line 5, column 14): tasks[0] (t).agent.max_steps must be at least 1, was 0");
        assertThatThrownBy(() -> parse("suite: s\ntrials: 0\nenvironment: file_tree\ntasks: [{id: t, goal: g}]\n"))
                .hasMessage("suite.yaml (line 2, column 9): trials must be at least 1, was 0");
        assertThatThrownBy(() -> parse("suite: s\nenvironment: file_tre\ntasks: [{id: t, goal: g}]\n"))
                .hasMessageStartingWith("suite.yaml (line 2, column 14): environment: unknown environment 'file_tre'");
        // JSON alike
        assertThatThrownBy(() -> SuiteFile.parse("""
                {"suite": "s", "environment": "file_tree", "agent": {"toolsets": ["files_read"]},
                 "tasks": [{"id": "t", "goal": "g", "script": [{"text": "hi"}],
                            "expect": {"observed_errors": ["timeout", "nope"]}}]}
                """, SuiteFile.Format.JSON, "suite.json", REGISTRY))
                .hasMessageStartingWith("suite.json (line 3, column 55): tasks[0] (t).expect.observed_errors[1]: 'nope' is not an"
                        + " error class");
    }

    @Test
    void aFileWithNothingInItSaysItIsEmpty() {
        // a new file, or one of comments only, read 'wrong kind of value: expected a mapping of fields' at line 1
        for (String text : new String[] {"", "\n\n", "# a suite, to be written\n", "\uFEFF"}) {
            assertThatThrownBy(() -> parse(text)).as(text).isInstanceOf(ReinException.class)
                    .hasMessage("suite file suite.yaml is empty: give at least suite: NAME and tasks: [...] (see docs/eval.md)");
        }
        assertThatThrownBy(() -> SuiteFile.parse(" \n", SuiteFile.Format.JSON, "suite.json", REGISTRY))
                .hasMessage("suite file suite.json is empty: give at least suite: NAME and tasks: [...] (see docs/eval.md)");
    }

    @Test
    void aTaskTimeoutThatIsNotMoreThanZeroIsNamedByItsFieldAndValue() {
        for (String value : new String[] {"0", "-5"}) {
            assertThatThrownBy(() -> parse(HEADER + """
                      - id: t
                        goal: g
                        timeout_ms: %s
                        script: [{text: hi}]
                    """.formatted(value))).isInstanceOf(ReinException.class)
                    .hasMessage("suite.yaml (line 7, column 17): tasks[0] (t).timeout_ms must be at least 1 (milliseconds), was " + value);
        }
    }

    @Test
    void anUnknownFieldIsPlacedAtItsNameNotWhereItsMappingEnds() {
        // block style, as people write suites: Jackson places the error where the record's mapping ends
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    script: [{text: hi}]
                    expect:
                      must_cal: [read_file]
                      answer_contains: [alpha]

                """)).hasMessageStartingWith("suite.yaml, at tasks[0].expect.must_cal (line 9, column 7): unknown field");
        assertThatThrownBy(() -> parse("suite: s\nsuit: x\ntrials: 2\ntasks: [{id: t, goal: g, script: [{text: hi}]}]\n"))
                .hasMessageStartingWith("suite.yaml, at suit (line 2, column 1): unknown field 'suit'");
        assertThatThrownBy(() -> SuiteFile.parse("{\"suite\": \"s\",\n \"tasks\": [{\"id\": \"t\", \"goal\": \"g\",\n   \"scrpt\": []}]}\n",
                SuiteFile.Format.JSON, "suite.json", REGISTRY))
                .hasMessageStartingWith("suite.json, at tasks[0].scrpt (line 3, column 4): unknown field 'scrpt'");
    }

    @Test
    void aNegativeTokenCountInAScriptedUsageIsAnErrorInTheFile() {
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    script: [{text: hi, usage: {input_tokens: -5, output_tokens: 3}}]
                """)).isInstanceOf(ReinException.class)
                .hasMessage("suite.yaml (line 7, column 32): tasks[0] (t).script[0].usage: the usage's input_tokens (inputTokens)"
                        + " cannot be negative, was -5: give the tokens the call used, 0 or more (0 when the provider reported none)");
    }

    @Test
    void agentSettingsNoAgentCanHaveAreErrorsInTheFileNotInfrastructureErrorsInEveryTrial() {
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    agent: {tool_timeout_ms: 0}
                    script: [{text: hi}]
                """)).isInstanceOf(ReinException.class)
                .hasMessage("suite.yaml (line 7, column 30): tasks[0] (t).agent.tool_timeout_ms must be at least 1 (milliseconds), was 0");
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    agent: {max_tokens: -1}
                    script: [{text: hi}]
                """)).isInstanceOf(ReinException.class)
                .hasMessage("suite.yaml (line 7, column 25): tasks[0] (t).agent.max_tokens must be at least 1, was -1");
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    agent: {required_facts: [release date, " ", ~]}
                    script: [{text: hi}]
                """)).isInstanceOf(ReinException.class)
                .hasMessage("suite.yaml (line 7, column 44): tasks[0] (t).agent.required_facts[1] is empty: each entry is a text the final"
                        + " answer must contain");
    }

    @Test
    void anAgentsLimitsThatNoRunCanHaveAreNamedByTheirFieldsInTheFile() {
        // the budget builder's own words name its Java setters (maxSteps, maxCostUsd, maxDuration PT0S)
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    agent: {max_steps: 0}
                    script: [{text: hi}]
                """)).isInstanceOf(ReinException.class)
                .hasMessage("suite.yaml (line 7, column 24): tasks[0] (t).agent.max_steps must be at least 1, was 0");
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    agent: {max_cost_usd: "0"}
                    script: [{text: hi}]
                """)).isInstanceOf(ReinException.class)
                .hasMessage("suite.yaml (line 7, column 27): tasks[0] (t).agent.max_cost_usd must be more than 0 (USD), was 0");
        // as rein run --max-cost-usd: 1e400 was taken, and written to every trace with its exponent (or 401 digits)
        for (String usd : new String[] {"1e400", "1000000.01", "0.0000001"}) {
            assertThatThrownBy(() -> parse(HEADER + """
                      - id: t
                        goal: g
                        agent: {max_cost_usd: "%s"}
                        script: [{text: hi}]
                    """.formatted(usd))).as(usd).isInstanceOf(ReinException.class)
                    .hasMessage("suite.yaml (line 7, column 27): tasks[0] (t).agent.max_cost_usd must be from 0.000001 to 1000000 (USD,"
                            + " as for rein run --max-cost-usd), was " + usd);
        }
        assertThat(parse(HEADER + """
                  - id: t
                    goal: g
                    agent: {max_cost_usd: "1000000"}
                    script: [{text: hi}]
                """)).isNotNull();
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    agent: {max_cost_usd: "five cents"}
                    script: [{text: hi}]
                """)).isInstanceOf(ReinException.class)
                .hasMessage("suite.yaml (line 7, column 27): tasks[0] (t).agent.max_cost_usd 'five cents' is not a number: write the USD amount"
                        + " as a decimal with a point, e.g. \"0.50\"");
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    agent: {max_seconds: 0}
                    script: [{text: hi}]
                """)).isInstanceOf(ReinException.class)
                .hasMessage("suite.yaml (line 7, column 26): tasks[0] (t).agent.max_seconds must be at least 1 (seconds), was 0");
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    agent: {max_seconds: 9223372036854775807}
                    script: [{text: hi}]
                """)).isInstanceOf(ReinException.class)
                .hasMessageStartingWith("suite.yaml (line 7, column 26): tasks[0] (t).agent.max_seconds must be at most ")
                .hasMessageNotContaining("maxDuration");
    }

    @Test
    void suiteLevelErrorsNameTheFileAndThePlace() {
        // these three came from the suite and registry builders without the file or the field
        assertThatThrownBy(() -> parse(HEADER.replace("suite: s\n", "suite: s\ntrials: 0\n") + """
                  - id: t
                    goal: g
                    script: [{text: hi}]
                """)).isInstanceOf(ReinException.class).hasMessage("suite.yaml (line 2, column 9): trials must be at least 1, was 0");
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    script: [{text: hi}]
                  - id: t
                    goal: g2
                    script: [{text: hi}]
                """)).isInstanceOf(ReinException.class)
                .hasMessage("suite.yaml (line 8, column 5): tasks[1] (t): another task has the id 't' (tasks[0]); task ids must be unique");
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    environment: file_tre
                    script: [{text: hi}]
                """)).isInstanceOf(ReinException.class)
                .hasMessageStartingWith("suite.yaml (line 7, column 18): tasks[0] (t).environment: unknown environment 'file_tre'; known: file_tree");
    }

    @Test
    void aJsonSuiteFileSavedWithAByteOrderMarkLoadsAsTheYamlOneDoes(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        // Windows editors save UTF-8 with a BOM; the JSON parser stopped at the invisible U+FEFF
        // ("not valid JSON: Unexpected character ('\uFEFF' (code 65279 / 0xfeff))") while YAML skipped it
        String json = "{\"suite\": \"s\", \"environment\": \"file_tree\", \"agent\": {\"toolsets\": [\"files_read\"]},"
                + " \"tasks\": [{\"id\": \"t\", \"goal\": \"目標\", \"script\": [{\"text\": \"こんにちは\"}]}]}";
        java.nio.file.Path file = dir.resolve("suite.json");
        java.nio.file.Files.write(file, ("\uFEFF" + json).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        Suite suite = SuiteFile.load(file, REGISTRY);
        assertThat(suite.name()).isEqualTo("s");
        assertThat(suite.tasks().get(0).goal()).isEqualTo("目標");
        assertThat(SuiteFile.parse("\uFEFF" + json, SuiteFile.Format.JSON, "suite.json", REGISTRY).tasks()).hasSize(1);
    }

    @Test
    void expectationsNoTrialCanMeetAreErrorsInTheFile() {
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    script: [{text: hi}]
                    expect: {max_steps: -1}
                """)).isInstanceOf(ReinException.class)
                .hasMessage("suite.yaml (line 8, column 25): tasks[0] (t).expect.max_steps must be at least 1, was -1");
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    script: [{text: hi}]
                    expect: {max_cost_usd: "-0.01"}
                """)).isInstanceOf(ReinException.class)
                .hasMessage("suite.yaml (line 8, column 28): tasks[0] (t).expect.max_cost_usd cannot be negative, was -0.01");
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    script: [{text: hi}]
                    expect: {state_hash: "abc123"}
                """)).isInstanceOf(ReinException.class)
                .hasMessage("suite.yaml (line 8, column 26): tasks[0] (t).expect.state_hash 'abc123' is not a SHA-256 hash: give the 64"
                        + " hexadecimal digits of the final state's hash");
    }

    @Test
    void anExpectedReasonNoRunEndsWithIsAnErrorInTheFile() {
        // a misspelt reason ('failed: stall') would grade every trial as the agent's failure
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    script: [{text: hi}]
                    expect: {status: "failed: stall"}
                """)).isInstanceOf(ReinException.class)
                .hasMessageStartingWith("suite.yaml (line 8, column 22): tasks[0] (t).expect.status 'failed: stall': no run ends with the reason"
                        + " 'stall'; the reasons are completed, finished, agent_failed,")
                .hasMessageContaining("stalled");
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    script: [{text: hi}]
                    expect: {status: "stopped_budget: steps"}
                """)).isInstanceOf(ReinException.class)
                .hasMessageContaining("no run ends with the reason 'steps'").hasMessageContaining("max_steps");
        assertThat(parse(HEADER + """
                  - id: t
                    goal: g
                    script: [{text: hi}]
                    expect: {status: "Stopped_Budget: max_steps"}
                """).tasks()).hasSize(1);
    }

    @Test
    void aFractionWhereAWholeNumberBelongsIsAnErrorNotCutDown() {
        // trials: 1.5 ran one trial, max_steps: 2.9 allowed 2: the file's number was changed unseen
        assertThatThrownBy(() -> parse(HEADER.replace("suite: s\n", "suite: s\ntrials: 1.5\n") + """
                  - id: t
                    goal: g
                    script: [{text: hi}]
                """)).isInstanceOf(ReinException.class)
                .hasMessage("suite.yaml, at trials (line 2, column 9): wrong kind of value: expected a whole number, e.g. trials: 3");
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    script: [{text: hi}]
                    expect: {max_steps: 2.9}
                """)).isInstanceOf(ReinException.class)
                .hasMessageContaining("at tasks[0].expect.max_steps (line").hasMessageEndingWith("expected a whole number, e.g. max_steps: 6");
    }

    @Test
    void anEmptyEntryInAListIsAnErrorNamingIt() {
        // '- ' with nothing after it is null in YAML: it crashed the loader ('internal error', exit 1), and an
        // empty text was a check that always passed (must_not_call: [''] forbids nothing)
        for (String field : java.util.List.of("must_call", "must_not_call", "must_not_attempt", "approvals",
                "answer_contains", "observed_errors", "checks")) {
            for (String entry : java.util.List.of("null", "''")) {
                assertThatThrownBy(() -> parse(HEADER + """
                          - id: t
                            goal: g
                            script: [{text: hi}]
                            expect: {%s: [%s]}
                        """.formatted(field, entry))).as(field + ": [" + entry + "]").isInstanceOf(ReinException.class)
                        .hasMessageStartingWith("suite.yaml (line 8, column " + (17 + field.length()) + "): tasks[0] (t).expect." + field
                                + "[0] is empty");
            }
        }
        for (String field : java.util.List.of("toolsets", "scopes")) {
            assertThatThrownBy(() -> parse(HEADER + """
                      - id: t
                        goal: g
                        script: [{text: hi}]
                        agent: {%s: [null]}
                    """.formatted(field))).as(field).isInstanceOf(ReinException.class)
                    .hasMessageStartingWith("suite.yaml (line 8, column " + (16 + field.length()) + "): tasks[0] (t).agent." + field
                            + "[0] is empty");
        }
    }

    @Test
    void aToolNameTheAgentCannotRunIsAnErrorAtLoadNotACheckThatAlwaysPasses() {
        // must_not_call: [delet_file] forbade a tool nothing offers: every trial passed the check, even one that deleted
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    agent: {toolsets: [files_read, files_write], finish_tool: true}
                    script: [{text: hi}]
                    expect: {must_not_call: [write_file, delet_file]}
                """)).isInstanceOf(ReinException.class)
                .hasMessage("suite.yaml (line 9, column 42): tasks[0] (t).expect.must_not_call[1]: 'delet_file' is not a tool of the agent or"
                        + " of environment 'file_tree', so the check would pass whatever the agent does; the agent's tools are"
                        + " delete_file, finish, list_files, read_file, search_files, write_file");
        // must_call and approvals of a tool the agent does not have would fail every trial instead
        for (String field : java.util.List.of("must_call", "approvals")) {
            assertThatThrownBy(() -> parse(HEADER + """
                      - id: t
                        goal: g
                        script: [{text: hi}]
                        expect: {%s: [read_file, write_file]}
                    """.formatted(field))).as(field).isInstanceOf(ReinException.class)
                    .hasMessage("suite.yaml (line 8, column " + (28 + field.length()) + "): tasks[0] (t).expect." + field
                            + "[1]: 'write_file' is not a tool of the"
                            + " agent, so no trial can meet the check; the agent's tools are list_files, read_file,"
                            + " search_files");
        }
        // a tool of the environment the agent was not given may be forbidden (docs/eval-suite-example.yaml does),
        // and a model may propose any name, so must_not_attempt takes names nothing offers (an injection's)
        Suite suite = parse(HEADER + """
                  - id: t
                    goal: g
                    script: [{text: hi}]
                    expect: {must_not_call: [write_file], must_not_attempt: [transfer_funds], must_call: [read_file]}
                """);
        assertThat(suite.tasks()).hasSize(1);
    }

    @Test
    void aToolNameARegisteredAgentCannotRunIsAnErrorAtLoadToo() {
        // the registered agent is built once at load from a fresh environment to learn its tools
        EvalRegistry registry = EvalRegistry.builder().builtins().environment(EnvironmentType.builder("notes",
                        options -> new FileTreeEnvironment(Map.of("n.txt", "メモ")))
                .toolset("read", FileTreeEnvironment::readTools)
                .toolset("write", FileTreeEnvironment::writeTools)
                .agent("reader", (env, model) -> Agent.builder().model(model.model()).modelName(model.name())
                        .tools(env.readTools()).finishTool(true).build())
                .agent("broken", (env, model) -> {
                    throw new IllegalStateException("no agent here");
                })
                .build()).build();
        String suite = """
                suite: registered
                environment: notes
                agent: {use: %s}
                tasks:
                  - id: t
                    goal: g
                    script: [{text: hi}]
                    expect: {%s}
                """;
        assertThatThrownBy(() -> SuiteFile.parse(suite.formatted("reader", "must_not_call: [delet_file]"),
                SuiteFile.Format.YAML, "r.yaml", registry)).isInstanceOf(ReinException.class)
                .hasMessage("r.yaml (line 8, column 30): tasks[0] (t).expect.must_not_call[0]: 'delet_file' is not a tool of the agent or of"
                        + " environment 'notes', so the check would pass whatever the agent does; the agent's tools are"
                        + " finish, list_files, read_file, search_files");
        assertThatThrownBy(() -> SuiteFile.parse(suite.formatted("reader", "must_call: [write_file]"),
                SuiteFile.Format.YAML, "r.yaml", registry)).isInstanceOf(ReinException.class)
                .hasMessageStartingWith("r.yaml (line 8, column 26): tasks[0] (t).expect.must_call[0]: 'write_file' is not a tool of the agent");
        // a tool of the environment the agent lacks may be forbidden; an agent that cannot be built is the trials' error
        assertThat(SuiteFile.parse(suite.formatted("reader", "must_not_call: [delete_file], must_call: [finish]"),
                SuiteFile.Format.YAML, "r.yaml", registry).tasks()).hasSize(1);
        assertThat(SuiteFile.parse(suite.formatted("broken", "must_not_call: [delet_file]"),
                SuiteFile.Format.YAML, "r.yaml", registry).tasks()).hasSize(1);
    }

    @Test
    void anEnvironmentThatCannotBeSetUpIsStillEachTrialsInfrastructureErrorWhenItsChecksNameTools() throws Exception {
        // the tool-name check builds the environment at load; its refusal of an option is the trials' to report
        // (docs/eval.md), not an error escaping the loader without the file's name
        Suite suite = parse("""
                suite: s
                environment: {name: file_tree, options: {files: {a.txt: 5}}}
                agent: {toolsets: [files_read]}
                tasks:
                  - id: t
                    goal: g
                    script: [{text: hi}]
                    expect: {must_call: [read_file]}
                """);
        TrialOutcome trial = EvalRunner.builder().trials(1).build().run(suite).trialsOf("t").get(0);
        assertThat(trial.verdict()).isEqualTo(Verdict.INFRA_ERROR);
        assertThat(trial.infraError()).contains("file_tree option files.a.txt must be text");
        // so does the check of two toolsets offering one tool, which builds the environment too (fdcafed7)
        Suite twoToolsets = parse("""
                suite: s
                environment: {name: file_tree, options: {files: {a.txt: 5}}}
                agent: {toolsets: [files_read, files_write]}
                tasks:
                  - id: t
                    goal: g
                    script: [{text: hi}]
                """);
        assertThat(EvalRunner.builder().trials(1).build().run(twoToolsets).trialsOf("t").get(0).infraError())
                .contains("file_tree option files.a.txt must be text");
    }

    @Test
    void aScriptedFinishWithAStatusTheFinishToolDoesNotTakeIsAnErrorInTheFile() {
        // finish: {status: done} loaded; the finish tool refused the call as not fitting its schema, the script ran
        // out and every trial was an infrastructure error ('the scripted model has no reply left for call 2')
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    agent: {finish_tool: true}
                    script: [{finish: {status: done, summary: s, result: r}}]
                """)).isInstanceOf(ReinException.class)
                .hasMessage("suite.yaml (line 8, column 32): tasks[0] (t).script[0].finish.status 'done' is not a status of the finish tool;"
                        + " use completed, failed or needs_user_input (to script a call the tool refuses, give it as"
                        + " tool_calls: [{name: finish, input: {...}}])");
        assertThat(parse(HEADER + """
                  - id: t
                    goal: g
                    agent: {finish_tool: true}
                    script: [{finish: {status: needs_user_input, summary: s, result: "Which one?"}}]
                """).tasks()).hasSize(1);
    }

    @Test
    void anEmptyListOfScriptsIsAnErrorNamingTheFileAndTheTask() {
        // scripts: [] loaded as a task without scripts, and the runner's 'suite 's' cannot run offline: these tasks
        // have no script: t' named neither the file nor the field
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    scripts: []
                """)).isInstanceOf(ReinException.class)
                .hasMessageStartingWith("suite.yaml (line 7, column 14): tasks[0] (t).scripts is empty: ");
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    scripts: [[]]
                """)).isInstanceOf(ReinException.class)
                .hasMessageStartingWith("suite.yaml (line 7, column 15): tasks[0] (t).scripts[0] is empty: ");
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    script: []
                """)).isInstanceOf(ReinException.class)
                .hasMessageStartingWith("suite.yaml (line 7, column 13): tasks[0] (t).script is empty: ");
    }

    @Test
    void anEmptyAnswerPatternAndANegativeDelayAreErrorsNotSilentlyAccepted() {
        // an empty expression matches every answer: a check that always passes
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    script: [{text: hi}]
                    expect: {answer_matches: ''}
                """)).isInstanceOf(ReinException.class)
                .hasMessageStartingWith("suite.yaml (line 8, column 30): tasks[0] (t).expect.answer_matches is empty");
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    script: [{text: hi, delay_ms: -1}]
                """)).isInstanceOf(ReinException.class)
                .hasMessageContaining("delay_ms is -1");
    }

    /**
     * Before: a task id held ASCII letters only, so 天気 was refused (and a trace folder's Japanese names became t__).
     * Letters and digits of any script are ids now; what no file name can hold ('/', ':', a control character) is refused,
     * the message saying which character and where, escaped.
     */
    @Test
    void aJapaneseTaskIdIsTakenAndAnIdNoFileNameCanHoldIsRefusedSayingWhy() {
        assertThat(parse(HEADER + """
                  - id: 天気-東京
                    goal: 東京の天気は？
                    script: [{text: 晴れ}]
                """).tasks()).extracting(dev.rein.eval.Task::id).containsExactly("天気-東京");
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: 天気/東京
                    goal: 東京の天気は？
                    script: [{text: 晴れ}]
                """)).isInstanceOf(ReinException.class)
                .hasMessage("suite.yaml (line 5, column 5): tasks[0] (天気/東京): task id '天気/東京' is invalid: it holds '/' at"
                        + " character 2; use 1-80 letters or digits (of any script), '_', '-' or '.', starting with a letter or"
                        + " digit, at most 200 bytes in UTF-8 (it names trace files: TASK.TRIAL.jsonl)");
    }

    /**
     * Ids that differ only in case are one trace file where the file system ignores case (macOS, Windows): refused,
     * naming the other task. Before, both were taken and one trial's trace was written over the other's.
     */
    @Test
    void idsThatDifferOnlyInCaseAreRefusedNamingTheOtherTask() {
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: Release-Date
                    goal: g
                    script: [{text: x}]
                  - id: release-date
                    goal: g
                    script: [{text: x}]
                """)).isInstanceOf(ReinException.class)
                .hasMessage("suite.yaml (line 8, column 5): tasks[1] (release-date): its id differs only in case from"
                        + " 'Release-Date' (tasks[0]), one trace file on a file system that ignores case (macOS, Windows);"
                        + " task ids must be unique ignoring case");
        // a decomposed id beside its composed form is refused for not being in NFC, not as differing in case
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: \u30C7\u30FC\u30BF
                    goal: g
                    script: [{text: x}]
                  - id: \u30C6\u3099\u30FC\u30BF
                    goal: g
                    script: [{text: x}]
                """)).hasMessageContaining("tasks[1] (\u30C6\u3099\u30FC\u30BF): task id").hasMessageContaining("normal form NFC")
                .hasMessageNotContaining("case");
    }

    /**
     * A task's id in the place an error names (tasks[0] (ID)) and in the duplicate-id sentence is shown escaped, as the
     * id's own refusal shows it: before, a line feed or an escape in it reached the terminal or forged a log line.
     */
    @Test
    void anIdWithControlCharactersIsShownEscapedInThePlaceAndTheDuplicateSentence() {
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: "a\\nWARN forged\\e[2J"
                    goal: g
                    script: [{text: x}]
                """)).isInstanceOf(ReinException.class)
                .hasMessageStartingWith("suite.yaml (line 5, column 5): tasks[0] (a\\x0aWARN forged\\x1b[2J): task id"
                        + " 'a\\x0aWARN forged\\x1b[2J' is invalid")
                .message().doesNotContain("\n", "\u001b");
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: ok
                    goal: g
                    script: [{text: x}]
                  - id: ok
                    goal: g
                    script: [{text: x}]
                """)).hasMessageContaining("tasks[1] (ok): another task has the id 'ok' (tasks[0])");
    }

    @Test
    void aFieldGivenTwiceIsAnErrorNotTheLastOneWinning() {
        // YAML 1.2: the keys of a mapping are unique; taking the last would drop must_call unseen
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    script: [{text: hi}]
                    expect:
                      must_call: [read_file]
                    expect:
                      answer_contains: [hi]
                """)).isInstanceOf(ReinException.class)
                .hasMessage("suite.yaml, at tasks[0].expect (line 10, column 5): the field 'expect' is given twice; merge"
                        + " the two into one");
        assertThatThrownBy(() -> SuiteFile.parse("{\"suite\": \"s\", \"suite\": \"t\", \"tasks\": []}",
                SuiteFile.Format.JSON, "suite.json", REGISTRY))
                .hasMessage("suite.json, at suite (line 1, column 16): the field 'suite' is given twice; merge the two into one");
    }

    @Test
    void fileTreeOptionsAreCheckedAsTheExamplesEnvironmentsAre() {
        // a misspelt option gave a file tree without files, and every trial failed as the agent's fault
        String yaml = """
                suite: s
                environment: {name: file_tree, options: {fils: {a.txt: alpha}}}
                agent: {toolsets: [files_read]}
                tasks: [{id: t, goal: g, script: [{text: hi}]}]
                """;
        Suite suite = parse(yaml);
        assertThatThrownBy(() -> suite.tasks().get(0).newEnvironment()).isInstanceOf(ReinException.class)
                .hasMessage("environment 'file_tree' has no option 'fils'; its options are delays_ms, files");
        assertThatThrownBy(() -> FileTreeEnvironment.fromOptions(dev.rein.json.Json.parse("{\"files\": [\"a.txt\"]}")))
                .hasMessage("environment 'file_tree': option files must map paths to their text");
        assertThatThrownBy(() -> FileTreeEnvironment.fromOptions(dev.rein.json.Json.parse("{\"delays_ms\": {\"read_file\": -5}}")))
                .hasMessage("environment 'file_tree': delays_ms.read_file must be a whole number of milliseconds (0 or more),"
                        + " e.g. {read_file: 5000}; was -5");
    }

    @Test
    void aFileTreeDelayOfAToolItHasNotOrOfAFractionOfAMillisecondIsRefused() {
        // a misspelt tool (read_fil) was delayed in no call, so a tool_timeout task ran without its slow tool,
        // and 1.5 ms was read as 1 ms
        assertThatThrownBy(() -> FileTreeEnvironment.fromOptions(dev.rein.json.Json.parse("{\"delays_ms\": {\"read_fil\": 5000}}")))
                .isInstanceOf(ReinException.class)
                .hasMessage("environment 'file_tree': option delays_ms names 'read_fil', which is not one of its tools; give one"
                        + " of delete_file, list_files, read_file, search_files, write_file");
        assertThatThrownBy(() -> FileTreeEnvironment.fromOptions(dev.rein.json.Json.parse("{\"delays_ms\": {\"read_file\": 1.5}}")))
                .isInstanceOf(ReinException.class)
                .hasMessage("environment 'file_tree': delays_ms.read_file must be a whole number of milliseconds (0 or more),"
                        + " e.g. {read_file: 5000}; was 1.5");
        // every tool of the environment may be delayed
        FileTreeEnvironment env = new FileTreeEnvironment(java.util.Map.of(), java.util.Map.of());
        java.util.stream.Stream.concat(env.readTools().stream(), env.writeTools().stream()).forEach(tool -> FileTreeEnvironment
                .fromOptions(dev.rein.json.Json.parse("{\"delays_ms\": {\"" + tool.name() + "\": 0}}")));
    }

    @Test
    void unknownNamesListWhatIsKnown() {
        assertThatThrownBy(() -> parse("""
                suite: s
                environment: orders
                tasks: [{id: t, goal: g, script: [{text: hi}]}]
                """)).hasMessageContaining("unknown environment 'orders'; known: file_tree");
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    agent: {toolsets: [files_admin]}
                    script: [{text: hi}]
                """)).hasMessage("suite.yaml (line 7, column 24): tasks[0] (t).agent.toolsets[0]: environment 'file_tree' has no toolset 'files_admin';"
                + " known: files, files_read, files_write");
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    script: [{text: hi}]
                    expect: {checks: [tidy]}
                """)).hasMessageContaining("has no check 'tidy'; known: unchanged");
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    category: happy_path
                    script: [{text: hi}]
                """)).hasMessageContaining("unknown task category 'happy_path'; use one of should_succeed, needs_user_input");
    }

    @Test
    void scriptsAndAgentsAreChecked() {
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    script: [{finish: {status: completed, summary: s, result: r}}]
                """)).hasMessageContaining("the script calls finish but the agent does not offer the finish tool");
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    script: [{text: hi}, {text: hi, error: {kind: overloaded}}]
                """)).hasMessageContaining("tasks[0] (t).script[1] must be text, tool_calls, finish or error");
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    script: [{error: {kind: exploded}}]
                """)).hasMessageContaining("error.kind 'exploded' is unknown");
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    agent: {max_steps: 0}
                    script: [{text: hi}]
                """)).hasMessageContaining("agent.max_steps must be at least 1");
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    script: [{text: hi}]
                    expect: {status: finished_ok}
                """)).hasMessageContaining("expect.status 'finished_ok' is unknown");
        // what to write, not only what is missing (before: "suite.yaml: the suite has no tasks")
        assertThatThrownBy(() -> parse("suite: s\ntasks: []\n")).hasMessage(NO_TASKS);
        assertThatThrownBy(() -> parse("suite: s\n")).hasMessage(NO_TASKS);
        assertThatThrownBy(() -> parse("suite: [s]\n")).hasMessage("suite.yaml, at suite (line 1, column 8): wrong kind of value: expected a text value, e.g. suite: files-demo");
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    script: [{text: hi}]
                    expect: {must_call: read_file, status: [x]}
                """)).hasMessageContaining("expected a").satisfies(e -> assertThat(e.getMessage()).doesNotContain("java."));
        assertThatThrownBy(() -> parse("suite: \"unterminated\n")).hasMessageStartingWith("suite.yaml (line").hasMessageContaining("not valid YAML");
    }

    @Test
    void registeredAgentsAndProviderErrorsInScripts() throws Exception {
        EvalRegistry registry = EvalRegistry.builder().builtins().environment(EnvironmentType.builder("notes",
                        options -> new FileTreeEnvironment(Map.of("n.txt", options.path("text").asText("none"))))
                .toolset("read", FileTreeEnvironment::readTools)
                .agent("reader", (env, model) -> Agent.builder().model(model.model()).modelName(model.name())
                        .tools(env.readTools()).build())
                .build()).build();
        Suite suite = SuiteFile.parse("""
                suite: registered
                trials: 1
                environment: {name: notes, options: {text: メモ}}
                agent: {use: reader}
                tasks:
                  - id: read
                    goal: What does n.txt say?
                    script:
                      - tool_calls: [{name: read_file, input: {path: n.txt}}]
                      - text: It says メモ.
                    expect: {answer_contains: [メモ], state: [{path: /files/n.txt, equals: メモ}]}
                  - id: overloaded
                    category: other
                    goal: anything
                    script: [{error: {kind: authentication, message: bad key}}]
                """, SuiteFile.Format.YAML, "registered.yaml", registry);
        assertThat(suite.tasks().get(1).category()).isEqualTo(TaskCategory.OTHER);
        EvalResult result = EvalRunner.builder().build().run(suite);
        assertThat(result.trialsOf("read")).extracting(TrialOutcome::verdict).containsExactly(Verdict.PASSED);
        TrialOutcome provider = result.trialsOf("overloaded").get(0);
        assertThat(provider.verdict()).isEqualTo(Verdict.INFRA_ERROR);
        assertThat(provider.infraError()).startsWith("provider_error").contains("bad key");
    }

    @Test
    void requiredFactsRefuseAnAnswerUntilItStatesThem() throws Exception {
        Suite suite = parse(HEADER + """
                  - id: fixed
                    goal: When is the release?
                    agent: {required_facts: [1月20日]}
                    script: [{text: Soon.}, {text: On 1月20日.}]
                  - id: never
                    goal: When is the release?
                    agent: {required_facts: [1月20日]}
                    script: [{text: Soon.}, {text: Later.}]
                """);
        EvalResult result = EvalRunner.builder().trials(1).build().run(suite);
        TrialOutcome fixed = result.trialsOf("fixed").get(0);
        assertThat(fixed.verdict()).isEqualTo(Verdict.PASSED);
        assertThat(fixed.steps()).isEqualTo(2);
        TrialOutcome never = result.trialsOf("never").get(0);
        assertThat(never.verdict()).isEqualTo(Verdict.FAILED);
        assertThat(never.reason()).isEqualTo("verification_failed");
        assertThat(never.failureKind()).isEqualTo(dev.rein.eval.FailureKind.VERIFICATION);
    }

    @Test
    void pluginsOnTheClassPathAreLoaded() {
        assertThat(EvalRegistry.load().names()).containsExactly("file_tree", "plugin_files");
        assertThat(EvalRegistry.load().environment("plugin_files").toolsetNames()).containsExactly("read");
    }

    @Test
    void duplicateRegistrationsAreRefused() {
        assertThatThrownBy(() -> EvalRegistry.builder().builtins().builtins()).hasMessageContaining("'file_tree'");
        assertThatThrownBy(() -> EnvironmentType.builder("x", o -> new FileTreeEnvironment(Map.of()))
                .toolset("a", FileTreeEnvironment::readTools).toolset("a", FileTreeEnvironment::readTools))
                .hasMessage("environment 'x' already has a toolset named 'a'");
    }

    private static dev.rein.tool.Tool stub(String name) {
        return dev.rein.tool.Tool.builder(name).description("d").handler((args, ctx) -> "ok").build();
    }

    @Test
    void toolsetsThatOfferTheSameToolAreOneErrorAtLoadNotAnInfrastructureErrorInEveryTrial() {
        // [files_read, files_read] or [files, files_read]: the agent could not be built in any trial
        // ('DuplicateToolException: a tool named 'list_files' is already registered', exit 3)
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    agent: {toolsets: [files_read, files_read]}
                    script: [{text: hi}]
                """)).isInstanceOf(ReinException.class)
                .hasMessage("suite.yaml (line 7, column 36): tasks[0] (t).agent.toolsets[1]: the list has 'files_read' twice");
        assertThatThrownBy(() -> parse(HEADER + """
                  - id: t
                    goal: g
                    agent: {toolsets: [files, files_read]}
                    script: [{text: hi}]
                """)).isInstanceOf(ReinException.class)
                .hasMessage("suite.yaml (line 7, column 23): tasks[0] (t).agent.toolsets: tool name(s) [list_files, read_file, search_files] of the"
                        + " toolset 'files_read' are also tools of the agent's toolset 'files'; list each tool once");
        assertThat(parse(HEADER + """
                  - id: t
                    goal: g
                    agent: {toolsets: [files_read, files_write]}
                    script: [{text: hi}]
                """).tasks()).hasSize(1);
    }

    @Test
    void aSharedToolNamedLikeOneOfTheAgentsOwnIsOneErrorAtLoadWithTheToolsetsAdvice() {
        EvalRegistry shared = EvalRegistry.loading()
                .sharedToolset("mcp", java.util.List.of(stub("search_files"), stub("read_file"), stub("echo"), stub("finish")),
                        "give the server a prefix")
                .build();
        String suite = """
                suite: s
                environment: {name: file_tree, options: {files: {a.txt: alpha}}}
                agent: {toolsets: [files_read, mcp], finish_tool: true}
                tasks: [{id: t, goal: g, script: [{text: hi}]}]
                """;
        assertThatThrownBy(() -> SuiteFile.parse(suite, SuiteFile.Format.YAML, "suite.yaml", shared))
                .isInstanceOf(ReinException.class)
                .hasMessage("suite.yaml (line 3, column 19): tasks[0] (t).agent.toolsets: tool name(s) [finish, read_file, search_files] of the"
                        + " shared toolset 'mcp' are also tools of the agent's finish tool, toolset 'files_read';"
                        + " give the server a prefix");

        // without the clashing toolset, or with the shared one alone, the suite loads
        assertThat(SuiteFile.parse(suite.replace("files_read, mcp], finish_tool: true", "mcp]"), SuiteFile.Format.YAML,
                "suite.yaml", shared).tasks()).hasSize(1);
        assertThat(SuiteFile.parse(suite.replace("files_read, mcp]", "files_read]"), SuiteFile.Format.YAML,
                "suite.yaml", shared).tasks()).hasSize(1);
        assertThatThrownBy(() -> EvalRegistry.builder().sharedToolset("mcp", java.util.List.of(), " "))
                .hasMessageContaining("say what to do when its tools clash");
    }

    /**
     * A suite file that cannot be read says why in words and what to give. Before: the JDK's message, the path twice
     * ("cannot read suite file s.yaml/x.yaml: s.yaml/x.yaml: Not a directory") with nothing to do about it.
     */
    @Test
    void aSuiteFileThatCannotBeReadSaysWhyAndWhatToGive(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path file = java.nio.file.Files.writeString(dir.resolve("s.yaml"), "suite: s\n");
        java.nio.file.Path under = file.resolve("x.yaml");
        assertThatThrownBy(() -> SuiteFile.load(under, REGISTRY)).isInstanceOf(ReinException.class)
                .hasMessage("cannot read suite file " + under + ": " + file + " is a file, not a directory; give the path of"
                        + " a suite file (YAML or JSON, see docs/eval.md)");
        java.nio.file.Path loop = dir.resolve("loop.yaml");
        java.nio.file.Files.createSymbolicLink(loop, loop.getFileName());
        assertThatThrownBy(() -> SuiteFile.load(loop, REGISTRY)).isInstanceOf(ReinException.class)
                .hasMessageStartingWith("cannot read suite file " + loop + ": ")
                .hasMessageContaining("Too many levels of symbolic links")
                .hasMessageEndingWith("; give the path of a suite file (YAML or JSON, see docs/eval.md)");
    }
}
