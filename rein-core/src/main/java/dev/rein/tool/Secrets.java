package dev.rein.tool;

import dev.rein.ReinException;
import dev.rein.internal.secret.Masking;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Secrets the executor hands to tool handlers. They never enter the model's context or the trace:
 * the executor masks every value it knows of in tool results, and the run masks them in every
 * trace event.
 *
 * <p>A secret is known once it is registered ({@link #of(Map)}) or handed out by {@link #get}
 * during the run. Values shorter than {@value #MIN_LENGTH} characters cannot be masked reliably and
 * are refused by {@link #of(Map)}.
 */
@FunctionalInterface
public interface Secrets {
    Secrets NONE = name -> Optional.empty();

    /** The shortest secret value that can be registered. */
    int MIN_LENGTH = Masking.MIN_LENGTH;

    /**
     * The secret called {@code name}, if one is registered.
     *
     * @throws ReinException in a run (where {@code ctx.secrets()} is {@link #tracking(Secrets)}), when {@code name} is
     *     null, or when a lookup has a value for a name that could not be masked: one holding {@code ]} or longer than
     *     128 characters (as {@link #of(Map)} refuses), or a value shorter than {@value #MIN_LENGTH} characters; a bad
     *     name with no value is an empty {@link Optional}, as any unknown name
     */
    Optional<String> get(String name);

    /**
     * The secret values known so far, by name, for masking. A fixed set knows all of its values; a
     * lookup function knows none until {@link #tracking(Secrets)} records what it hands out.
     */
    default Map<String, String> known() {
        return Map.of();
    }

    /**
     * A fixed set of secrets. A name may not hold {@code ]}, which would end its {@code [REDACTED:name]} marker early, nor
     * be longer than 128 characters, past which a fence's cut no longer tells its marker from text. The names a lookup
     * function is asked for are checked alike when it has a value for one a run's handler asks for
     * ({@link #tracking(Secrets)}).
     */
    static Secrets of(Map<String, String> values) {
        if (values == null) {
            throw new ReinException("Secrets.of was given no map: pass the secrets by name, or use Secrets.NONE for none");
        }
        // checked before the copy, whose NullPointerException would name neither the secret nor the cause
        values.forEach((name, value) -> {
            checkName(name);
            if (value == null) {
                throw new ReinException("secret '" + name + "' has no value (null): is the environment variable or setting"
                        + " it is read from set?");
            }
        });
        Map<String, String> copy = Map.copyOf(values);
        copy.forEach((name, value) -> {
            if (value.length() < MIN_LENGTH) {
                throw new ReinException(tooShort(name));
            }
        });
        return new Secrets() {
            @Override
            public Optional<String> get(String name) {
                return Optional.ofNullable(copy.get(name));
            }

            @Override
            public Map<String, String> known() {
                return copy;
            }
        };
    }

    /**
     * Refuses a name its {@code [REDACTED:name]} marker could not carry: {@link #of(Map)} checks each name it is given,
     * {@link #tracking(Secrets)} each name a lookup has a value for.
     */
    private static void checkName(String name) {
        if (name == null) {
            throw new ReinException("a secret has no name (null): give each secret the name handlers ask for it by");
        }
        if (name.indexOf(']') >= 0) {
            // the marker [REDACTED:name] runs to its first ']': one in the name would end it early, and a quote cut
            // just past that ']' would show the rest of the marker as if it were the text's own
            throw new ReinException("secret '" + name + "' has ']' in its name, which would end its [REDACTED:name]"
                    + " marker early: name it without ']'");
        }
        if (name.length() > Masking.MAX_NAME) {
            // a fence's cut looks for a marker's ']' only so far: a longer name's marker would be cut as text, in half
            throw new ReinException("secret '" + name + "' has a name of " + name.length() + " characters, longer than the "
                    + Masking.MAX_NAME + " a [REDACTED:name] marker may name: give it a shorter name");
        }
    }

    /** Why a value is refused as a secret (it names the secret, never the value). */
    private static String tooShort(String name) {
        return "secret '" + name + "' is shorter than " + MIN_LENGTH
                + " characters; a value that short cannot be masked in traces without masking ordinary text";
    }

    /**
     * Wraps {@code base} so that every value it hands out becomes known and is masked from then on.
     * A value shorter than {@value #MIN_LENGTH} characters is not handed out ({@link ReinException}),
     * since it could not be masked; nor is a value {@code base} has for a name {@link #of(Map)} would refuse (holding
     * {@code ]}, or longer than 128 characters), whose marker could break. Such a name with no value is an empty
     * {@link Optional}, as any unknown name; a {@code null} name is refused.
     */
    static Secrets tracking(Secrets base) {
        Map<String, String> handedOut = new ConcurrentHashMap<>();
        return new Secrets() {
            @Override
            public Optional<String> get(String name) {
                if (name == null) {
                    // before the lookup, which may not take null (Secrets.of's map does not)
                    throw new ReinException("a tool handler asked for a secret with no name (null): pass the name the secret"
                            + " is registered under");
                }
                Optional<String> value = base.get(name);
                if (value.isEmpty()) {
                    // nothing to hand out, nothing to mask: a handler's orElse(default) works for any name, as before
                    return value;
                }
                // a lookup has no names to check before it is asked: checked as Secrets.of checks its map's, when a value
                // would be handed out whose [REDACTED:name] marker could break
                checkName(name);
                if (value.isPresent() && value.get().length() < MIN_LENGTH) {
                    // it could not be masked once handed out: refused here, as Secrets.of refuses it at once
                    throw new ReinException(tooShort(name));
                }
                value.ifPresent(v -> handedOut.put(name, v));
                return value;
            }

            @Override
            public Map<String, String> known() {
                Map<String, String> fixed = base.known();
                // Asked for every trace event, checkpoint and tool result: no copy while there is nothing to mask.
                if (handedOut.isEmpty() && fixed.isEmpty()) {
                    return Map.of();
                }
                Map<String, String> all = new LinkedHashMap<>(fixed);
                all.putAll(handedOut);
                return all;
            }
        };
    }

    /**
     * {@code text} with every value of {@code secrets} replaced by {@code [REDACTED:name]}. A secret
     * that contains another is masked whole, and two values that overlap in the text (the end of one
     * is the start of the other) are masked together, one marker each. A value is also found as JSON
     * writes it inside a string ({@link #forms}), since tool results, notes and streamed tool input
     * are often JSON text.
     */
    static String mask(String text, Map<String, String> secrets) {
        return Masking.mask(text, secrets);
    }

    /**
     * {@link #forms}{@code (value)}, with the escaped spellings worked out once per value: masking
     * asks for them for every string it masks and every streamed fragment.
     */
    static List<String> spellings(String value) {
        return Masking.spellings(value);
    }

    /**
     * The spellings of {@code value} that {@link #mask} replaces: the value itself and, when it has
     * characters JSON escapes or may escape, how it appears inside a JSON string: with quotes,
     * backslashes and control characters escaped; also with every non-ASCII character as a
     * {@code \\u} escape in lower or upper case hex (as {@code ensure_ascii} encoders write it);
     * with {@code /} as {@code \\/} (PHP's encoder, and with its {@code \\u} escapes too); and with
     * {@code <}, {@code >} and {@code &} as {@code \\u003c}, {@code \\u003e}, {@code \\u0026} (Go's
     * HTML-safe encoder). Slashes are common in keys (base64), so the {@code \\/} spelling matters.
     * Longest first.
     */
    static List<String> forms(String value) {
        return Masking.forms(value);
    }
}
