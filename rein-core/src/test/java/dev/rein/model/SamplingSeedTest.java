package dev.rein.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A provider's seed option read without knowing the provider. */
class SamplingSeedTest {
    private record SomeProvidersSeed(long seed) implements SamplingSeed {
        @Override
        public String providerName() {
            return "some";
        }
    }

    private record Unrelated(long seed) implements ModelOption {}

    @Test
    void theSeedIsSentToAModelOfItsProviderOnly() {
        ModelRequest request = ModelRequest.builder("m").maxTokens(10).option(new SomeProvidersSeed(7)).build();
        assertThat(SamplingSeed.sentTo("some", request)).hasValue(7);
        assertThat(SamplingSeed.sentTo("other", request)).isEmpty();
        assertThat(SamplingSeed.sentTo(null, request)).isEmpty();
    }

    @Test
    void anOptionThatIsNoSamplingSeedIsNoSeedWhateverItsShape() {
        ModelRequest request = ModelRequest.builder("m").maxTokens(10).option(new Unrelated(7)).build();
        assertThat(SamplingSeed.sentTo("some", request)).isEmpty();
    }
}
