/**
 * Rein's core: the controlled agent loop, tools and their executor, budgets, guards, approvals,
 * run state and the trace. Exports the API packages only; {@code dev.rein.internal.*} is the
 * implementation. On the class path the jar works as before (this descriptor is then ignored).
 */
module dev.rein.core {
    requires transitive com.fasterxml.jackson.databind;
    requires com.fasterxml.jackson.datatype.jsr310;
    requires com.fasterxml.jackson.datatype.jdk8;
    requires com.github.victools.jsonschema.generator;
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
