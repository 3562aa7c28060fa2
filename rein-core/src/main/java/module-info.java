/**
 * Rein's core: the controlled agent loop, tools and their executor, budgets, guards, approvals,
 * run state and the trace. Exports the API packages only; {@code dev.rein.internal.*} is the
 * implementation. On the class path the jar works as before (this descriptor is then ignored).
 */
@SuppressWarnings("module") // the modules the shared internals are exported to are built after this one
module dev.rein.core {
    requires transitive com.fasterxml.jackson.databind;
    requires com.fasterxml.jackson.datatype.jsr310;
    requires com.fasterxml.jackson.datatype.jdk8;
    requires com.github.victools.jsonschema.generator;
    requires com.github.victools.jsonschema.module.jackson; // Jackson's names and subtypes in the output schema
    requires com.fasterxml.classmate; // the generator's type model, for the output schema's value types
    requires com.networknt.schema;
    requires org.slf4j;

    exports dev.rein;
    exports dev.rein.agent;
    exports dev.rein.approval;
    exports dev.rein.budget;
    exports dev.rein.context;
    exports dev.rein.guard;
    exports dev.rein.json;
    exports dev.rein.memory;
    exports dev.rein.model;
    exports dev.rein.provider;
    exports dev.rein.replay;
    exports dev.rein.reflection;
    exports dev.rein.retrieval;
    exports dev.rein.retry;
    exports dev.rein.run;
    exports dev.rein.security;
    exports dev.rein.stall;
    exports dev.rein.state;
    exports dev.rein.tool;
    exports dev.rein.tool.builtin;
    exports dev.rein.trace;

    // Shared internals (quoting a server's text, the loop's pure decisions) for Rein's own modules only, by the
    // Automatic-Module-Name each of their jars carries: not API, and closed to everyone else on the module path.
    exports dev.rein.internal.text to dev.rein.anthropic, dev.rein.openai, dev.rein.mcp, dev.rein.otel,
            dev.rein.store.jdbc, dev.rein.temporal, dev.rein.cli, dev.rein.eval, dev.rein.retrieval.lucene, dev.rein.examples;
    exports dev.rein.internal.loop to dev.rein.temporal;
    exports dev.rein.internal.schema to dev.rein.anthropic, dev.rein.openai; // SchemaKeywords: the one table of keywords holding schemas
    opens dev.rein.internal.loop to com.fasterxml.jackson.databind; // rein-temporal carries the loop's state as JSON

    // Jackson reads and writes Rein's records (traces, snapshots, tool schemas) reflectively.
    opens dev.rein.agent to com.fasterxml.jackson.databind;
    opens dev.rein.approval to com.fasterxml.jackson.databind;
    opens dev.rein.budget to com.fasterxml.jackson.databind;
    opens dev.rein.model to com.fasterxml.jackson.databind;
    opens dev.rein.run to com.fasterxml.jackson.databind;
    opens dev.rein.state to com.fasterxml.jackson.databind;
    opens dev.rein.stall to com.fasterxml.jackson.databind;
    opens dev.rein.tool to com.fasterxml.jackson.databind;
    opens dev.rein.tool.builtin to com.fasterxml.jackson.databind, com.github.victools.jsonschema.generator;
    opens dev.rein.trace to com.fasterxml.jackson.databind;

    uses dev.rein.provider.ModelProvider;
}
