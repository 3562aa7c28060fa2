package dev.rein.tool.builtin;

import java.io.Serial;

/**
 * Thrown by {@link Calculator} when an expression cannot be evaluated: it is malformed, it breaks
 * one of the {@link Calculator.Limits}, or its arithmetic is undefined (division by zero). The
 * message is meant to be shown as is to the user or the model: it says what was wrong and, where
 * useful, where in the expression (positions count from 1) and what to do instead.
 */
public class CalculationException extends Exception {
    @Serial
    private static final long serialVersionUID = 1L;

    public CalculationException(String message) {
        super(message);
    }
}
