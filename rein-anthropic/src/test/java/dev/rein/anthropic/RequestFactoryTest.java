package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import dev.rein.json.Json;
import org.junit.jupiter.api.Test;

/**
 * The factory that writes request bodies is the shared mapper's with one feature more: a rebuilt
 * Jackson factory drops what its builder does not copy, and losing the shared buffer pool would make
 * every body on a fresh virtual thread start with empty buffers.
 */
class RequestFactoryTest {

    @Test
    void theRequestFactoryKeepsTheSharedMappersPoolLimitsAndCodec() throws Exception {
        JsonFactory shared = Json.mapper().getFactory();
        JsonFactory requests = RequestMapper.JSON;
        assertThat(requests._getRecyclerPool()).as("buffer pool").isSameAs(shared._getRecyclerPool());
        assertThat(requests.streamWriteConstraints().getMaxNestingDepth())
                .isEqualTo(shared.streamWriteConstraints().getMaxNestingDepth());
        assertThat(requests.streamReadConstraints().getMaxNestingDepth())
                .isEqualTo(shared.streamReadConstraints().getMaxNestingDepth());
        assertThat(requests.getCodec()).as("writeTree").isSameAs(Json.mapper());
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        try (var g = requests.createGenerator(out)) {
            g.writeString("😀");
        }
        assertThat(out.toString(java.nio.charset.StandardCharsets.UTF_8)).as("4-byte UTF-8").isEqualTo("\"😀\"");
    }
}
