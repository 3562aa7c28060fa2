package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.model.ModelCall;
import dev.rein.model.ModelException;
import dev.rein.model.ModelInterceptor;
import dev.rein.model.ModelResponse;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import dev.rein.trace.TraceEvent;
import org.junit.jupiter.api.Test;

/** A setting that cannot work, found during the run, ends it on Temporal as locally: FAILED/configuration_error, not retried. */
class TemporalConfigurationErrorTest {
    /** Sends every call to a model without a price, which the run's money limit cannot count. */
    private static final ModelInterceptor UNPRICED_FALLBACK = new ModelInterceptor() {
        @Override
        public ModelResponse intercept(ModelCall call, Chain chain) throws ModelException, InterruptedException {
            return chain.proceed(call.withRequest(call.request().withModel("unpriced-backup")));
        }
    };

    @Test
    void anUnpricedModelAStageChoseEndsTheRunAsAConfigurationErrorAsTheLocalDriverDoes() {
        RunResult expected = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup())
                .modelInterceptor(UNPRICED_FALLBACK).build().run("A-1?");

        RecordingListener remote = new RecordingListener();
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), remote, Orders.lookup()).modelInterceptor(UNPRICED_FALLBACK).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult result = server.start(agent).start("A-1?", "run-unpriced-fallback").result();

            assertThat(expected.reason()).isEqualTo("configuration_error");
            assertThat(result.status()).isEqualTo(RunStatus.FAILED);
            assertThat(result.reason()).isEqualTo(expected.reason());
            assertThat(result.message()).isEqualTo(expected.message()).startsWith("no price is known for model 'unpriced-backup'");
            assertThat(remote.events(TraceEvent.ModelRequested.class)).as("refused once, not retried").hasSize(1);
            assertThat(remote.events(TraceEvent.RunFinished.class)).singleElement()
                    .satisfies(f -> assertThat(f.reason()).isEqualTo("configuration_error"));
        }
    }
}
