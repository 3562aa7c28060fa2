package dev.rein.tool;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a method as a tool. {@link AnnotatedTools#from(Object)} turns each marked method into a
 * {@link Tool} whose input schema is generated from the parameter types.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface ToolMethod {
    /** The tool name; defaults to the method name. */
    String name() default "";

    /** What the tool does, when to use it and what it returns. */
    String description();

    Risk risk() default Risk.READ;

    /** Timeout in seconds; 0 uses the executor default. */
    long timeoutSeconds() default 0;

    /** Required scopes (see {@link Principal}). */
    String[] scopes() default {};

    /** True for status-polling tools whose identical repeated calls are expected. */
    boolean polling() default false;

    /**
     * True if the method ends promptly when its thread is interrupted, so it runs on the caller's
     * thread instead of a thread of its own per call; see {@link Tool#abortsOnInterrupt()}.
     */
    boolean abortsOnInterrupt() default false;
}
