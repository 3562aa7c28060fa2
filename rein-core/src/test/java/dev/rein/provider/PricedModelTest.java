package dev.rein.provider;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.ModelPrice;
import dev.rein.model.Model;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PricedModelTest {

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void pricingAModelKeepsWhereItsCallsRun(boolean aborts) {
        Model model = new Model() {
            @Override
            public ModelResponse call(ModelRequest request, ModelCallContext context) {
                throw new UnsupportedOperationException("not called");
            }

            @Override
            public boolean abortsOnInterrupt() {
                return aborts;
            }
        };
        PricedModel priced = PricedModel.of(model, "my-model", ModelPrice.of("3", "0.3", "15"));
        assertThat(priced.abortsOnInterrupt()).isEqualTo(aborts);
        assertThat(priced.defaultModelName()).isEqualTo("my-model");
        assertThat(priced.prices().find("my-model")).isPresent();
    }
}
