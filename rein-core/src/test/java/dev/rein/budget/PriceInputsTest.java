package dev.rein.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.model.Model;
import dev.rein.provider.OptionedModel;
import dev.rein.provider.PricedModel;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A price, a price table or a wrapped model given null where a value belongs is a configuration mistake, said as one
 * (a ReinException naming what is missing and what to give), not a bare NullPointerException, nor taken silently.
 */
class PriceInputsTest {
    private static final ModelPrice PRICE = ModelPrice.of("3", "0.3", "15");
    private static final Model MODEL = (request, context) -> {
        throw new UnsupportedOperationException("not called");
    };

    @Test
    void aPriceGivenNoRateIsRefusedNamingTheRate() {
        BigDecimal one = BigDecimal.ONE;
        assertThatThrownBy(() -> new ModelPrice(null, one, one, one, Map.of())).isInstanceOf(ReinException.class)
                .hasMessageContaining("input price is missing (null)");
        assertThatThrownBy(() -> new ModelPrice(one, one, one, null, Map.of())).isInstanceOf(ReinException.class)
                .hasMessageContaining("output price is missing (null)");
        Map<String, BigDecimal> classes = new HashMap<>();
        classes.put("1h", null);
        assertThatThrownBy(() -> new ModelPrice(one, one, one, one, classes)).isInstanceOf(ReinException.class)
                .hasMessageContaining("cache write of class '1h'").hasMessageContaining("missing (null)");
        Map<String, BigDecimal> unnamed = new HashMap<>();
        unnamed.put(null, one);
        assertThatThrownBy(() -> new ModelPrice(one, one, one, one, Map.of(), unnamed)).isInstanceOf(ReinException.class)
                .hasMessageContaining("per-use price was given for no tool (null)");
    }

    @Test
    void aClassToolOrLongContextPriceGivenNullIsRefusedNamingIt() {
        assertThatThrownBy(() -> PRICE.withCacheWriteClass(null, "1")).isInstanceOf(ReinException.class)
                .hasMessageContaining("cache write class");
        assertThatThrownBy(() -> PRICE.withPerUse(null, "0.01")).isInstanceOf(ReinException.class)
                .hasMessageContaining("per-use price was given for no tool (null)");
        assertThatThrownBy(() -> PRICE.withLongContext(200_000, null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("long-context price is missing (null)")
                .hasMessageContaining("with withCacheWriteClass(writeClass, rate) for each cache write class the model's price has");
    }

    @Test
    void aPriceTableEntryWithoutAModelNameOrAPriceIsRefusedNotKept() {
        assertThatThrownBy(() -> PriceTable.empty().with(null, PRICE)).isInstanceOf(ReinException.class)
                .hasMessageContaining("no model name (null)");
        assertThatThrownBy(() -> PriceTable.empty().with(" ", PRICE)).isInstanceOf(ReinException.class)
                .hasMessageContaining("blank");
        assertThatThrownBy(() -> PriceTable.empty().with("my-model", null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("'my-model'").hasMessageContaining("no price (null)");
        assertThatThrownBy(() -> PriceTable.empty().withAll(null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("no price table (null)");
        assertThat(PriceTable.empty().with("my-model", PRICE).find("my-model")).contains(PRICE);
    }

    @Test
    void aWrappedModelGivenNullIsRefusedNamingWhatIsMissing() {
        assertThatThrownBy(() -> PricedModel.of(null, "m", PRICE)).isInstanceOf(ReinException.class)
                .hasMessageContaining("no model to wrap (null)");
        assertThatThrownBy(() -> PricedModel.of(MODEL, null, PRICE)).isInstanceOf(ReinException.class)
                .hasMessageContaining("no model name (null)");
        assertThatThrownBy(() -> PricedModel.of(MODEL, "m", null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("no price (null)");
        assertThatThrownBy(() -> OptionedModel.of(null, List.of())).isInstanceOf(ReinException.class)
                .hasMessageContaining("no model to wrap (null)");
        assertThatThrownBy(() -> OptionedModel.of(MODEL, null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("no options (null)");
        assertThatThrownBy(() -> OptionedModel.of(MODEL, Arrays.asList((dev.rein.model.ModelOption) null)))
                .isInstanceOf(ReinException.class).hasMessageContaining("option 1 is null");
    }
}
