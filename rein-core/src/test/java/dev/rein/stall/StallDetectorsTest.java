package dev.rein.stall;

import dev.rein.internal.stall.StallMonitor;
import static dev.rein.stall.StallHarness.fail;
import static dev.rein.stall.StallHarness.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.json.Json;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StallDetectorsTest {

    // ---- exact repeat ----

    @Test
    void theThirdIdenticalCallIsBlockedWhateverTheKeyOrderOrWhitespace() {
        StallHarness h = new StallHarness();
        assertThat(h.step(ok("search", "{\"q\":\"rein\",\"limit\":5}", "r1")).quiet()).isTrue();
        assertThat(h.step(ok("search", "{ \"limit\" : 5,  \"q\":\"rein\" }", "r1")).quiet()).isTrue();
        StallHarness.Outcome third = h.step(ok("search", "{\"limit\":5,\"q\":\"rein\"}", "r1"));
        assertThat(third.blocked(0)).isTrue();
        assertThat(third.executed()).isZero();
        Finding finding = ((StallMonitor.CallDecision.Block) third.decisions().get(0)).finding();
        assertThat(finding.detector()).isEqualTo(ExactRepeat.NAME);
        assertThat(finding.message()).startsWith("[rein]").contains("'search'").contains("3 times").contains("not run");
        assertThat(finding.evidence()).containsEntry("count", 3).containsEntry("first_step", 1);
    }

    @Test
    void checkingHasNoSideEffectsSoTheThresholdIsExact() {
        ExactRepeat detector = new ExactRepeat(3, 0);
        ProposedCall call = ProposedCall.of("c", "search", Json.parse("{\"q\":\"x\"}"), null, 1);
        detector.recordCall(call);
        for (int i = 0; i < 10; i++) {
            assertThat(detector.checkCall(call)).isEmpty();
        }
        detector.recordCall(call);
        assertThat(detector.checkCall(call)).isEmpty();
        detector.recordCall(call);
        assertThat(detector.checkCall(call)).isPresent();
    }

    @Test
    void afterTwoInterventionsTheNextRepeatStopsTheRun() {
        StallHarness h = new StallHarness();
        h.step(ok("send", "{\"to\":\"a\"}", "sent"));
        h.step(ok("send", "{\"to\":\"a\"}", "sent"));
        assertThat(h.step(ok("send", "{\"to\":\"a\"}", "sent")).blocked(0)).isTrue();
        assertThat(h.step(ok("send", "{\"to\":\"a\"}", "sent")).blocked(0)).isTrue();
        StallHarness.Outcome fifth = h.step(ok("send", "{\"to\":\"a\"}", "sent"));
        assertThat(fifth.stopped()).isTrue();
        StallMonitor.CallDecision.Stop stop = (StallMonitor.CallDecision.Stop) fifth.decisions().get(0);
        assertThat(stop.finding().occurrence()).isEqualTo(3);
        assertThat(h.monitor.stopMessage(stop.finding())).contains("exact_repeat").contains("warned 2 times");
    }

    @Test
    void retriesWithChangedArgumentsAreNotStalls() {
        StallHarness h = new StallHarness();
        assertThat(h.step(fail("read", "{\"path\":\"a.txt\"}")).quiet()).isTrue();
        assertThat(h.step(fail("read", "{\"path\":\"./a.txt\"}")).quiet()).isTrue();
        assertThat(h.step(ok("read", "{\"path\":\"docs/a.txt\"}", "contents")).quiet()).isTrue();
        assertThat(h.step(ok("read", "{\"path\":\"docs/a.txt\",\"offset\":100}", "more")).quiet()).isTrue();
        assertThat(h.step(ok("read", "{\"path\":\"docs/a.txt\",\"offset\":200}", "even more")).quiet()).isTrue();
    }

    @Test
    void checkingAgainAfterAnEditIsNotARepeatButRepeatingTheEditIs() {
        StallHarness h = new StallHarness(StallPolicy.builder().without(Alternation.NAME).build());
        for (int i = 0; i < 4; i++) {
            assertThat(h.step(ok("read", "{\"path\":\"test-report\"}", (4 - i) + " failures")).quiet()).isTrue();
            assertThat(h.step(ok("write_file", "{\"path\":\"f\",\"content\":\"v" + i + "\"}", "ok")).quiet()).isTrue();
        }
        h.step(ok("write_file", "{\"path\":\"g\",\"content\":\"same\"}", "ok"));
        h.step(ok("write_file", "{\"path\":\"g\",\"content\":\"same\"}", "ok"));
        assertThat(h.step(ok("write_file", "{\"path\":\"g\",\"content\":\"same\"}", "ok")).blocked(0)).isTrue();
    }

    @Test
    void pollingToolsAreExemptByDefaultAndCanHaveTheirOwnThreshold() {
        StallHarness exempt = new StallHarness();
        for (int i = 0; i < 12; i++) {
            assertThat(exempt.step(ok("status", "{\"job\":\"42\"}", "running")).quiet()).as("poll %d", i).isTrue();
        }
        StallHarness capped = new StallHarness(StallPolicy.builder().exactRepeat(3, 6).build());
        for (int i = 0; i < 5; i++) {
            assertThat(capped.step(ok("status", "{\"job\":\"42\"}", "running " + i)).quiet()).isTrue();
        }
        assertThat(capped.step(ok("status", "{\"job\":\"42\"}", "running")).blocked(0)).isTrue();
    }

    @Test
    void identicalCallsInOneResponseCountToo() {
        StallHarness h = new StallHarness();
        StallHarness.Outcome outcome = h.step(ok("read", "{\"path\":\"a\"}", "x"), ok("read", "{\"path\":\"a\"}", "x"),
                ok("read", "{\"path\":\"a\"}", "x"));
        assertThat(outcome.blocked(0)).isFalse();
        assertThat(outcome.blocked(1)).isFalse();
        assertThat(outcome.blocked(2)).isTrue();
        assertThat(outcome.executed()).isEqualTo(2);
    }

    // ---- alternation ----

    @Test
    void anABABCycleIsBlockedAtItsSecondRound() {
        StallHarness h = new StallHarness(StallPolicy.builder().without(NoProgress.NAME).build());
        assertThat(h.step(ok("read", "{\"path\":\"a\"}", "A")).quiet()).isTrue();
        assertThat(h.step(ok("read", "{\"path\":\"b\"}", "B")).quiet()).isTrue();
        assertThat(h.step(ok("read", "{\"path\":\"a\"}", "A")).quiet()).isTrue();
        StallHarness.Outcome fourth = h.step(ok("read", "{\"path\":\"b\"}", "B"));
        assertThat(fourth.blocked(0)).isTrue();
        Finding f = ((StallMonitor.CallDecision.Block) fourth.decisions().get(0)).finding();
        assertThat(f.detector()).isEqualTo(Alternation.NAME);
        assertThat(f.evidence()).containsEntry("period", 2).containsEntry("cycle", "read -> read");
    }

    @Test
    void anABCABCCycleIsBlockedAndSoIsOneSpreadOverParallelCalls() {
        StallHarness h = new StallHarness();
        h.step(ok("read", "{\"path\":\"a\"}", "A"), ok("search", "{\"q\":\"b\"}", "B"));
        h.step(ok("send", "{\"to\":\"c\"}", "C"));
        h.step(ok("read", "{\"path\":\"a\"}", "A"), ok("search", "{\"q\":\"b\"}", "B"));
        StallHarness.Outcome sixth = h.step(ok("send", "{\"to\":\"c\"}", "C"));
        assertThat(sixth.blocked(0)).isTrue();
        assertThat(((StallMonitor.CallDecision.Block) sixth.decisions().get(0)).finding().evidence()).containsEntry("period", 3);
    }

    @Test
    void aWorkLoopWithChangingEditsIsNotACycle() {
        StallHarness h = new StallHarness();
        for (int i = 0; i < 6; i++) {
            assertThat(h.step(ok("write_file", "{\"path\":\"f\",\"content\":\"v" + i + "\"}", "ok")).quiet()).isTrue();
            assertThat(h.step(ok("read", "{\"path\":\"test-report\"}", "failures: " + (6 - i))).quiet()).as("round %d", i).isTrue();
        }
    }

    // ---- near duplicates ----

    @Test
    void rewordedQueriesAreBlockedAtTheThirdButDifferentNumbersAreDifferentQueries() {
        StallHarness h = new StallHarness();
        assertThat(h.step(ok("search", "{\"q\":\"Tokyo weather\"}", "sunny")).quiet()).isTrue();
        assertThat(h.step(ok("search", "{\"q\":\"weather, tokyo!\"}", "sunny")).quiet()).isTrue();
        assertThat(h.step(ok("search", "{\"q\":\"tokyo population 2020\"}", "14M")).quiet()).isTrue();
        assertThat(h.step(ok("search", "{\"q\":\"tokyo population 2021\"}", "14.1M")).quiet()).isTrue();
        StallHarness.Outcome third = h.step(ok("search", "{\"q\":\"  TOKYO   wether \"}", "sunny"));
        assertThat(third.blocked(0)).isTrue();
        Finding f = ((StallMonitor.CallDecision.Block) third.decisions().get(0)).finding();
        assertThat(f.detector()).isEqualTo(NearDuplicate.NAME);
        assertThat(f.message()).contains("\"Tokyo weather\"").contains("\"weather, tokyo!\"");
    }

    @Test
    void queriesNamingDifferentEntitiesAreDifferentQueries() {
        StallHarness h = new StallHarness();
        for (String name : new String[] {"Jon Smith", "Jan Smith", "Jen Smith", "Jon Smyth"}) {
            assertThat(h.step(ok("search", "{\"q\":\"orders of customer " + name + "\"}", "orders of " + name)).quiet()).as(name).isTrue();
        }
        for (String id : new String[] {"ORD-A104", "ORD-A105", "ORD-B104"}) {
            assertThat(h.step(ok("search", "{\"q\":\"status of order " + id + "\"}", "status " + id)).quiet()).as(id).isTrue();
        }
        for (String date : new String[] {"2024-03-01", "2024-03-02", "2024-04-01"}) {
            assertThat(h.step(ok("search", "{\"q\":\"sales report " + date + "\"}", "report " + date)).quiet()).as(date).isTrue();
        }
        h.step(ok("search", "{\"q\":\"orders of customer Jon Smith!\"}", "orders of Jon Smith"));
        assertThat(h.step(ok("search", "{\"q\":\"Orders of customer jon smith\"}", "orders of Jon Smith")).blocked(0))
                .as("a rewording that keeps the name is still a near duplicate").isTrue();
    }

    @Test
    void queriesNamingDifferentPeopleInScriptsWithoutCapitalsAreDifferentQueries() {
        // Korean, Arabic and Thai names stand out neither by spaces nor by capitals, as Japanese ones do not.
        String[][] names = {{"김민준", "이민준", "박민준", "최민준"}, {"محمد علي", "محمد على", "محمد عالي"}, {"สมชาย ใจดี", "สมชาย ใจดา", "สมชาย ใจดู"}};
        for (String[] set : names) {
            StallHarness h = new StallHarness();
            for (String name : set) {
                assertThat(h.step(ok("search", "{\"q\":\"orders of customer " + name + "\"}", "orders of " + name)).quiet()).as(name).isTrue();
            }
            h.step(ok("search", "{\"q\":\"orders of customer " + set[0] + "!\"}", "orders of " + set[0]));
            assertThat(h.step(ok("search", "{\"q\":\"Orders of customer: " + set[0] + "\"}", "orders of " + set[0])).blocked(0))
                    .as("a rewording that keeps the name is still a near duplicate").isTrue();
        }
    }

    @Test
    void japaneseQueriesNamingDifferentPeopleAreDifferentQueries() {
        StallHarness h = new StallHarness();
        for (String name : new String[] {"佐藤一郎", "佐藤二郎", "佐藤三郎", "佐藤四郎"}) {
            assertThat(h.step(ok("search", "{\"q\":\"顧客" + name + "の注文履歴\"}", name + "の注文")).quiet()).as(name).isTrue();
        }
        for (String name : new String[] {"サトウ", "サイトウ", "サカモト"}) {
            assertThat(h.step(ok("search", "{\"q\":\"顧客" + name + "さんの注文履歴を検索\"}", name)).quiet()).as(name).isTrue();
        }
        h.step(ok("search", "{\"q\":\"顧客佐藤一郎の注文履歴。\"}", "佐藤一郎の注文"));
        assertThat(h.step(ok("search", "{\"q\":\"「顧客佐藤一郎の注文履歴」\"}", "佐藤一郎の注文")).blocked(0))
                .as("a rewording that keeps the name is still a near duplicate").isTrue();
    }

    @Test
    void nearDuplicatesWorkOnJapaneseAndRespectOtherArguments() {
        StallHarness h = new StallHarness();
        assertThat(h.step(ok("search", "{\"q\":\"東京の天気\",\"page\":1}", "晴れ")).quiet()).isTrue();
        assertThat(h.step(ok("search", "{\"q\":\"東京の天気\",\"page\":2}", "晴れ2")).quiet()).isTrue();
        assertThat(h.step(ok("search", "{\"q\":\"東京の天気。\",\"page\":1}", "晴れ")).quiet()).isTrue();
        assertThat(h.step(ok("search", "{\"q\":\"東京の天気！\",\"page\":1}", "晴れ")).blocked(0)).isTrue();
    }

    @Test
    void theSimilarityThresholdIsConfigurableAndWriteToolsAreNotWatched() {
        StallHarness strict = new StallHarness();
        strict.step(ok("search", "{\"q\":\"weather in tokyo\"}", "a"));
        strict.step(ok("search", "{\"q\":\"tokyo weather\"}", "b"));
        assertThat(strict.step(ok("search", "{\"q\":\"the tokyo weather\"}", "c")).quiet()).isTrue();

        StallHarness loose = new StallHarness(StallPolicy.builder().nearDuplicates(0.6, 3).build());
        loose.step(ok("search", "{\"q\":\"weather in tokyo\"}", "a"));
        loose.step(ok("search", "{\"q\":\"tokyo weather\"}", "b"));
        assertThat(loose.step(ok("search", "{\"q\":\"the tokyo weather\"}", "c")).blocked(0)).isTrue();

        StallHarness writes = new StallHarness(StallPolicy.builder().nearDuplicates(0.6, 2).build());
        writes.step(ok("send", "{\"text\":\"Meeting at 10\"}", "sent"));
        assertThat(writes.step(ok("send", "{\"text\":\"meeting at 10!\"}", "sent")).quiet()).isTrue();
    }

    // ---- edit then revert ----

    @Test
    void aWriteThatRestoresAnEarlierStateIsReportedAfterItRan() {
        StallHarness h = new StallHarness();
        assertThat(h.step(ok("write_file", "{\"path\":\"app.conf\",\"content\":\"mode=a\"}", "ok")).quiet()).isTrue();
        assertThat(h.step(ok("write_file", "{\"path\":\"other.conf\",\"content\":\"mode=a\"}", "ok")).quiet()).isTrue();
        assertThat(h.step(ok("write_file", "{\"path\":\"app.conf\",\"content\":\"mode=b\"}", "ok")).quiet()).isTrue();
        StallHarness.Outcome revert = h.step(ok("write_file", "{\"content\":\"mode=a\",\"path\":\"app.conf\"}", "ok"));
        assertThat(revert.executed()).isEqualTo(1);
        assertThat(revert.review().warnings()).singleElement().satisfies(f -> {
            assertThat(f.detector()).isEqualTo(EditRevert.NAME);
            assertThat(f.evidence()).containsEntry("resource", "app.conf").containsEntry("state_first_seen_step", 1);
            assertThat(f.message()).contains("'app.conf'").contains("step 1");
        });
    }

    @Test
    void rewritingTheSameStateOrAFailedWriteIsNotARevert() {
        StallHarness h = new StallHarness(StallPolicy.builder().exactRepeat(5, 0).build());
        h.step(ok("write_file", "{\"path\":\"f\",\"content\":\"a\"}", "ok"));
        assertThat(h.step(ok("write_file", "{\"path\":\"f\",\"content\":\"a\"}", "ok")).quiet()).isTrue();
        h.step(ok("write_file", "{\"path\":\"f\",\"content\":\"b\"}", "ok"));
        assertThat(h.step(fail("write_file", "{\"path\":\"f\",\"content\":\"a\"}")).quiet()).isTrue();
    }

    @Test
    void patchStyleToolsReportTheirStateThroughTheResult() {
        StallHarness h = new StallHarness(StallPolicy.builder().editRevert(ResourceState.fromResult(), 1).build());
        h.tool("replace", Risk.WRITE, false, "path");
        h.step(ok("replace", "{\"path\":\"f\",\"old\":\"x\",\"new\":\"y\"}", "sha:111"));
        h.step(ok("replace", "{\"path\":\"f\",\"old\":\"y\",\"new\":\"z\"}", "sha:222"));
        StallHarness.Outcome back = h.step(ok("replace", "{\"path\":\"f\",\"old\":\"z\",\"new\":\"y\"}", "sha:111"));
        assertThat(back.review().warnings()).extracting(Finding::detector).containsExactly(EditRevert.NAME);
    }

    // ---- no progress ----

    @Test
    void stepsThatOnlyRepeatKnownResultsAreNoProgress() {
        StallHarness h = new StallHarness();
        h.step(ok("read", "{\"path\":\"a\"}", "same"));
        for (int i = 1; i <= 4; i++) {
            assertThat(h.step(ok("read", "{\"path\":\"p" + i + "\"}", "same")).quiet()).as("step %d", i).isTrue();
        }
        StallHarness.Outcome fifth = h.step(ok("search", "{\"q\":\"something else\"}", "same"));
        assertThat(fifth.review().warnings()).singleElement().satisfies(f -> {
            assertThat(f.detector()).isEqualTo(NoProgress.NAME);
            assertThat(f.evidence()).containsEntry("steps", 5);
        });
        assertThat(h.step(ok("search", "{\"q\":\"new angle\"}", "a new fact")).quiet()).isTrue();
    }

    @Test
    void pollingStepsNeitherCountNorReset() {
        StallHarness h = new StallHarness();
        h.step(ok("status", "{\"job\":\"1\"}", "running"));
        h.step(ok("read", "{\"path\":\"a\"}", "same"));
        for (int i = 1; i <= 4; i++) {
            h.step(ok("read", "{\"path\":\"p" + i + "\"}", "same"));
            assertThat(h.step(ok("status", "{\"job\":\"1\"}", "running")).quiet()).isTrue();
        }
        assertThat(h.step(ok("read", "{\"path\":\"p9\"}", "same")).review().warnings()).extracting(Finding::detector)
                .containsExactly(NoProgress.NAME);
    }

    @Test
    void pollingStepsWithNewStatusTextNeitherCountNorReset() {
        // docs/guards.md: a step made only of polling calls neither counts toward no-progress nor resets it,
        // also when the status it reads changed (a job's progress is not progress on the task)
        StallHarness h = new StallHarness();
        h.step(ok("read", "{\"path\":\"a\"}", "same"));
        for (int i = 1; i <= 4; i++) {
            h.step(ok("read", "{\"path\":\"p" + i + "\"}", "same"));
            assertThat(h.step(ok("status", "{\"job\":\"1\"}", "running, " + (10 * i) + "% done")).quiet()).isTrue();
        }
        assertThat(h.step(ok("read", "{\"path\":\"p9\"}", "same")).review().warnings()).extracting(Finding::detector)
                .containsExactly(NoProgress.NAME);
    }

    // ---- consecutive errors ----

    @Test
    void fiveErrorsInARowWarnAndKeepingOnStopsTheRun() {
        StallHarness h = new StallHarness(StallPolicy.builder().without(NoProgress.NAME).build());
        for (int i = 1; i <= 4; i++) {
            assertThat(h.step(fail("read", "{\"path\":\"x" + i + "\"}")).quiet()).isTrue();
        }
        StallHarness.Outcome fifth = h.step(fail("read", "{\"path\":\"x5\"}"));
        assertThat(fifth.review().warnings()).singleElement().satisfies(f -> {
            assertThat(f.detector()).isEqualTo(ConsecutiveErrors.NAME);
            assertThat(f.evidence()).containsEntry("count", 5).containsEntry("last_tool", "read");
        });
        assertThat(h.step(fail("read", "{\"path\":\"x6\"}")).review().warnings()).hasSize(1);
        assertThat(h.step(fail("read", "{\"path\":\"x7\"}")).review().stop()).isPresent();
    }

    @Test
    void theErrorExcerptInTheEvidenceNeverCutsACharacterInTwo() {
        // an emoji is two UTF-16 units; cut between them, the lone half broke the JSONL trace line
        String error = "x".repeat(199) + "😀 and more after the cut";
        StallHarness h = new StallHarness(StallPolicy.builder().without(NoProgress.NAME).build());
        StallHarness.Outcome last = null;
        for (int i = 1; i <= 5; i++) {
            last = h.step(new StallHarness.Call("read", "{\"path\":\"e" + i + "\"}", error, true));
        }
        assertThat(last.review().warnings()).singleElement().satisfies(f ->
                assertThat(f.evidence()).containsEntry("last_error", "x".repeat(199) + "😀..."));
    }

    @Test
    void aSuccessResetsTheErrorCountAndBlockedCallsAreNotErrors() {
        StallHarness h = new StallHarness(StallPolicy.builder().without(NoProgress.NAME).build());
        for (int i = 1; i <= 4; i++) {
            h.step(fail("read", "{\"path\":\"x" + i + "\"}"));
        }
        h.step(ok("read", "{\"path\":\"good\"}", "fine"));
        for (int i = 5; i <= 8; i++) {
            assertThat(h.step(fail("read", "{\"path\":\"x" + i + "\"}")).quiet()).isTrue();
        }
    }

    // ---- policy ----

    @Test
    void interventionTextsAreConfigurableWithPlaceholders() {
        StallPolicy policy = StallPolicy.builder()
                .message(ExactRepeat.NAME, "[rein] 同じ呼び出し '{tool}' が {count} 回目です。別の方法を試してください。")
                .build();
        StallHarness h = new StallHarness(policy);
        h.step(ok("read", "{\"path\":\"a\"}", "x"));
        h.step(ok("read", "{\"path\":\"a\"}", "x"));
        Finding f = ((StallMonitor.CallDecision.Block) h.step(ok("read", "{\"path\":\"a\"}", "x")).decisions().get(0)).finding();
        assertThat(f.message()).isEqualTo("[rein] 同じ呼び出し 'read' が 3 回目です。別の方法を試してください。");
    }

    @Test
    void invalidSettingsAreRefusedWithAnExplanation() {
        assertThatThrownBy(() -> StallPolicy.builder().exactRepeat(1, 0)).isInstanceOf(ReinException.class).hasMessageContaining("at least 2");
        assertThatThrownBy(() -> StallPolicy.builder().nearDuplicates(1.5, 3)).isInstanceOf(ReinException.class);
        assertThatThrownBy(() -> StallPolicy.builder().without("nope")).isInstanceOf(ReinException.class).hasMessageContaining("exact_repeat");
        assertThatThrownBy(() -> StallPolicy.builder().without(ExactRepeat.NAME).message(ExactRepeat.NAME, "x").build())
                .isInstanceOf(ReinException.class).hasMessageContaining("no such detector");
        assertThat(StallPolicy.disabled().detectorNames()).isEmpty();
        assertThat(StallPolicy.defaults().detectorNames()).containsExactly(ExactRepeat.NAME, Alternation.NAME, NearDuplicate.NAME,
                EditRevert.NAME, NoProgress.NAME, ConsecutiveErrors.NAME);
    }

    /**
     * A placeholder a detector never fills ({file} for exact_repeat, {last_eror} misspelt) would
     * reach the model as written: it is refused when the policy is built, naming it and the
     * detector's own; a detector of the application's own, whose evidence Rein cannot know, is not checked.
     */
    @Test
    void anUnknownPlaceholderInAnInterventionTextIsRefusedNamingItAndTheValidOnes() {
        assertThatThrownBy(() -> StallPolicy.builder().message(ExactRepeat.NAME, "[rein] '{tool}' の {file} は {count} 回目です").build())
                .isInstanceOf(ReinException.class)
                .hasMessageContaining("exact_repeat").hasMessageContaining("{file}")
                .hasMessageContaining("{tool}").hasMessageContaining("{count}").hasMessageContaining("{first_step}");
        assertThatThrownBy(() -> StallPolicy.builder().message(ConsecutiveErrors.NAME, "errors: {last_eror}").build())
                .isInstanceOf(ReinException.class).hasMessageContaining("{last_eror}").hasMessageContaining("{last_error}");
        for (StallDetector d : StallPolicy.defaults().newDetectors()) {
            StallPolicy.builder().message(d.name(), d.defaultMessage()).build(); // each detector's own text passes
        }
        StallDetector own = new StallDetector() {
            @Override
            public String name() {
                return "mine";
            }

            @Override
            public String defaultMessage() {
                return "mine";
            }
        };
        StallPolicy.builder().detector(() -> own).message("mine", "{anything} goes").build();
    }

    @Test
    void maxInterventionsZeroStopsAtTheFirstFinding() {
        StallHarness h = new StallHarness(StallPolicy.builder().maxInterventions(0).build());
        h.step(ok("read", "{\"path\":\"a\"}", "x"));
        h.step(ok("read", "{\"path\":\"a\"}", "x"));
        assertThat(h.step(ok("read", "{\"path\":\"a\"}", "x")).stopped()).isTrue();
    }

    @Test
    void aCustomDetectorRunsAlongTheBuiltInOnes() {
        StallDetector.Factory noDeletes = () -> new StallDetector() {
            @Override
            public String name() {
                return "no_deletes";
            }

            @Override
            public String defaultMessage() {
                return "[rein] {tool} is not allowed here.";
            }

            @Override
            public java.util.Optional<Map<String, Object>> checkCall(ProposedCall call) {
                return call.tool().equals("send") ? java.util.Optional.of(Map.of("tool", call.tool())) : java.util.Optional.empty();
            }
        };
        StallHarness h = new StallHarness(StallPolicy.builder().detector(noDeletes).build());
        StallHarness.Outcome o = h.step(ok("send", "{}", "x"));
        assertThat(((StallMonitor.CallDecision.Block) o.decisions().get(0)).finding().message()).isEqualTo("[rein] send is not allowed here.");
    }

    // ---- replay ----

    @Test
    void replayingTheHistoryRebuildsTheStateSoAResumedRunKeepsItsCounts() {
        StallHarness live = new StallHarness();
        live.step(ok("send", "{\"to\":\"a\"}", "sent"));
        live.step(ok("read", "{\"path\":\"x\"}", "err"), ok("send", "{\"to\":\"a\"}", "sent"));
        live.step(ok("send", "{\"to\":\"a\"}", "sent"));
        for (int i = 1; i <= 5; i++) {
            live.step(fail("read", "{\"path\":\"r" + i + "\"}"));
        }
        StallMonitor resumed = new StallMonitor(StallPolicy.defaults());
        resumed.replay(live.history, live.tools::get, name -> false);
        assertThat(resumed.firedCounts()).isEqualTo(live.monitor.firedCounts()).containsKeys(ExactRepeat.NAME, ConsecutiveErrors.NAME);

        ProposedCall again = ProposedCall.of("next", "send", Json.parse("{\"to\":\"a\"}"), live.tools.get("send"), 99);
        assertThat(resumed.beforeCall(again)).isInstanceOf(StallMonitor.CallDecision.Block.class);
    }

    // ---- no false positives ----

    @Test
    void aLongRunWithVariedCallsTripsNothing() {
        StallHarness h = new StallHarness();
        String[] topics = {"pricing", "latency", "retries", "budgets", "traces", "approvals", "scopes", "secrets", "caching",
                "tokens", "streaming", "compaction"};
        for (int i = 0; i < 120; i++) {
            String topic = topics[i % topics.length];
            StallHarness.Outcome o = switch (i % 5) {
                case 0 -> h.step(ok("search", "{\"q\":\"rein " + topic + " design " + (i / topics.length) + "\"}", "hits for " + i));
                case 1 -> h.step(ok("read", "{\"path\":\"docs/" + topic + "-" + i + ".md\"}", "page " + i));
                case 2 -> h.step(ok("write_file", "{\"path\":\"notes/" + topic + ".md\",\"content\":\"draft " + i + "\"}", "ok"));
                case 3 -> h.step(ok("status", "{\"job\":\"build\"}", i % 2 == 0 ? "running" : "queued"),
                        ok("read", "{\"path\":\"log-" + i + "\"}", "log " + i));
                default -> h.step(fail("read", "{\"path\":\"missing-" + i + "\"}"), ok("send", "{\"to\":\"team\",\"text\":\"update " + i + "\"}", "sent " + i));
            };
            assertThat(o.quiet()).as("step %d", i).isTrue();
        }
        assertThat(h.monitor.firedCounts()).isEmpty();
    }

    @Test
    void proposedCallsOfUnknownToolsAreWatchedByNameOnly() {
        ProposedCall unknown = ProposedCall.of("c", "nope", Json.parse("{}"), null, 1);
        assertThat(unknown.risk()).isNull();
        assertThat(unknown.polling()).isFalse();
        Tool t = Tool.builder("w").description("w").resourceArgument("id").handler((a, c) -> "").build();
        assertThat(ProposedCall.of("c", "w", Json.parse("{\"id\":7}"), t, 1).resource()).contains("7");
    }
}
