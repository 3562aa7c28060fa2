package dev.rein.run;

/** The arguments of the model's {@code finish} call. */
public record FinishReport(String status, String summary, String result) {}
