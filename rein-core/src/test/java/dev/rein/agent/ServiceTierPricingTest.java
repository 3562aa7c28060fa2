package dev.rein.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.budget.ModelPrice;
import dev.rein.json.Json;
import dev.rein.model.ModelResponse;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.model.Usage;
import dev.rein.replay.Replay;
import dev.rein.replay.ReplayReport;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.trace.JsonlTraceListener;
import dev.rein.trace.TraceEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A call the provider served at another service tier than its standard one (flex: cheaper; priority: dearer) is
 * charged at that tier's rates when the model's price has them; else at the base price, which its trace event says.
 */
class ServiceTierPricingTest {
    private static final Usage USAGE = Usage.of(1_000_000, 100_000, 0, 0);
    private static final ModelPrice BASE = ModelPrice.of("2", "0.2", "8");
    private static final ModelPrice PRIORITY = ModelPrice.of("3.5", "0.35", "14");

    private final RecordingListener trace = new RecordingListener();

    private static ScriptedModel.Turn servedAt(String tier) {
        return (request, number) -> new ModelResponse("msg_" + number, request.model(), List.of(new TextBlock("done")),
                StopReason.END_TURN, null, USAGE, null, "end_turn", tier);
    }

    private RunResult run(ModelPrice price, String tier, Path file) {
        Agent.Builder agent = Agent.builder().model(ScriptedModel.of(servedAt(tier))).listener(trace)
                .price(ScriptedModel.DEFAULT_NAME, price);
        if (file != null) {
            agent.listener(JsonlTraceListener.to(file));
        }
        return agent.build().run("go");
    }

    @Test
    void aCallServedAtAPricedTierIsChargedAtItsRates() {
        RunResult result = run(BASE.withTier("priority", PRIORITY), "priority", null);

        assertThat(result.costUsd()).isEqualByComparingTo("4.9"); // 3.5 + 0.1 × 14, not the base 2.8
        assertThat(trace.events(TraceEvent.ModelResponded.class)).singleElement().satisfies(responded -> {
            assertThat(responded.costUsd()).isEqualByComparingTo("4.9");
            assertThat(responded.response().serviceTier()).isEqualTo("priority");
            assertThat(responded.pricing()).isNull();
        });
    }

    @Test
    void aCallServedAtATierWithoutAPriceIsChargedTheBasePriceAndItsEventSaysSo() {
        RunResult result = run(BASE.withTier("priority", PRIORITY), "flex", null);

        assertThat(result.costUsd()).isEqualByComparingTo("2.8");
        assertThat(trace.events(TraceEvent.ModelResponded.class)).singleElement()
                .satisfies(responded -> assertThat(responded.pricing()).isEqualTo("served at service tier 'flex', which the"
                        + " price of model 'scripted-model' has no rates for: charged at its base price, which can be more or"
                        + " less than the call was billed. Add the tier's rates with ModelPrice.withTier(\"flex\","
                        + " ModelPrice.of(input, cacheRead, output)) on the model's price"));
    }

    /**
     * The note's advice on a price with cache write classes names them, as ModelPrice.withTier refuses a tier's price
     * without a rate for each; on a price without any it says nothing of them. It said for every price that "a tier's
     * price also needs withCacheWriteClass(writeClass, rate) for each cache write class the model's price has", naming
     * none, though UnpricedTier did not carry the price to say which.
     */
    @Test
    void thePricingNoteNamesTheCacheWriteClassesATiersPriceNeedsAndOnlyWhenThePriceHasThem() {
        ModelPrice classes = ModelPrice.of("2", "0.2", "2.5", "8").withCacheWriteClass("ephemeral_1h_input_tokens", "4")
                .withCacheWriteClass("ephemeral_5m_input_tokens", "2.5");
        Agent.builder().model(ScriptedModel.of(servedAt("flex"))).listener(trace).price(ScriptedModel.DEFAULT_NAME, classes)
                .build().run("go");

        assertThat(trace.events(TraceEvent.ModelResponded.class)).singleElement()
                .satisfies(responded -> assertThat(responded.pricing()).isEqualTo("served at service tier 'flex', which the"
                        + " price of model 'scripted-model' has no rates for: charged at its base price, which can be more or"
                        + " less than the call was billed. Add the tier's rates with ModelPrice.withTier(\"flex\","
                        + " ModelPrice.of(input, cacheRead, output).withCacheWriteClass(\"ephemeral_1h_input_tokens\", rate)"
                        + ".withCacheWriteClass(\"ephemeral_5m_input_tokens\", rate)) on the model's price: a tier's price"
                        + " needs a rate for each cache write class the model's price has"));

        // two models, one price with a class and one without: each model's advice names what its own price needs
        RecordingListener other = new RecordingListener();
        Agent.builder().model(ScriptedModel.of(servedAt("flex"), servedAt("flex"))).listener(other)
                .price(ScriptedModel.DEFAULT_NAME, BASE).price("backup", ModelPrice.of("2", "0.2", "2.5", "8")
                        .withCacheWriteClass("ephemeral_1h_input_tokens", "4"))
                .modelInterceptor(alsoCalling("backup")).build().run("go");
        assertThat(other.events(TraceEvent.ModelResponded.class)).singleElement()
                .satisfies(responded -> assertThat(responded.pricing()).endsWith("Add each tier's rates on its model's price:"
                        + " ModelPrice.withTier(\"flex\", ModelPrice.of(input, cacheRead, output)) on the price of model"
                        + " 'scripted-model'; ModelPrice.withTier(\"flex\", ModelPrice.of(input, cacheRead, output)"
                        + ".withCacheWriteClass(\"ephemeral_1h_input_tokens\", rate)) on the price of model 'backup': a"
                        + " tier's price needs a rate for each cache write class the model's price has"));
    }

    /**
     * The provider echoes a dated snapshot of the model asked for (gpt-4o asked, gpt-4o-2024-08-06 answered); the price
     * was found under the model asked for, so the note names that one, where the tier's rates are to be added.
     */
    @Test
    void thePricingNoteNamesTheModelWhosePriceWasUsedNotTheSnapshotTheProviderEchoed() {
        ScriptedModel.Turn snapshot = (request, number) -> new ModelResponse("msg_" + number, request.model() + "-2024-08-06",
                List.of(new TextBlock("done")), StopReason.END_TURN, null, USAGE, null, "end_turn", "flex");
        Agent.builder().model(ScriptedModel.of(snapshot)).listener(trace).price(ScriptedModel.DEFAULT_NAME, BASE)
                .build().run("go");

        assertThat(trace.events(TraceEvent.ModelResponded.class)).singleElement()
                .satisfies(responded -> assertThat(responded.pricing()).startsWith("served at service tier 'flex', which the"
                        + " price of model 'scripted-model' has no rates for"));
    }

    /**
     * A fallback stage sends the call to model 'backup', whose price has no rates for the tier that served it, while
     * the agent's model has them: the note names the model whose price was used (the pricing stage's), not the one the
     * call was made for.
     */
    @Test
    void thePricingNoteNamesTheModelAFallbackStageChoseWhosePriceLacksTheTier() {
        dev.rein.model.ModelInterceptor toBackup = (call, chain) -> chain.proceed(call.withRequest(call.request().withModel("backup")));
        Agent.builder().model(ScriptedModel.of(servedAt("flex"))).listener(trace)
                .price(ScriptedModel.DEFAULT_NAME, BASE.withTier("flex", PRIORITY)).price("backup", BASE)
                .modelInterceptor(toBackup).build().run("go");

        assertThat(trace.events(TraceEvent.ModelResponded.class)).singleElement()
                .satisfies(responded -> assertThat(responded.pricing()).startsWith("served at service tier 'flex', which the"
                        + " price of model 'backup' has no rates for"));
    }

    /**
     * A model interceptor that calls the model twice for one call (keeping the first answer): the first served at a tier
     * without rates, the second at a priced one. Both are charged to the call, so its event says the tier charged at the
     * base price, though the last call the meter priced was the priced one.
     */
    @Test
    void aTierWithoutAPriceOfAnEarlierCallAnInterceptorMadeIsStillSaid() {
        dev.rein.model.ModelInterceptor twice = new dev.rein.model.ModelInterceptor() {
            @Override
            public ModelResponse intercept(dev.rein.model.ModelCall call, Chain chain)
                    throws dev.rein.model.ModelException, InterruptedException {
                ModelResponse first = chain.proceed(call);
                chain.proceed(call); // a second opinion, not taken
                return first;
            }

            @Override
            public boolean retries() {
                return true;
            }
        };
        RunResult result = Agent.builder().model(ScriptedModel.of(servedAt("flex"), servedAt("priority"))).listener(trace)
                .price(ScriptedModel.DEFAULT_NAME, BASE.withTier("priority", PRIORITY)).modelInterceptor(twice).build().run("go");

        assertThat(result.costUsd()).isEqualByComparingTo("7.7"); // 2.8 (flex, base) + 4.9 (priority)
        assertThat(trace.events(TraceEvent.ModelResponded.class)).singleElement().satisfies(responded -> {
            assertThat(responded.response().serviceTier()).isEqualTo("flex");
            assertThat(responded.pricing()).startsWith("served at service tier 'flex', which the price of model"
                    + " 'scripted-model' has no rates for");
        });
    }

    /** A stage that calls the model the call was made for and then {@code second} (a fallback's backup, a second opinion). */
    private static dev.rein.model.ModelInterceptor alsoCalling(String second) {
        return new dev.rein.model.ModelInterceptor() {
            @Override
            public ModelResponse intercept(dev.rein.model.ModelCall call, Chain chain)
                    throws dev.rein.model.ModelException, InterruptedException {
                ModelResponse first = chain.proceed(call);
                chain.proceed(call.withRequest(call.request().withModel(second)));
                return first;
            }

            @Override
            public boolean retries() {
                return true;
            }
        };
    }

    /**
     * One call's model calls went to two models whose prices both lack the tier: each was charged at its own model's
     * base price, and the note says so of each and where each tier's rates go, not "its base price" and "the model's
     * price" as if there were one.
     */
    @Test
    void thePricingNoteOfCallsToSeveralModelsSaysEachWasChargedAtItsOwnModelsBasePrice() {
        Agent.builder().model(ScriptedModel.of(servedAt("flex"), servedAt("flex"))).listener(trace)
                .price(ScriptedModel.DEFAULT_NAME, BASE).price("backup", BASE.withTier("priority", PRIORITY))
                .modelInterceptor(alsoCalling("backup")).build().run("go");

        assertThat(trace.events(TraceEvent.ModelResponded.class)).singleElement()
                .satisfies(responded -> assertThat(responded.pricing()).isEqualTo("its model calls served at service tier"
                        + " 'flex' of model 'scripted-model' and service tier 'flex' of model 'backup', which those models'"
                        + " prices have no rates for: each charged at its model's base price, which can be more or less"
                        + " than it was billed. Add each tier's rates on its model's price:"
                        + " ModelPrice.withTier(\"flex\", ModelPrice.of(input, cacheRead, output)) on the price of model"
                        + " 'scripted-model'; ModelPrice.withTier(\"flex\", ModelPrice.of(input, cacheRead, output)) on"
                        + " the price of model 'backup'"));
    }

    /** Two model calls to one model at two tiers its price lacks: the note names both tiers and asks for both. */
    @Test
    void thePricingNoteOfCallsToOneModelAtSeveralTiersAsksForEachTiersRates() {
        Agent.builder().model(ScriptedModel.of(servedAt("flex"), servedAt("scale"))).listener(trace)
                .price(ScriptedModel.DEFAULT_NAME, BASE).modelInterceptor(alsoCalling(ScriptedModel.DEFAULT_NAME))
                .build().run("go");

        assertThat(trace.events(TraceEvent.ModelResponded.class)).singleElement()
                .satisfies(responded -> assertThat(responded.pricing()).isEqualTo("its model calls served at service tiers"
                        + " 'flex' and 'scale', which the price of model 'scripted-model' has no rates for: charged at its"
                        + " base price, which can be more or less than they were billed. Add the tiers' rates with"
                        + " ModelPrice.withTier(\"flex\", ModelPrice.of(input, cacheRead, output)) and"
                        + " ModelPrice.withTier(\"scale\", ModelPrice.of(input, cacheRead, output)) on the model's price"));
    }

    @Test
    void aCallWithoutATierIsChargedTheBasePriceSayingNothing() {
        RunResult result = run(BASE.withTier("priority", PRIORITY), null, null);

        assertThat(result.costUsd()).isEqualByComparingTo("2.8");
        assertThat(trace.events(TraceEvent.ModelResponded.class)).singleElement()
                .satisfies(responded -> assertThat(responded.pricing()).isNull());
    }

    @Test
    void aTierPriceKeepsTheModelsPerUsePricesAndItsOwnLongContextRates() {
        ModelPrice price = BASE.withPerUse("web_search", "0.01")
                .withTier("priority", PRIORITY.withLongContext(200_000, ModelPrice.of("7", "0.7", "28")));
        Usage searched = new Usage(1_000_000, 100_000, 0, 0, java.util.Map.of(), false, java.util.Map.of("web_search", 3L));

        assertThat(price.cost(searched, "priority")).isEqualByComparingTo("9.83"); // 7 + 0.1 × 28 + 3 × 0.01
        assertThat(price.cost(searched, "flex")).isEqualByComparingTo(price.cost(searched)).isEqualByComparingTo("2.83");
        assertThat(price.pricesTier("priority")).isTrue();
        assertThat(price.pricesTier("flex")).isFalse();
        assertThat(price.pricesTier(null)).isTrue();
    }

    @Test
    void aTierPriceThatCannotWorkIsRefusedSayingWhatToGive() {
        assertThatThrownBy(() -> BASE.withTier(" ", PRIORITY)).isInstanceOf(ReinException.class)
                .hasMessageContaining("name the tier as the provider's response does, e.g. \"flex\" or \"priority\"");
        assertThatThrownBy(() -> BASE.withTier("flex", null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("the price of service tier 'flex' is missing (null): give its token rates");
        assertThatThrownBy(() -> BASE.withTier("flex", PRIORITY.withTier("priority", PRIORITY)))
                .isInstanceOf(ReinException.class).hasMessageContaining("cannot have service tier prices of its own");
    }

    /**
     * Tier rates given on the long-context price would never be used (a call's tier is looked up on the model's price,
     * and a tier's long-context rates are its own): refused, saying where they go, rather than silently ignored.
     */
    @Test
    void tierRatesGivenOnTheLongContextPriceAreRefusedSayingToGiveTheTierItsOwnLongContextRates() {
        ModelPrice longTiered = ModelPrice.of("4", "0.4", "16").withTier("priority", ModelPrice.of("7", "0.7", "28"));

        assertThatThrownBy(() -> BASE.withLongContext(200_000, longTiered)).isInstanceOf(ReinException.class)
                .hasMessageContaining("the long-context price cannot have service tier prices of its own")
                .hasMessageContaining("withTier(\"priority\", tierPrice.withLongContext(200000, ModelPrice.of(")
                .hasMessageContaining("for each cache write class the tier's price has");
    }

    @Test
    void theTraceKeepsTheTierAndItsPriceAndAReplayChargesTheSame(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("run.jsonl");
        // a money limit makes run_started record the model's price, which a replay reads back
        Agent.builder().model(ScriptedModel.of(servedAt("priority"))).price(ScriptedModel.DEFAULT_NAME,
                BASE.withTier("priority", PRIORITY)).budget(dev.rein.budget.Budget.builder().maxCostUsd("100").build())
                .listener(JsonlTraceListener.to(file)).build().run("go");
        String text = Files.readString(file);
        String responded = text.lines().filter(l -> l.contains("\"model_response\"")).findFirst().orElseThrow();
        assertThat(Json.parse(responded).path("response").path("service_tier").asText()).isEqualTo("priority");
        assertThat(text).contains("\"tiers\":{\"priority\":");

        RecordingListener replayed = new RecordingListener();
        ReplayReport report = Replay.from(file).replay(Agent.builder().model(ScriptedModel.of()).listener(replayed).build());

        assertThat(report.reproduced()).isTrue();
        assertThat(replayed.events(TraceEvent.ModelResponded.class)).singleElement()
                .satisfies(r -> assertThat(r.costUsd()).isEqualByComparingTo("4.9"));
    }

    @Test
    void aResponseAndAPriceWrittenBeforeTiersStillRead() throws Exception {
        ModelResponse old = Json.storedMapper().readValue("{\"id\":\"m\",\"model\":\"x\",\"content\":[],\"stop_reason\":"
                + "\"end_turn\",\"stop_sequence\":null,\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}", ModelResponse.class);
        assertThat(old.serviceTier()).isNull();
        // as run_started's limits recorded a model_price before tiers were priced
        ModelPrice price = Json.storedMapper().readValue("{\"input_per_mtok\":2,\"cache_read_per_mtok\":0.2,"
                + "\"cache_write_per_mtok\":2,\"output_per_mtok\":8,\"cache_write_class_per_mtok\":{},\"per_use\":{},"
                + "\"long_context\":null}", ModelPrice.class);
        assertThat(price).isEqualTo(BASE);
        assertThat(price.tiers()).isEmpty();
        // and nothing about tiers is written when there are none
        assertThat(Json.storedMapper().writeValueAsString(BASE)).doesNotContain("tiers");
        assertThat(Json.storedMapper().writeValueAsString(old)).doesNotContain("service_tier");
    }
}
