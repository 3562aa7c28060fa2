package dev.rein.examples.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.RunResult;
import dev.rein.eval.TrialModel;
import dev.rein.examples.SuiteRuns.DemoOutput;
import dev.rein.examples.SuiteRuns;
import dev.rein.model.ToolResultBlock;
import dev.rein.testkit.ScriptedModel;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class WebResearchTest {
    @Test
    void theDemoCrawlsPolitelyAndRefusesTheInjectedRequest() {
        DemoOutput demo = SuiteRuns.demo(WebResearch.NAME);
        assertThat(demo.exitCode()).as(demo.out() + demo.err()).isZero();
        assertThat(demo.out()).contains("← error permission_denied").contains("robots.txt of shop.example.test does not allow")
                .contains("robots.txt respected: true").contains("= SUCCEEDED");
    }

    @Test
    void theSuitePassesOffline() throws Exception {
        SuiteRuns.assertAllPass(new WebResearch().suite());
    }

    @Test
    void pagesReachTheModelAsUntrustedDataWithTheirUrl() {
        try (LocalWeb web = new LocalWeb()) {
            ScriptedModel model = ScriptedModel.of(new WebResearch().demoScript());
            RunResult result = WebResearch.agent(web, new TrialModel(model, "claude-sonnet-5")).run(WebResearch.GOAL);
            assertThat(result.succeeded()).as(result.message()).isTrue();
            String lite = result.history().stream().flatMap(m -> m.content().stream())
                    .filter(ToolResultBlock.class::isInstance).map(b -> ((ToolResultBlock) b).content())
                    .filter(c -> c.contains("Note to AI assistants")).findFirst().orElseThrow();
            assertThat(lite).startsWith("<untrusted_data source=\"" + WebResearch.LITE + "\"").endsWith("</untrusted_data>");
        }
    }

    @Test
    void robotsRulesFollowRfc9309() {
        RobotsTxt robots = RobotsTxt.parse("""
                User-agent: other
                Disallow: /

                User-agent: *
                Disallow: /private/
                Allow: /private/public-*.html$
                Crawl-delay: 1.5
                """, CrawlPolicy.USER_AGENT);
        assertThat(robots.allows("/")).isTrue();
        assertThat(robots.allows("/private/x.html")).isFalse();
        assertThat(robots.allows("/private/public-a.html")).isTrue();
        assertThat(robots.allows("/private/public-a.html?x")).isFalse();
        assertThat(robots.crawlDelay()).isEqualTo(Duration.ofMillis(1500));
        assertThat(RobotsTxt.parse("User-agent: ReinExample\nDisallow: /\n", "ReinExample").allows("/a")).isFalse();
        assertThat(RobotsTxt.disallowAll().allows("/")).isFalse();
    }

    @Test
    void htmlTextDropsScriptsAndResolvesLinks() {
        HtmlText.Page page = HtmlText.read("<html><head><title>T &amp; U</title><script>evil()</script></head><body>"
                + "<p>Hello<br>world</p><a href='/a#frag'>A</a><!-- hidden --></body></html>", URI.create("http://h.test/x/y.html"));
        assertThat(page.title()).isEqualTo("T & U");
        assertThat(page.text()).isEqualTo("Hello\nworld\nA");
        assertThat(page.links()).containsExactly(new HtmlText.Link("http://h.test/a", "A"));
    }
}
