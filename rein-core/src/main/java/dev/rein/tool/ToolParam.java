package dev.rein.tool;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Describes a parameter of a {@link ToolMethod} for the generated schema. */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface ToolParam {
    /** What the parameter means, shown to the model. */
    String value() default "";

    /** The property name; defaults to the parameter name (compile with {@code -parameters}). */
    String name() default "";

    /** Whether the model must supply it. */
    boolean required() default true;
}
