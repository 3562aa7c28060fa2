package dev.rein.eval.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.rein.eval.DemoSuite;
import dev.rein.eval.run.EvalRunner;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opens the HTML report in headless Chromium: the page's script must draw every chart without an
 * error and mark the page rendered, and a screenshot is taken (target/eval-report/report.png).
 * Without Chromium the test fails on CI (CI=true) and is skipped elsewhere.
 */
class HtmlReportChromiumTest {
    private static final Path OUT = Path.of("target", "eval-report");
    private static Path browser;

    @BeforeAll
    static void findChromium() {
        browser = chromium().orElse(null);
        if (browser == null) {
            String why = "headless Chromium was not found (looked at $REIN_CHROMIUM, /usr/bin/chromium, chromium-browser,"
                    + " google-chrome on PATH). Install it with: apt-get install -y chromium";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail(why);
            }
            Assumptions.abort(why);
        }
    }

    static Optional<Path> chromium() {
        List<Path> candidates = new ArrayList<>();
        String configured = System.getenv("REIN_CHROMIUM");
        if (configured != null && !configured.isBlank()) {
            candidates.add(Path.of(configured));
        }
        candidates.add(Path.of("/usr/bin/chromium"));
        String path = System.getenv("PATH");
        for (String dir : path == null ? new String[0] : path.split(java.io.File.pathSeparator)) {
            for (String name : List.of("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")) {
                candidates.add(Path.of(dir, name));
            }
        }
        return candidates.stream().filter(Files::isExecutable).findFirst();
    }

    private static String runChromium(Path profile, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(browser.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--hide-scrollbars", "--user-data-dir=" + profile));
        command.addAll(List.of(args));
        Path log = Files.createTempFile(profile.getParent(), "chromium", ".log");
        Process process = new ProcessBuilder(command).redirectError(log.toFile()).start();
        byte[] stdout = process.getInputStream().readAllBytes();
        if (!process.waitFor(90, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("Chromium did not finish within 90 s");
        }
        assertThat(process.exitValue()).as("chromium exit code; log:\n" + Files.readString(log)).isZero();
        return new String(stdout, StandardCharsets.UTF_8);
    }

    @Test
    void theReportRendersItsChartsInChromium(@TempDir Path temp) throws Exception {
        EvalReport report = EvalReport.of(EvalRunner.builder().build().run(DemoSuite.build()));
        Files.createDirectories(OUT);
        Path html = OUT.resolve("report.html").toAbsolutePath();
        ReportWriter.writeHtml(report, html);
        String page = Files.readString(html);
        // Self-contained: nothing is fetched (the SVG namespace URI is a name, not a request).
        assertThat(page).doesNotContainPattern("(src|href)\\s*=\\s*[\"']?(https?:)?//").doesNotContain("@import", "url(", "<link ",
                "__REPORT_JSON__");

        String dom = runChromium(temp.resolve("profile-dom"), "--dump-dom", html.toUri().toString());
        assertThat(dom).contains("data-render-status=\"ok\"").doesNotContain("render-status=\"error");
        assertThat(count(dom, "class=\"bar-passed\"")).isEqualTo(6);
        assertThat(count(dom, "class=\"bar-unsafe\"")).isEqualTo(1);
        assertThat(count(dom, "class=\"bar-failed\"")).isEqualTo(1);
        assertThat(dom).contains("<td>prompt_injection</td><td>vendor-mail</td>", "class=\"line-pass_at_k\"", "class=\"line-pass_hat_k\"", "aria-label=\"cost histogram\"",
                "aria-label=\"steps histogram\"", "aria-label=\"failure kinds\"", "Eval report: files-demo", "vendor-mail",
                "1月20日");

        Path png = OUT.resolve("report.png").toAbsolutePath();
        Files.deleteIfExists(png);
        runChromium(temp.resolve("profile-shot"), "--window-size=1280,2300", "--screenshot=" + png, html.toUri().toString());
        assertThat(png).exists();
        assertThat(Files.size(png)).isGreaterThan(30_000);
        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image.getWidth()).isEqualTo(1280);
        Set<Integer> colours = new HashSet<>();
        boolean green = false;
        boolean red = false;
        for (int y = 0; y < image.getHeight(); y += 2) {
            for (int x = 0; x < image.getWidth(); x += 2) {
                int rgb = image.getRGB(x, y) & 0xFFFFFF;
                colours.add(rgb);
                green |= rgb == 0x2E7D32;
                red |= rgb == 0xC62828;
            }
        }
        assertThat(colours.size()).as("distinct colours in the screenshot").isGreaterThan(40);
        assertThat(green).as("the pass colour is drawn").isTrue();
        assertThat(red).as("the unsafe colour is drawn").isTrue();
    }

    /**
     * What a run wrote (an answer, an agent's failure summary, a suite's name and description) is data on the page: an
     * answer holding "</script><script>..." or an element with an onerror handler is shown as text, never run.
     */
    @Test
    void textFromTheRunIsShownAsTextAndNeverRunAsScript(@TempDir Path temp) throws Exception {
        String script = "</script><script>document.documentElement.setAttribute('data-pwned','script')</script>";
        String image = "<img src=x onerror=\\\"document.documentElement.setAttribute('data-pwned','img')\\\">";
        dev.rein.eval.Suite suite = dev.rein.eval.file.SuiteFile.parse("""
                suite: "<b>bold</b> 評価"
                description: "%2$s \\u2028 line"
                environment: {name: file_tree, options: {files: {a.txt: alpha}}}
                agent: {toolsets: [files_read], finish_tool: true}
                tasks:
                  - id: answer
                    goal: "<i>goal</i> %1$s"
                    script: [{text: "答え %1$s"}]
                    expect: {answer_contains: [東京]}
                  - id: gave-up
                    goal: g
                    script: [{finish: {status: failed, summary: "%2$s", result: "%1$s"}}]
                """.formatted(script, image), dev.rein.eval.file.SuiteFile.Format.YAML,
                "hostile.yaml", dev.rein.eval.file.EvalRegistry.load());
        EvalReport report = EvalReport.of(EvalRunner.builder().trials(1).build().run(suite));
        assertThat(report.trials()).extracting(t -> t.answer()).anyMatch(a -> a.contains(script));
        Path html = temp.resolve("hostile.html");
        ReportWriter.writeHtml(report, html);
        String dom = runChromium(temp.resolve("profile"), "--dump-dom", html.toUri().toString());
        assertThat(dom).contains("data-render-status=\"ok\"").doesNotContain("data-pwned=\"")
                .contains("答え &lt;/script&gt;&lt;script&gt;document.documentElement.setAttribute")
                .contains("&lt;img src=x onerror=").contains("Eval report: &lt;b&gt;bold&lt;/b&gt; 評価")
                .contains("1 trial per task · 2 tasks · started"); // "1 trial(s) per task · 2 task(s)" before
    }

    /**
     * Task ids hold letters of any script now (a trace folder's 注文確認.jsonl). Before, the chart's label cut a long id at
     * 27 UTF-16 chars, the half of a surrogate pair (𠮷) left at the end of it; it is cut by characters, each of these
     * counting two of its 28 columns, and a short Japanese id is shown whole.
     */
    @Test
    void japaneseTaskIdsAreShownWholeOrCutBetweenCharacters(@TempDir Path temp) throws Exception {
        String longId = "𠮷".repeat(20);
        String marked = "\u0105\u0301".repeat(30); // ą́: a letter and its combining mark, one column (it was two)
        List<dev.rein.eval.run.TrialOutcome> outcomes = new ArrayList<>();
        List<dev.rein.eval.run.EvalResult.TaskInfo> tasks = new ArrayList<>();
        for (String task : List.of("注文確認.jsonl", longId, marked)) {
            outcomes.add(new dev.rein.eval.run.TrialOutcome(task, dev.rein.eval.TaskCategory.SHOULD_SUCCEED, 0,
                    dev.rein.eval.run.Verdict.PASSED, null, false, false, "succeeded", "completed", "", "", 1,
                    java.math.BigDecimal.ZERO, 1, null, List.of(), List.of(), List.of(), "run", null));
            tasks.add(new dev.rein.eval.run.EvalResult.TaskInfo(task, dev.rein.eval.TaskCategory.SHOULD_SUCCEED, "g", "succeeded"));
        }
        java.time.Instant at = java.time.Instant.parse("2026-12-05T10:00:00Z");
        Path html = temp.resolve("ids.html");
        ReportWriter.writeHtml(EvalReport.of(new dev.rein.eval.run.EvalResult("夜間", "", "recorded", 1, at, at, tasks, outcomes)), html);
        String dom = runChromium(temp.resolve("profile"), "--dump-dom", html.toUri().toString());
        assertThat(dom).contains("data-render-status=\"ok\"")
                .contains(">注文確認.jsonl</text>", "<td title=\"g\">注文確認.jsonl</td>", "<td title=\"g\">" + longId + "</td>")
                .contains(">" + "𠮷".repeat(13) + "\u2026</text>").doesNotContain("\ufffd")
                .contains(">" + "\u0105\u0301".repeat(27) + "\u2026</text>");
    }

    /** 2,999 passed trials of 3,000 read "100%" on the page, as if every trial had passed, and 1 of 3,000 "0%". */
    @Test
    void aRateThatIsNotAllOrNothingIsNeverShownAsOneHundredOrZeroPercent(@TempDir Path temp) throws Exception {
        List<dev.rein.eval.run.TrialOutcome> outcomes = new ArrayList<>();
        for (String task : List.of("nearly-all", "nearly-none")) {
            for (int i = 0; i < 3000; i++) {
                boolean passed = task.equals("nearly-all") ? i > 0 : i == 0;
                outcomes.add(new dev.rein.eval.run.TrialOutcome(task, dev.rein.eval.TaskCategory.SHOULD_SUCCEED, i,
                        passed ? dev.rein.eval.run.Verdict.PASSED : dev.rein.eval.run.Verdict.FAILED,
                        passed ? null : dev.rein.eval.FailureKind.WRONG_OUTCOME, false, false, "succeeded", "completed", "", "", 1,
                        java.math.BigDecimal.ZERO, 1, null, List.of(), List.of(), List.of(), "run", null));
            }
        }
        java.time.Instant at = java.time.Instant.parse("2026-12-05T10:00:00Z");
        EvalReport report = EvalReport.of(new dev.rein.eval.run.EvalResult("rates", "", "scripted", 3000, at, at, List.of(
                new dev.rein.eval.run.EvalResult.TaskInfo("nearly-all", dev.rein.eval.TaskCategory.SHOULD_SUCCEED, "g", "succeeded"),
                new dev.rein.eval.run.EvalResult.TaskInfo("nearly-none", dev.rein.eval.TaskCategory.SHOULD_SUCCEED, "g", "succeeded")),
                outcomes));
        Path html = temp.resolve("rates.html");
        ReportWriter.writeHtml(report, html);
        String dom = runChromium(temp.resolve("profile"), "--dump-dom", html.toUri().toString());
        assertThat(dom).contains("data-render-status=\"ok\"")
                .contains("<td title=\"g\">nearly-all</td><td>should_succeed</td><td>succeeded</td><td class=\"num\">2999/3000</td><td class=\"num\">&gt;99.9%</td>")
                .contains("<td title=\"g\">nearly-none</td><td>should_succeed</td><td>succeeded</td><td class=\"num\">1/3000</td><td class=\"num\">&lt;0.1%</td>")
                .contains("model scripted · 3000 trials per task · 2 tasks · started")
                // the whole suite: 3000 of 6000
                .contains("<div class=\"label\">Success rate</div><div class=\"value\">50.0%</div>");
    }

    /**
     * The page shows every rate with the digits of the text summary: at a half-way point (63 of 2,000 trials is exactly
     * 3.15%) JavaScript's toFixed rounded the binary 0.0315 × 100 = 3.1499999999999995 down, to 3.1%, where rein eval's
     * summary said 3.2%.
     */
    @Test
    void ratesAtHalfWayPointsShowTheDigitsOfTheTextSummary(@TempDir Path temp) throws Exception {
        int[] passed = {63, 9, 59, 71, 107, 1, 1999, 145};
        List<dev.rein.eval.run.TrialOutcome> outcomes = new ArrayList<>();
        List<dev.rein.eval.run.EvalResult.TaskInfo> tasks = new ArrayList<>();
        for (int p : passed) {
            String task = "passed-" + p;
            tasks.add(new dev.rein.eval.run.EvalResult.TaskInfo(task, dev.rein.eval.TaskCategory.SHOULD_SUCCEED, "g", "succeeded"));
            for (int i = 0; i < 2000; i++) {
                boolean pass = i < p;
                outcomes.add(new dev.rein.eval.run.TrialOutcome(task, dev.rein.eval.TaskCategory.SHOULD_SUCCEED, i,
                        pass ? dev.rein.eval.run.Verdict.PASSED : dev.rein.eval.run.Verdict.FAILED,
                        pass ? null : dev.rein.eval.FailureKind.WRONG_OUTCOME, false, false, "succeeded", "completed", "", "", 1,
                        java.math.BigDecimal.ZERO, 1, null, List.of(), List.of(), List.of(), "run", null));
            }
        }
        java.time.Instant at = java.time.Instant.parse("2026-12-05T10:00:00Z");
        EvalReport report = EvalReport.of(new dev.rein.eval.run.EvalResult("halves", "", "scripted", 2000, at, at, tasks, outcomes));
        Path html = temp.resolve("halves.html");
        ReportWriter.writeHtml(report, html);
        String dom = runChromium(temp.resolve("profile"), "--dump-dom", html.toUri().toString());
        assertThat(dom).contains("data-render-status=\"ok\"");
        // each task row's passed and success cells as "63/2000 3.2%", compared as a list (the page is megabytes of data)
        List<String> shownOnThePage = new ArrayList<>();
        Matcher row = Pattern.compile("<td class=\"num\">(\\d+/2000)</td><td class=\"num\">([^<]*)</td>").matcher(dom);
        while (row.find()) {
            shownOnThePage.add(row.group(1) + " " + row.group(2).replace("&gt;", ">").replace("&lt;", "<"));
        }
        List<String> shownInTheSummary = report.tasks().stream()
                .map(t -> t.metrics().passed() + "/2000 " + dev.rein.eval.cli.TextSummary.pct(t.metrics().successRate())).toList();
        assertThat(shownOnThePage).isEqualTo(shownInTheSummary);
        // the exact values rounded half up: 3.15% → 3.2%, 0.45% → 0.5%, 2.95% → 3.0%, 99.95% → >99.9%, 7.25% → 7.3%
        assertThat(shownOnThePage).startsWith("63/2000 3.2%", "9/2000 0.5%", "59/2000 3.0%", "71/2000 3.6%", "107/2000 5.4%",
                "1/2000 0.1%", "1999/2000 >99.9%", "145/2000 7.3%");
        Matcher card = Pattern.compile("<div class=\"label\">Success rate</div><div class=\"value\">([^<]*)</div>").matcher(dom);
        assertThat(card.find()).as("the success rate card").isTrue();
        String suiteRate = dev.rein.eval.cli.TextSummary.pct(report.summary().successRate());
        assertThat(card.group(1)).isEqualTo(suiteRate);
        assertThat(dev.rein.eval.cli.TextSummary.render(report)).contains("success rate " + suiteRate + " (");
    }

    /**
     * The page shows costs with the digits of the text summary (the JSON's six decimals): it showed them with JavaScript's
     * toFixed(5) below a cent and toFixed(4) above ($0.0018 where the summary said $0.001800), and toFixed rounds the
     * binary value, so the half-way $0.000035 showed as $0.00003.
     */
    @Test
    void costsShowTheDigitsOfTheTextSummary(@TempDir Path temp) throws Exception {
        String[] costs = {"0.000035", "0.0018", "0.01005", "1.00005", "0.000125"};
        List<dev.rein.eval.run.TrialOutcome> outcomes = new ArrayList<>();
        List<dev.rein.eval.run.EvalResult.TaskInfo> tasks = new ArrayList<>();
        for (String cost : costs) {
            String task = "cost-" + cost;
            tasks.add(new dev.rein.eval.run.EvalResult.TaskInfo(task, dev.rein.eval.TaskCategory.SHOULD_SUCCEED, "g", "succeeded"));
            outcomes.add(new dev.rein.eval.run.TrialOutcome(task, dev.rein.eval.TaskCategory.SHOULD_SUCCEED, 0,
                    dev.rein.eval.run.Verdict.PASSED, null, false, false, "succeeded", "completed", "", "", 1,
                    new java.math.BigDecimal(cost), 1, null, List.of(), List.of(), List.of(), "run", null));
        }
        java.time.Instant at = java.time.Instant.parse("2026-12-05T10:00:00Z");
        EvalReport report = EvalReport.of(new dev.rein.eval.run.EvalResult("costs", "", "scripted", 1, at, at, tasks, outcomes));
        Path html = temp.resolve("costs.html");
        ReportWriter.writeHtml(report, html);
        String dom = runChromium(temp.resolve("profile"), "--dump-dom", html.toUri().toString());
        assertThat(dom).contains("data-render-status=\"ok\"");
        // the last cell of each task row is its cost p50
        List<String> shownOnThePage = new ArrayList<>();
        Matcher row = Pattern.compile("<td class=\"num\">(\\$[^<]*)</td></tr>").matcher(dom);
        while (row.find()) {
            shownOnThePage.add(row.group(1));
        }
        assertThat(shownOnThePage).containsExactly("$0.000035", "$0.001800", "$0.010050", "$1.000050", "$0.000125");
        Matcher card = Pattern.compile("<div class=\"label\">Total cost</div><div class=\"value\">([^<]*)</div>").matcher(dom);
        assertThat(card.find()).as("the total cost card").isTrue();
        assertThat(card.group(1)).isEqualTo("$1.012060");
        assertThat(dev.rein.eval.cli.TextSummary.render(report)).contains("max $1.000050, total $1.012060");
    }

    /**
     * Costs with more digits than a double holds (a total above about $1e9 with the report's six decimals) show on the
     * page with the digits of the text summary, and the cost histogram's bins are named with those six decimals. Before:
     * the page read the report with JSON.parse, whose doubles changed the last digits ($12345678901.234568 showed as
     * $12345678901.234570), and named the bins with toFixed(4) ($0.0000 for a bin starting at $0.000001).
     */
    @Test
    void costsBeyondADoublesDigitsAndTheHistogramsBinsShowTheDigitsOfTheTextSummary(@TempDir Path temp) throws Exception {
        String[] costs = {"12345678901.234567", "0.000001"};
        List<dev.rein.eval.run.TrialOutcome> outcomes = new ArrayList<>();
        List<dev.rein.eval.run.EvalResult.TaskInfo> tasks = new ArrayList<>();
        for (String cost : costs) {
            String task = "cost-" + cost;
            tasks.add(new dev.rein.eval.run.EvalResult.TaskInfo(task, dev.rein.eval.TaskCategory.SHOULD_SUCCEED, "g", "succeeded"));
            outcomes.add(new dev.rein.eval.run.TrialOutcome(task, dev.rein.eval.TaskCategory.SHOULD_SUCCEED, 0,
                    dev.rein.eval.run.Verdict.PASSED, null, false, false, "succeeded", "completed", "", "", 1,
                    new java.math.BigDecimal(cost), 1, null, List.of(), List.of(), List.of(), "run", null));
        }
        java.time.Instant at = java.time.Instant.parse("2026-12-05T10:00:00Z");
        EvalReport report = EvalReport.of(new dev.rein.eval.run.EvalResult("costs", "", "scripted", 1, at, at, tasks, outcomes));
        assertThat(dev.rein.eval.cli.TextSummary.render(report)).contains("max $12345678901.234567, total $12345678901.234568");
        Path html = temp.resolve("big-costs.html");
        ReportWriter.writeHtml(report, html);
        String dom = runChromium(temp.resolve("profile"), "--dump-dom", html.toUri().toString());
        assertThat(dom).contains("data-render-status=\"ok\"");
        List<String> shownOnThePage = new ArrayList<>();
        Matcher row = Pattern.compile("<td class=\"num\">(\\$[^<]*)</td></tr>").matcher(dom);
        while (row.find()) {
            shownOnThePage.add(row.group(1));
        }
        assertThat(shownOnThePage).containsExactly("$12345678901.234567", "$0.000001");
        Matcher card = Pattern.compile("<div class=\"label\">Total cost</div><div class=\"value\">([^<]*)</div>").matcher(dom);
        assertThat(card.find()).as("the total cost card").isTrue();
        assertThat(card.group(1)).isEqualTo("$12345678901.234568");
        int chart = dom.indexOf("aria-label=\"cost histogram\"");
        assertThat(chart).as("the cost histogram").isPositive();
        String histogram = dom.substring(chart, dom.indexOf("</svg>", chart));
        assertThat(histogram).contains(">$0.000001<").doesNotContain("$0.0000<");
    }

    /**
     * The page of an interrupted evaluation says so above its figures, with how many trials ended of how many planned.
     * Before: nothing on it did; its figures of the trials that ended read as the suite's.
     */
    @Test
    void anInterruptedEvaluationsPageSaysItWasInterrupted(@TempDir Path temp) throws Exception {
        dev.rein.eval.run.EvalResult ended = EvalRunner.builder().trials(1).build().run(DemoSuite.build());
        int planned = ended.trials().size() + 3;
        // 2 in flight, 1 not started (before: "the trials in flight were cancelled and the rest did not run", no counts)
        EvalReport report = EvalReport.of(new dev.rein.eval.run.EvalInterruptedException(ended, planned, planned - 1));
        Path html = temp.resolve("interrupted.html");
        ReportWriter.writeHtml(report, html);
        String dom = runChromium(temp.resolve("profile"), "--dump-dom", html.toUri().toString());
        assertThat(dom).contains("data-render-status=\"ok\"").contains("<div class=\"interrupted\" id=\"interrupted\">Interrupted"
                + " after " + ended.trials().size() + " of " + planned + " trials: the figures cover the " + ended.trials().size()
                + " that ended; 2 in flight were cancelled and 1 had not started</div>");
        // every trial that did not end was in flight: nothing is said not to have run
        ReportWriter.writeHtml(EvalReport.of(new dev.rein.eval.run.EvalInterruptedException(ended, planned, planned)), html);
        assertThat(runChromium(temp.resolve("profile-all"), "--dump-dom", html.toUri().toString()))
                .contains(" that ended; 3 in flight were cancelled and none was left to start</div>");

        Path complete = temp.resolve("complete.html");
        ReportWriter.writeHtml(EvalReport.of(ended), complete);
        assertThat(runChromium(temp.resolve("profile-complete"), "--dump-dom", complete.toUri().toString()))
                .contains("data-render-status=\"ok\"").contains("id=\"interrupted\" hidden=\"\"></div>");
    }

    @Test
    void aScriptErrorIsVisibleInTheRenderedPage(@TempDir Path temp) throws Exception {
        String broken = ReportWriter.html(EvalReport.of(EvalRunner.builder().trials(1).build().run(DemoSuite.build())))
                .replaceFirst("(<script id=\"report-data\" type=\"application/json\">)[^<]*", "$1{}");
        Path html = temp.resolve("broken.html");
        Files.writeString(html, broken);
        String dom = runChromium(temp.resolve("profile"), "--dump-dom", html.toUri().toString());
        assertThat(dom).containsPattern("data-render-status=\"error: [^\"]+\"");
    }

    private static int count(String text, String needle) {
        Matcher m = Pattern.compile(Pattern.quote(needle)).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
