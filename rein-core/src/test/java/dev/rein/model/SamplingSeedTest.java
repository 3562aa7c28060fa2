package dev.rein.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A provider's seed option read without knowing the provider. */
class SamplingSeedTest {
    private record SomeProvidersSeed(long seed) implements SamplingSeed {}

    private record Unrelated(long seed) implements ModelOption {}

    @Test
    void theSeedOfASamplingSeedOptionIsRead() {
        ModelRequest request = ModelRequest.builder("m").maxTokens(10).option(new SomeProvidersSeed(7)).build();
        assertThat(SamplingSeed.of(request)).hasValue(7);
    }

    @Test
    void anOptionThatIsNoSamplingSeedIsNoSeedWhateverItsShape() {
        ModelRequest request = ModelRequest.builder("m").maxTokens(10).option(new Unrelated(7)).build();
        assertThat(SamplingSeed.of(request)).isEmpty();
    }
}
