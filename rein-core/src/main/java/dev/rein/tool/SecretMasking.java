package dev.rein.tool;

import dev.rein.internal.secret.MaskedText;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Masks every known secret value in what a handler returned (its output or its error message)
 * before anything else (truncation, the model, the trace) sees it.
 */
final class SecretMasking extends BuiltInToolStage {
    private final ToolEvents events;

    SecretMasking(ToolEvents events) {
        this.events = events;
    }

    @Override
    public Chain bind(Chain next) {
        return new Bound(next);
    }

    /** This stage bound to the rest of the chain: one frame per stage on a waiting run's stack (see BuiltInToolStage). */
    private final class Bound extends BuiltInToolStage.Bound {
        Bound(Chain next) {
            super(next);
        }

        @Override
        public ToolOutcome proceed(ToolInvocation invocation) throws InterruptedException {
            ToolOutcome outcome = next.proceed(invocation);
            if (!(outcome instanceof ToolOutcome.Done done)) {
                return outcome;
            }
            ToolResult result = done.result();
            Map<String, String> secrets = invocation.context().secrets().known();
            MaskedText masked = MaskedText.of(result.content(), secrets);
            // the part for the person is shown and recorded too: masked the same way
            MaskedText maskedUser = MaskedText.of(result.userContent(), secrets);
            if (!masked.found() && !maskedUser.found()) {
                return outcome;
            }
            SortedSet<String> names = new TreeSet<>(masked.secrets());
            names.addAll(maskedUser.secrets());
            events.audit(invocation, "secret_masked", MaskedText.audited("the output of tool '" + invocation.tool().name() + "'", names));
            return ToolOutcome.of(result.withOwnContent(masked.text()).withUserContent(maskedUser.text()));
        }
    }
}
