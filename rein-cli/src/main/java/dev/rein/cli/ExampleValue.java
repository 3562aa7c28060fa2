package dev.rein.cli;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * An example value of a command's parameter or option, as it would be typed: a command line given without it says what to
 * give with this example ({@link Errors#parameterHandler}) rather than picocli's bare "Missing required parameter".
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
@interface ExampleValue {
    /** The value as typed at a shell prompt, quoted where the shell needs it. */
    String value();
}
