package dev.rein.provider;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.ModelPrice;
import dev.rein.budget.PriceTable;
import dev.rein.model.Model;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.model.Usage;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Every model wrapper extends ForwardingModel: it must forward every method a wrapped model may answer. */
class ForwardingModelTest {

    /** A wrapper that changes nothing. */
    private static final class Plain extends ForwardingModel {
        Plain(Model model) {
            super(model);
        }
    }

    /**
     * A method added to Model (or ModelDefaults, AutoCloseable) and not forwarded here would be answered by the
     * interface's default in every wrapper: as a wrapper that missed abortsOnInterrupt ran its calls on another thread.
     */
    @Test
    void everyMethodOfTheInterfacesAModelMayImplementIsForwarded() {
        List<String> missing = new ArrayList<>();
        for (Class<?> type : List.of(Model.class, ModelDefaults.class, AutoCloseable.class)) {
            for (Method method : type.getMethods()) {
                if (Modifier.isStatic(method.getModifiers())) {
                    continue;
                }
                try {
                    ForwardingModel.class.getDeclaredMethod(method.getName(), method.getParameterTypes());
                } catch (NoSuchMethodException e) {
                    missing.add(type.getSimpleName() + "." + method.getName() + Arrays.toString(method.getParameterTypes()));
                }
            }
        }
        assertThat(missing).as("methods ForwardingModel does not forward").isEmpty();
    }

    @Test
    void aWrapperThatChangesNothingAnswersAsTheWrappedModel() throws Exception {
        AtomicBoolean closed = new AtomicBoolean();
        PriceTable prices = PriceTable.empty().with("m", ModelPrice.of("1", "0", "2"));
        class Full implements Model, ModelDefaults, AutoCloseable {
            @Override
            public ModelResponse call(ModelRequest request, ModelCallContext context) {
                return new ModelResponse("r", request.model(), List.of(new TextBlock("応答")), StopReason.END_TURN, null, Usage.ZERO);
            }

            @Override
            public long countTokens(ModelRequest request) {
                return 42;
            }

            @Override
            public boolean abortsOnInterrupt() {
                return true;
            }

            @Override
            public String defaultModelName() {
                return "m";
            }

            @Override
            public PriceTable prices() {
                return prices;
            }

            @Override
            public String providerName() {
                return "p";
            }

            @Override
            public String apiType() {
                return "chat_completions";
            }

            @Override
            public void close() {
                closed.set(true);
            }
        }
        Plain plain = new Plain(new Full());
        ModelRequest request = ModelRequest.builder("m").messages(List.of(dev.rein.model.Message.user("やあ"))).build();

        assertThat(plain.call(request, null).text()).isEqualTo("応答");
        assertThat(plain.countTokens(request)).isEqualTo(42);
        assertThat(plain.abortsOnInterrupt()).isTrue();
        assertThat(plain.defaultModelName()).isEqualTo("m");
        assertThat(plain.prices()).isSameAs(prices);
        assertThat(plain.providerName()).isEqualTo("p");
        assertThat(plain.apiType()).isEqualTo("chat_completions");
        plain.close();
        assertThat(closed).isTrue();
    }

    @Test
    void aModelWithoutDefaultsOrCloseIsWrappedAsOneWithout() throws Exception {
        Plain plain = new Plain((request, context) -> {
            throw new UnsupportedOperationException("not called");
        });
        assertThat(plain.abortsOnInterrupt()).isFalse();
        assertThat(plain.countTokens(ModelRequest.builder("m").messages(List.of(dev.rein.model.Message.user("x"))).build()))
                .isEqualTo(-1);
        assertThat(plain.defaultModelName()).isNull();
        assertThat(plain.prices().find("m")).isEmpty();
        assertThat(plain.providerName()).isNull();
        assertThat(plain.apiType()).isNull();
        plain.close(); // nothing to close
    }
}
