package dev.rein.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.BudgetKind;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ReasonTest {
    @Test
    void everyReasonStringAndBudgetReasonIsAClosedReasonWithTheSameWireName() throws Exception {
        for (Field f : Reasons.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
                String wire = (String) f.get(null);
                assertThat(Reason.of(wire).wire()).isEqualTo(wire);
                assertThat(Reason.of(wire).name()).isEqualTo(f.getName());
            }
        }
        assertThat(Arrays.stream(BudgetKind.values()).map(k -> Reason.of(k.reason()).wire()))
                .containsExactly("max_steps", "max_cost", "deadline", "max_input_tokens", "max_output_tokens");
    }
}
