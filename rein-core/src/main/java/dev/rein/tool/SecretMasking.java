package dev.rein.tool;

import java.util.Map;
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
            String masked = Secrets.mask(result.content(), secrets);
            // the part for the person is shown and recorded too: masked the same way
            String user = result.userContent();
            String maskedUser = user == null ? null : Secrets.mask(user, secrets);
            if (masked.equals(result.content()) && java.util.Objects.equals(maskedUser, user)) {
                return outcome;
            }
            TreeSet<String> names = new TreeSet<>();
            secrets.forEach((name, value) -> {
                if (Secrets.forms(value).stream().anyMatch(form -> result.content().contains(form) || user != null && user.contains(form))) {
                    names.add(name);
                }
            });
            events.audit(invocation, "secret_masked", "the output of tool '" + invocation.tool().name()
                    + "' contained the secret(s) " + names + "; they were masked before the model or the trace saw them");
            return ToolOutcome.of(result.withOwnContent(masked).withUserContent(maskedUser));
        }
    }
}
