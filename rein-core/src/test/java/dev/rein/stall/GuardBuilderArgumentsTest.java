package dev.rein.stall;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.context.ContextPolicy;
import org.junit.jupiter.api.Test;

/** A null given to a guard's or context policy's builder is a ReinException saying what to pass, not a bare NullPointerException. */
class GuardBuilderArgumentsTest {
    @Test
    void aNullGivenToTheStallOrContextBuildersIsRefusedSayingWhatToPass() {
        // each was a NullPointerException naming only the parameter ("states", "factory", "store", "counting")
        assertThatThrownBy(() -> StallPolicy.builder().editRevert(null, 1)).isInstanceOf(ReinException.class)
                .hasMessage("StallPolicy.Builder.editRevert(...) was given no ResourceState (null): pass how a write tool reports"
                        + " the state it left, ResourceState.fromArguments() (the default) or ResourceState.fromResult()");
        assertThatThrownBy(() -> new EditRevert(null, 1)).isInstanceOf(ReinException.class)
                .hasMessageContaining("ResourceState.fromArguments()");
        assertThatThrownBy(() -> StallPolicy.builder().detector(null)).isInstanceOf(ReinException.class)
                .hasMessage("StallPolicy.Builder.detector(...) was given no factory (null): pass a StallDetector.Factory that"
                        + " makes a fresh detector for each run, e.g. MyDetector::new");
        assertThatThrownBy(() -> ContextPolicy.builder().outputStore(null)).isInstanceOf(ReinException.class)
                .hasMessage("ContextPolicy.Builder.outputStore(...) was given no store (null): pass where full tool outputs"
                        + " are kept, OutputStore.inMemory() (the default) or OutputStore.directory(path)");
        assertThatThrownBy(() -> ContextPolicy.builder().tokenCounting(null)).isInstanceOf(ReinException.class)
                .hasMessage("ContextPolicy.Builder.tokenCounting(...) was given no way of counting (null): pass"
                        + " TokenCounting.PROVIDER (the default) or TokenCounting.ESTIMATE");
    }

    @Test
    void aDetectorNamedByNullIsRefusedAsNoNameNotAsADetectorCalledNull() {
        // they said "no stall detector named 'null'" and, at build(), "an intervention text is set for 'null'"
        assertThatThrownBy(() -> StallPolicy.builder().without(null)).isInstanceOf(ReinException.class)
                .hasMessageStartingWith("StallPolicy.Builder.without(...) was given no detector name (null): pass one of ");
        assertThatThrownBy(() -> StallPolicy.builder().message(null, "Stop repeating.")).isInstanceOf(ReinException.class)
                .hasMessageStartingWith("StallPolicy.Builder.message(...) was given no detector name (null): pass one of ");
    }
}
