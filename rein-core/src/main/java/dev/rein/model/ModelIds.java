package dev.rein.model;

import dev.rein.ReinException;
import java.util.Collection;
import java.util.regex.Pattern;

/**
 * How a model id is read against a table of model names (prices, what a model refuses): a dated id such as
 * {@code claude-sonnet-4-5-20250929} is the model its base name lists, as the providers' pinned snapshots are. One
 * rule for every such table, so a price and a refusal never disagree on which model a name means.
 */
public final class ModelIds {
    /** What a dated id adds to its base name: "-", a year at least, then digits and hyphens only. */
    private static final Pattern DATE_SUFFIX = Pattern.compile("-\\d{4}[\\d-]*");

    private ModelIds() {}

    /**
     * Whether {@code model} is {@code base} extended by a date ({@code -20261015}, {@code -2024-08-06}, {@code -2026}:
     * "-", at least four digits, then digits and hyphens only). A name extended otherwise is another model
     * ({@code o3-pro} is not {@code o3}), and so is one extended by a shorter number, a version
     * ({@code claude-sonnet-5-5} is not {@code claude-sonnet-5}).
     *
     * @param base a listed model name
     * @param model a model id, as a request names it
     * @return true when {@code model} is {@code base} with a date suffix (not when the two are equal)
     */
    public static boolean dates(String base, String model) {
        given(base, "dates", "base", "the listed model name");
        given(model, "dates", "model", "the model id a request names");
        return model.startsWith(base + "-") && DATE_SUFFIX.matcher(model.substring(base.length())).matches();
    }

    /**
     * Whether {@code model} is one of {@code listed}, or one of them with a date suffix ({@link #dates}).
     *
     * @param listed the listed model names
     * @param model a model id, as a request names it
     * @return true when {@code model} names a listed model
     */
    public static boolean listed(Collection<String> listed, String model) {
        given(listed, "listed", "listed", "the listed model names (List.of() for none)");
        given(model, "listed", "model", "the model id a request names");
        return listed.contains(model) || listed.stream().anyMatch(base -> base != null && dates(base, model));
    }

    /** A public entry point given null says which parameter and what to give, as the rest of the public API does. */
    private static void given(Object value, String method, String parameter, String what) {
        if (value == null) {
            throw new ReinException("ModelIds." + method + " was given null for " + parameter + ": give " + what);
        }
    }
}
