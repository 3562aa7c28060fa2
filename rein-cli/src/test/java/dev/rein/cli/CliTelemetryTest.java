package dev.rein.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.json.Json;
import dev.rein.testkit.ScriptedModel;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.trace.v1.Span;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When the CLI turns OpenTelemetry on, and how it reports a bad configuration. */
class CliTelemetryTest {
    @TempDir
    Path dir;

    private static CliEnvironment cli(Map<String, String> env) {
        java.io.PrintStream sink = new java.io.PrintStream(java.io.OutputStream.nullOutputStream());
        return new CliEnvironment(sink, sink, env, Terminal.NONE, (name, e) -> {
            throw new AssertionError("no model");
        }, false);
    }

    @Test
    void offUnlessAnExporterIsAskedFor() {
        assertThat(OtelVariables.configured(Map.of())).isFalse();
        assertThat(OtelVariables.configured(Map.of("OTEL_SERVICE_NAME", "svc"))).isFalse();
        assertThat(OtelVariables.configured(Map.of("OTEL_TRACES_EXPORTER", "none"))).isFalse();
        assertThat(OtelVariables.configured(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "  "))).isFalse();
        assertThat(OtelVariables.configured(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318"))).isTrue();
        assertThat(OtelVariables.configured(Map.of("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://c:4318/v1/traces"))).isTrue();
        assertThat(OtelVariables.configured(Map.of("OTEL_TRACES_EXPORTER", "console"))).isTrue();
        assertThat(OtelVariables.configured(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318",
                "OTEL_SDK_DISABLED", "true"))).isFalse();
    }

    @Test
    void aBadConfigurationIsAUsageErrorInOneLine() {
        CliHome home = CliHome.of(Map.of("REIN_HOME", dir.toString()));
        assertThatThrownBy(() -> CliTelemetry.from(cli(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "carrier-pigeon:4318")), home))
                .isInstanceOf(UsageException.class)
                .hasMessageStartingWith("OpenTelemetry is not configured correctly: ")
                .hasMessageContaining("carrier-pigeon")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        assertThatThrownBy(() -> CliTelemetry.from(cli(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4317",
                "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "grpc")), home))
                .isInstanceOf(UsageException.class).hasMessageContaining("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=grpc is not supported");
        // the optional JSON encoding is refused saying which one to use, not with the SDK's "Unsupported OTLP ... protocol"
        assertThatThrownBy(() -> CliTelemetry.from(cli(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318",
                "OTEL_EXPORTER_OTLP_PROTOCOL", "http/json")), home))
                .isInstanceOf(UsageException.class)
                .hasMessage("OTEL_EXPORTER_OTLP_PROTOCOL=http/json is not supported: rein sends OTLP/HTTP in its protobuf"
                        + " encoding, which collectors take on the same port; set OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf");
    }

    /**
     * The SDK is built before the spans' provider is looked up; a lookup that refused the command (REIN_PROVIDER naming no
     * provider) left that SDK open: its exporter threads running and its log handler installed for the rest of the JVM.
     * Every refusal after the SDK is built closes it.
     */
    @Test
    void aRefusalAfterTheSdkIsBuiltClosesIt() throws InterruptedException {
        CliHome home = CliHome.of(Map.of("REIN_HOME", dir.toString()));
        java.util.Set<Thread> before = Thread.getAllStackTraces().keySet();
        assertThatThrownBy(() -> CliTelemetry.from(cli(Map.of("OTEL_TRACES_EXPORTER", "console", "OTEL_METRICS_EXPORTER", "none",
                "REIN_PROVIDER", "nosuch")), home))
                .isInstanceOf(UsageException.class).hasMessageContaining("nosuch");
        assertThat(java.util.logging.Logger.getLogger("io.opentelemetry").getHandlers()).noneMatch(h -> h instanceof ExportLog);
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (!before.contains(thread) && thread.getName().startsWith("BatchSpanProcessor")) {
                thread.join(Duration.ofSeconds(10)); // a shut-down processor's worker ends; a leaked one waits for spans for ever
                assertThat(thread.isAlive()).as(thread.getName()).isFalse();
            }
        }
    }

    /**
     * An endpoint with no host (http://, say from an unset variable in http://${COLLECTOR}) was refused in
     * the SDK's words about another URL ("Invalid endpoint, must start with http:// or https://:
     * http:/v1/metrics"), and one with a port no TCP connection can have (99999, 0) was taken, every export
     * then failing; both are refused before the run, naming the variable and what to give.
     */
    @Test
    void anEndpointWithoutAHostOrWithAPortOutOfRangeIsRefusedSayingSo() {
        CliHome home = CliHome.of(Map.of("REIN_HOME", dir.toString()));
        assertThatThrownBy(() -> CliTelemetry.from(cli(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://")), home))
                .isInstanceOf(UsageException.class)
                .hasMessageStartingWith("OpenTelemetry is not configured correctly: OTEL_EXPORTER_OTLP_ENDPOINT=http:// has no host")
                .hasMessageNotContaining("must start with");
        assertThatThrownBy(() -> CliTelemetry.from(cli(Map.of("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "https:///v1/traces")), home))
                .isInstanceOf(UsageException.class).hasMessageContaining("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=https:///v1/traces has no host");
        for (String port : List.of("99999", "0", "65536")) {
            assertThatThrownBy(() -> CliTelemetry.from(cli(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://localhost:" + port)), home))
                    .isInstanceOf(UsageException.class)
                    .hasMessageContaining("OTEL_EXPORTER_OTLP_ENDPOINT=http://localhost:" + port + " has the port " + port)
                    .hasMessageContaining("1 to 65535");
        }
        try (CliTelemetry ok = CliTelemetry.from(cli(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://localhost:65535")), home)) {
            assertThat(ok).isNotNull();
        }
    }

    /**
     * java.net.URL takes a host with an underscore (a Docker Compose service named otel_collector) and the port -1 (read
     * as no port), but the JDK's HTTP client, which sends the exports, parses the URL as a URI and refuses both: every
     * export failed with "unsupported URI http://otel_collector:4318/v1/traces". Both are refused before the run.
     */
    @Test
    void anEndpointTheHttpClientCannotUseIsRefusedBeforeTheRun() {
        CliHome home = CliHome.of(Map.of("REIN_HOME", dir.toString()));
        assertThatThrownBy(() -> CliTelemetry.from(cli(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://otel_collector:4318")), home))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("OTEL_EXPORTER_OTLP_ENDPOINT=http://otel_collector:4318 has the host 'otel_collector'")
                .hasMessageContaining("'_'");
        assertThatThrownBy(() -> CliTelemetry.from(cli(Map.of("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
                "http://localhost:-1/v1/traces")), home))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=http://localhost:-1/v1/traces has the port -1")
                .hasMessageContaining("1 to 65535");
        try (CliTelemetry ok = CliTelemetry.from(cli(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://otel-collector.local:4318")),
                home)) {
            assertThat(ok).isNotNull();
        }
    }

    /**
     * SDK environment variables spec, Enum: "Enum values SHOULD be interpreted in a case-insensitive
     * manner". The SDK compares them exactly, so OTEL_TRACES_SAMPLER=ALWAYS_ON or
     * OTEL_EXPORTER_OTLP_PROTOCOL=HTTP/PROTOBUF refused the run ("Unrecognized value for
     * OTEL_TRACES_SAMPLER: ALWAYS_ON"), though rein itself already read OTEL_TRACES_EXPORTER=OTLP as otlp.
     */
    @Test
    void enumValuesAreReadWhateverTheirCase() {
        CliHome home = CliHome.of(Map.of("REIN_HOME", dir.toString()));
        for (Map<String, String> env : List.of(
                Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318", "OTEL_TRACES_SAMPLER", "ParentBased_TraceIdRatio",
                        "OTEL_TRACES_SAMPLER_ARG", "0.5"),
                Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318", "OTEL_EXPORTER_OTLP_PROTOCOL", "HTTP/PROTOBUF",
                        "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "Http/Protobuf"),
                Map.of("OTEL_TRACES_EXPORTER", "OTLP", "OTEL_METRICS_EXPORTER", "None"),
                Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318", "OTEL_PROPAGATORS", "TraceContext,Baggage"),
                Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318", "OTEL_EXPORTER_OTLP_COMPRESSION", "GZIP"))) {
            assertThatCode(() -> CliTelemetry.from(cli(env), home).close()).as(env.toString()).doesNotThrowAnyException();
        }
    }

    @Test
    void aBadValueIsNamedByTheVariableTheUserSetAndHeadersAreNotEchoed() {
        // The user sets OTEL_EXPORTER_OTLP_HEADERS (exporter spec: key1=value1,key2=value2), not the SDK's property name.
        CliHome home = CliHome.of(Map.of("REIN_HOME", dir.toString()));
        assertThatThrownBy(() -> CliTelemetry.from(cli(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://otel.example.com:4318",
                "OTEL_EXPORTER_OTLP_HEADERS", "api-key=secret-123,garbage")), home))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("OTEL_EXPORTER_OTLP_HEADERS")
                .hasMessageNotContaining("otel.exporter.otlp.headers")
                .hasMessageNotContaining("secret-123");
        Map<String, String> env = Map.of("OTEL_EXPORTER_OTLP_HEADERS", "x", "OTEL_EXPORTER_OTLP_ENDPOINT", "http://otel.exporter.otlp.headers.example");
        assertThat(OtelVariables.byVariable("Invalid map property: otel.exporter.otlp.headers.", env))
                .isEqualTo("Invalid map property: OTEL_EXPORTER_OTLP_HEADERS.");
        assertThat(OtelVariables.byVariable("Bad endpoint http://otel.exporter.otlp.headers.example", env))
                .isEqualTo("Bad endpoint http://otel.exporter.otlp.headers.example");
    }

    /**
     * A header the JDK's HTTP client cannot send (a value decoded to Japanese or holding a line
     * break, a name with a space, a header the client sets itself) made every export fail during
     * the run, each signal's failure a line quoting the value ("invalid header value: "Bearer
     * sk-..."") while the run went on exporting nothing: it is refused before the run, naming the
     * variable and the header but not its value.
     */
    @Test
    void aHeaderHttpCannotCarryIsRefusedBeforeTheRunNamingItButNotItsValue() {
        CliHome home = CliHome.of(Map.of("REIN_HOME", dir.toString()));
        assertThatThrownBy(() -> CliTelemetry.from(cli(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318",
                "OTEL_EXPORTER_OTLP_HEADERS", "x-team=%E6%97%A5%E6%9C%AC")), home))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("OTEL_EXPORTER_OTLP_HEADERS")
                .hasMessageContaining("'x-team'")
                .hasMessageContaining("U+65E5")
                .hasMessageNotContaining("日本");
        assertThatThrownBy(() -> CliTelemetry.from(cli(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318",
                "OTEL_EXPORTER_OTLP_TRACES_HEADERS", "authorization=Bearer sk-live-123%0A")), home))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("OTEL_EXPORTER_OTLP_TRACES_HEADERS")
                .hasMessageContaining("'authorization'")
                .hasMessageContaining("line break")
                .hasMessageNotContaining("sk-live-123");
        assertThatThrownBy(() -> CliTelemetry.from(cli(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318",
                "OTEL_EXPORTER_OTLP_HEADERS", "x api key=abc")), home))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("OTEL_EXPORTER_OTLP_HEADERS")
                .hasMessageContaining("'x api key' is not a valid HTTP header name")
                .hasMessageNotContaining("abc");
        assertThatThrownBy(() -> CliTelemetry.from(cli(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318",
                "OTEL_EXPORTER_OTLP_METRICS_HEADERS", "Host=collector.example")), home))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("OTEL_EXPORTER_OTLP_METRICS_HEADERS")
                .hasMessageContaining("'Host'")
                .hasMessageContaining("sets itself");
        // what HTTP carries still goes: a value with spaces, Latin-1 text, a percent-encoded plus
        assertThatCode(() -> CliTelemetry.from(cli(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318",
                "OTEL_EXPORTER_OTLP_HEADERS", "authorization=Basic%20YWJj,x-b=caf%C3%A9,x-c=a+b%2Bc")), home).close())
                .doesNotThrowAnyException();
    }

    /**
     * An OTLP endpoint or header list is read only for a signal exported over OTLP (the SDK builds no
     * exporter for the others), but rein checked every one it found: an OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
     * without a scheme refused the run with exit code 2 though OTEL_TRACES_EXPORTER=none, as did a logs
     * endpoint (rein exports no logs), a general endpoint no exported signal uses, and anything with
     * OTEL_SDK_DISABLED=true. Each is left alone now; the signals that are exported still get theirs checked.
     */
    @Test
    void theEndpointAndHeadersOfASignalNotExportedOverOtlpAreNotCheckedAndDoNotStopTheRun() throws Exception {
        CliHome home = CliHome.of(Map.of("REIN_HOME", dir.toString()));
        try (OtlpReceiver otlp = OtlpReceiver.start()) {
            InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint())
                    .env("OTEL_TRACES_EXPORTER", "none").env("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "localhost:4318")
                    .env("OTEL_EXPORTER_OTLP_TRACES_HEADERS", "Host=collector.example")
                    .env("OTEL_EXPORTER_OTLP_LOGS_ENDPOINT", "ftp://collector/v1/logs");
            cli.models((name, env) -> ScriptedModel.of(ScriptedModel.text("hi")));
            InProcessCli.Outcome outcome = cli.run("run", "--json", "say hi");
            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
            otlp.awaitUntil(() -> !otlp.metrics().isEmpty(), Duration.ofSeconds(10));
            assertThat(otlp.metrics()).as("the metrics still go to the general endpoint").isNotEmpty();
        }
        for (Map<String, String> env : List.of(
                Map.of("OTEL_TRACES_EXPORTER", "console", "OTEL_METRICS_EXPORTER", "none",
                        "OTEL_EXPORTER_OTLP_ENDPOINT", "http://user:secret@collector:4318"),
                Map.of("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://127.0.0.1:4318/v1/traces",
                        "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "http://127.0.0.1:4318/v1/metrics",
                        "OTEL_EXPORTER_OTLP_ENDPOINT", "collector:4318"),
                Map.of("OTEL_SDK_DISABLED", "true", "OTEL_EXPORTER_OTLP_ENDPOINT", "collector:4318"))) {
            assertThatCode(() -> CliTelemetry.from(cli(env), home).close()).as(env.toString()).doesNotThrowAnyException();
        }
        assertThatThrownBy(() -> CliTelemetry.from(cli(Map.of("OTEL_TRACES_EXPORTER", "none",
                "OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "localhost:4318")), home))
                .as("the metrics are exported: their endpoint is checked").isInstanceOf(UsageException.class)
                .hasMessageContaining("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT=localhost:4318");
        assertThatThrownBy(() -> CliTelemetry.from(cli(Map.of("OTEL_TRACES_EXPORTER", "none",
                "OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318", "OTEL_EXPORTER_OTLP_HEADERS", "Host=x")), home))
                .as("the metrics use the general headers").isInstanceOf(UsageException.class)
                .hasMessageContaining("OTEL_EXPORTER_OTLP_HEADERS");
    }

    /**
     * Header values are percent-encoded (W3C Baggage values), so a % in a password or key must be
     * written %25: a bare one was refused with the SDK's "Cannot decode header value for header:
     * authorization", naming neither the variable nor what to write.
     */
    @Test
    void aPercentSignThatIsNotAnEscapeIsRefusedSayingToWriteItAsPercent25() {
        CliHome home = CliHome.of(Map.of("REIN_HOME", dir.toString()));
        assertThatThrownBy(() -> CliTelemetry.from(cli(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318",
                "OTEL_EXPORTER_OTLP_HEADERS", "x-a=b,authorization=Basic pa%ss-99%")), home))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("OTEL_EXPORTER_OTLP_HEADERS")
                .hasMessageContaining("'authorization'")
                .hasMessageContaining("%25")
                .hasMessageNotContaining("pa%ss");
    }

    /**
     * An endpoint with credentials in it (http://user:password@collector:4318) was taken, the JDK's
     * HTTP client dropped them, and every export was refused as unauthorized; a malformed one was
     * refused quoting the URL, password and all. The OTLP endpoint is a scheme, host, port and path:
     * it is refused before the run saying to send the credentials as a header, without the password.
     */
    @Test
    void anEndpointWithCredentialsInItIsRefusedSayingToSendThemAsAHeaderWithoutRepeatingThem() {
        CliHome home = CliHome.of(Map.of("REIN_HOME", dir.toString()));
        for (String endpoint : List.of("http://user:s3cret-pw@127.0.0.1:4318", "https://user:s3cret-pw@bad host:4318/otlp")) {
            assertThatThrownBy(() -> CliTelemetry.from(cli(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint)), home))
                    .isInstanceOf(UsageException.class)
                    .hasMessageContaining("OTEL_EXPORTER_OTLP_ENDPOINT")
                    .hasMessageContaining("OTEL_EXPORTER_OTLP_HEADERS=Authorization=Basic%20")
                    .hasMessageNotContaining("s3cret-pw");
        }
        assertThatThrownBy(() -> CliTelemetry.from(cli(Map.of("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
                "http://token@127.0.0.1:4318/v1/traces")), home))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
                .hasMessageNotContaining("token@");
    }

    /**
     * OTEL_RESOURCE_ATTRIBUTES' values are percent-decoded, and the resource SDK spec says a value
     * that fails to decode SHOULD make the variable discarded and an error reported. The SDK kept
     * such a value undecoded without a word (rollout=50% became "50%", team=a%2 "a%2"), so the
     * other values' decoding and this one's silently disagreed. The variable is discarded, as the
     * spec says, in one line naming the attribute and saying to write a % itself as %25.
     */
    @Test
    void aResourceAttributeThatIsNotValidPercentEncodingDiscardsTheVariableSayingToWritePercent25() throws Exception {
        try (OtlpReceiver otlp = OtlpReceiver.start()) {
            InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint())
                    .env("OTEL_RESOURCE_ATTRIBUTES", "service.name=checkout,team=ai%2Cml,rollout=50%");
            cli.models((name, env) -> ScriptedModel.of(ScriptedModel.text("hi")));
            InProcessCli.Outcome outcome = cli.run("run", "--json", "say hi");
            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
            assertThat(outcome.stderrLines()).filteredOn(line -> line.startsWith("rein: OpenTelemetry: ")).singleElement()
                    .satisfies(line -> assertThat(line).contains("OTEL_RESOURCE_ATTRIBUTES").contains("'rollout'")
                            .contains("%25").contains("discarded"));
            otlp.awaitUntil(() -> !otlp.spanResources().isEmpty(), Duration.ofSeconds(10));
            assertThat(otlp.spanResources()).allSatisfy(resource -> {
                assertThat(OtlpReceiver.attribute(resource.getAttributesList(), "service.name").map(AnyValue::getStringValue))
                        .as("the whole variable is discarded, its service.name too").contains("rein");
                assertThat(OtlpReceiver.attribute(resource.getAttributesList(), "team")).isEmpty();
                assertThat(OtlpReceiver.attribute(resource.getAttributesList(), "rollout")).isEmpty();
            });
        }
        CliHome home = CliHome.of(Map.of("REIN_HOME", dir.toString()));
        assertThatCode(() -> CliTelemetry.from(cli(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318",
                "OTEL_RESOURCE_ATTRIBUTES", "team=ai%2Cml,rollout=50%25,lang=c++")), home).close())
                .doesNotThrowAnyException();
    }

    /**
     * The resource SDK spec: "In case of any error, e.g. failure during the decoding process, the entire
     * environment variable value SHOULD be discarded and an error SHOULD be reported". An entry of
     * OTEL_RESOURCE_ATTRIBUTES that is not key=value (team=ai,staging, a comma not written as %2C; or
     * an empty key) stopped the run with exit code 2 ("Invalid map property: OTEL_RESOURCE_ATTRIBUTES").
     * The variable is discarded in one line naming the entry, as for a value that does not decode, and
     * the run goes on and is exported.
     */
    @Test
    void aResourceAttributeEntryThatIsNotKeyEqualsValueDiscardsTheVariableAndTheRunGoesOn() throws Exception {
        for (String value : List.of("service.name=checkout,team=ai,staging", "service.name=checkout,=orphan")) {
            try (OtlpReceiver otlp = OtlpReceiver.start()) {
                InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint())
                        .env("OTEL_RESOURCE_ATTRIBUTES", value);
                cli.models((name, env) -> ScriptedModel.of(ScriptedModel.text("hi")));
                InProcessCli.Outcome outcome = cli.run("run", "--json", "say hi");
                assertThat(outcome.exitCode()).as(value + ": " + outcome.stderr()).isZero();
                String entry = value.substring(value.lastIndexOf(',') + 1);
                assertThat(outcome.stderrLines()).as(value).filteredOn(line -> line.startsWith("rein: OpenTelemetry: ")).singleElement()
                        .satisfies(line -> assertThat(line).contains("OTEL_RESOURCE_ATTRIBUTES").contains("'" + entry + "'")
                                .contains("key=value").contains("discarded").contains("%2C"));
                otlp.awaitUntil(() -> !otlp.spanResources().isEmpty(), Duration.ofSeconds(10));
                assertThat(otlp.spanResources()).as(value).allSatisfy(resource -> {
                    assertThat(OtlpReceiver.attribute(resource.getAttributesList(), "service.name").map(AnyValue::getStringValue))
                            .as("the whole variable is discarded, its service.name too").contains("rein");
                    assertThat(OtlpReceiver.attribute(resource.getAttributesList(), "team")).isEmpty();
                });
            }
        }
    }

    @Test
    void aValueTheSdkRefusesIsNamedByWhatWasWrongNotAsAnUnexpectedError() {
        // The SDK wraps a builder's refusal of a value (an IllegalArgumentException) as "Unexpected
        // configuration error"; the one line says what the SDK found wrong, so the user knows what to fix.
        // (Numbers out of range and an unknown compression are said and ignored instead, as the spec asks.)
        assertThat(OtelVariables.problem(new io.opentelemetry.sdk.autoconfigure.spi.ConfigurationException(
                "Unexpected configuration error", new IllegalArgumentException("maxQueueSize must be positive."))))
                .isEqualTo("a value was refused: maxQueueSize must be positive");
        assertThat(OtelVariables.problem(new io.opentelemetry.sdk.autoconfigure.spi.ConfigurationException(
                "Unrecognized value for otel.traces.exporter: carrier-pigeon")))
                .isEqualTo("Unrecognized value for otel.traces.exporter: carrier-pigeon");
    }

    /**
     * SDK environment variables spec, Enum: "if the user provides a value the implementation does not
     * recognize, the implementation MUST generate a warning and gracefully ignore the setting".
     * OTEL_EXPORTER_OTLP_COMPRESSION=zstd refused the run with exit code 2 in the SDK's words
     * ("Unsupported compressionMethod. Compression method must be "none" or one of: [gzip]"), which
     * named no variable. It is said in one line naming it and ignored: the data goes uncompressed
     * (or, for a signal's own, compressed as OTEL_EXPORTER_OTLP_COMPRESSION says).
     */
    @Test
    void anUnknownCompressionIsSaidOnceAndIgnored() throws Exception {
        for (String variable : List.of("OTEL_EXPORTER_OTLP_COMPRESSION", "OTEL_EXPORTER_OTLP_TRACES_COMPRESSION")) {
            try (OtlpReceiver otlp = OtlpReceiver.start()) {
                InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint()).env(variable, "zstd");
                cli.models((name, env) -> ScriptedModel.of(ScriptedModel.text("hi")));
                InProcessCli.Outcome outcome = cli.run("run", "--json", "say hi");
                assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
                otlp.awaitUntil(() -> !otlp.spans().isEmpty() && !otlp.metrics().isEmpty(), Duration.ofSeconds(10));
                assertThat(otlp.spans()).as(outcome.stderr()).extracting(Span::getName).contains("invoke_agent rein");
                assertThat(otlp.contentEncodings()).as("sent uncompressed").containsOnly("");
                assertThat(outcome.stderrLines()).filteredOn(line -> line.startsWith("rein: OpenTelemetry: ")).singleElement()
                        .satisfies(line -> assertThat(line).contains(variable + "=zstd").contains("ignored").contains("gzip"));
            }
        }
    }

    /**
     * The SDK's autoconfiguration refuses some values in words that quote the value but not the
     * variable ("OTLP endpoint must be a valid URL: localhost:4318", "Invalid OTLP certificate/key
     * path: /etc/otel/ca.pem"), so with the general and the signal's own endpoint both set the user
     * could not tell which one to fix. The line names the variable, and an endpoint without its
     * scheme (the usual slip) is told to give one.
     */
    @Test
    void aValueTheSdkRefusesIsNamedByItsVariable() {
        CliHome home = CliHome.of(Map.of("REIN_HOME", dir.toString()));
        assertThatThrownBy(() -> CliTelemetry.from(cli(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "localhost:4318")), home))
                .isInstanceOf(UsageException.class)
                .hasMessageStartingWith("OpenTelemetry is not configured correctly: OTEL_EXPORTER_OTLP_ENDPOINT=localhost:4318 ")
                .hasMessageContaining("http://localhost:4318")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        assertThatThrownBy(() -> CliTelemetry.from(cli(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318",
                "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "ftp://127.0.0.1:4318/v1/traces")), home))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=ftp://127.0.0.1:4318/v1/traces").hasMessageContaining("http or https");
        assertThatThrownBy(() -> CliTelemetry.from(cli(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "https://127.0.0.1:4318",
                "OTEL_EXPORTER_OTLP_CERTIFICATE", dir.resolve("no-such-ca.pem").toString())), home))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("OTEL_EXPORTER_OTLP_CERTIFICATE");
    }

    /**
     * SDK environment variables spec, Enum: a value the implementation does not recognize "MUST"
     * be warned of and gracefully ignored. An exporter, sampler or propagator the rein command line
     * does not have (zipkin, prometheus, a misspelled one; a sampler from an extension; b3, xray)
     * stopped the CLI with exit code 2. Each is said in one line naming the variable and what the
     * CLI takes, and ignored: a list keeps its other entries, a value with none left is as if unset
     * (the default: otlp, parentbased_always_on, tracecontext,baggage), and the run is exported.
     */
    @Test
    void anExporterSamplerOrPropagatorTheCliDoesNotHaveIsSaidOnceAndIgnored() throws Exception {
        record Case(String variable, String value, String says) {}
        for (Case c : List.of(new Case("OTEL_TRACES_EXPORTER", "zipkin", "otlp, console or none"),
                new Case("OTEL_TRACES_EXPORTER", "otlp,carrier-pigeon", "otlp, console or none"),
                new Case("OTEL_METRICS_EXPORTER", "prometheus", "otlp, console or none"),
                new Case("OTEL_TRACES_SAMPLER", "sometimes", "parentbased_always_on"),
                new Case("OTEL_PROPAGATORS", "tracecontext,b3", "tracecontext, baggage or none"),
                new Case("OTEL_PROPAGATORS", "xray", "tracecontext, baggage or none"))) {
            try (OtlpReceiver otlp = OtlpReceiver.start()) {
                InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint()).env(c.variable(), c.value());
                List<Map<String, String>> sent = new java.util.concurrent.CopyOnWriteArrayList<>();
                cli.models((name, env) -> {
                    ScriptedModel script = ScriptedModel.of(ScriptedModel.text("hi"));
                    return (request, context) -> {
                        sent.add(request.option(dev.rein.model.TraceContextHeaders.class)
                                .map(dev.rein.model.TraceContextHeaders::headers).orElse(Map.of()));
                        return script.call(request, context);
                    };
                });
                InProcessCli.Outcome outcome = cli.run("run", "--json", "say hi");
                assertThat(outcome.exitCode()).as(c + ": " + outcome.stderr()).isZero();
                otlp.awaitUntil(() -> !otlp.spans().isEmpty() && !otlp.metrics().isEmpty(), Duration.ofSeconds(10));
                assertThat(otlp.spans()).as(c.toString()).extracting(Span::getName).contains("invoke_agent rein");
                assertThat(otlp.metrics()).as(c.toString()).isNotEmpty();
                assertThat(sent).as(c.toString()).singleElement()
                        .satisfies(headers -> assertThat(headers).as(c.toString()).containsKey("traceparent"));
                assertThat(outcome.stderrLines()).as(c.toString()).filteredOn(line -> line.startsWith("rein: OpenTelemetry: "))
                        .singleElement().satisfies(line -> assertThat(line).contains(c.variable())
                                .contains(c.value().contains(",") ? c.value().substring(c.value().indexOf(',') + 1) : c.value())
                                .contains("ignored").contains(c.says()).doesNotContain("classpath"));
            }
        }
        // Nothing else asks for an export: ignored, as if unset, telemetry stays off and the line says so.
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        java.io.PrintStream errStream = new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8);
        CliEnvironment alone = new CliEnvironment(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()), errStream,
                Map.of("OTEL_TRACES_EXPORTER", "zipkin"), Terminal.NONE, (name, e) -> {
                    throw new AssertionError("no model");
                }, false);
        try (CliTelemetry off = CliTelemetry.from(alone, CliHome.of(Map.of("REIN_HOME", dir.toString())))) {
            dev.rein.agent.Agent.Builder builder = dev.rein.agent.Agent.builder();
            assertThat(off.install(builder)).isSameAs(builder);
        }
        assertThat(err.toString(java.nio.charset.StandardCharsets.UTF_8).lines().toList()).singleElement()
                .satisfies(line -> assertThat(line).contains("OTEL_TRACES_EXPORTER=zipkin").contains("ignored")
                        .contains("nothing is exported"));
    }

    /**
     * An exporter named twice (OTEL_TRACES_EXPORTER=otlp,otlp, or otlp,OTLP, which enum values read
     * in any case make the same) stopped the run with exit code 2 in the SDK's words ("contains
     * duplicates: [otlp]"), though what is meant is plain: the exporter is used once, so each span
     * reaches the collector once, and the repetition is said in one line.
     */
    @Test
    void anExporterNamedTwiceIsTakenOnceAndSaidSo() throws Exception {
        for (String value : List.of("otlp,otlp", "otlp,OTLP")) {
            try (OtlpReceiver otlp = OtlpReceiver.start()) {
                InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint())
                        .env("OTEL_TRACES_EXPORTER", value);
                cli.models((name, env) -> ScriptedModel.of(ScriptedModel.text("hi")));
                InProcessCli.Outcome outcome = cli.run("run", "--json", "say hi");
                assertThat(outcome.exitCode()).as(value + ": " + outcome.stderr()).isZero();
                otlp.awaitUntil(() -> !otlp.spans().isEmpty() && !otlp.metrics().isEmpty(), Duration.ofSeconds(10));
                Thread.sleep(300); // a second exporter would deliver its copy by now
                assertThat(otlp.spans()).as(value).extracting(Span::getName).containsOnlyOnce("invoke_agent rein");
                assertThat(outcome.stderrLines()).as(value).filteredOn(line -> line.startsWith("rein: OpenTelemetry: "))
                        .singleElement().satisfies(line -> assertThat(line).contains("OTEL_TRACES_EXPORTER=" + value)
                                .contains("otlp more than once").contains("used once"));
            }
        }
    }

    /**
     * "none" in a list with other exporters or propagators (OTEL_TRACES_EXPORTER=none,otlp, say from a
     * default joined with an override) stopped the run with exit code 2 in the SDK's words
     * ("otel.traces.exporter contains none along with other exporters"). The spec gives none as the
     * null value, "no automatically configured exporter": it adds none, so the others are used, and
     * one line says so.
     */
    @Test
    void noneAlongWithOtherExportersAddsNoneAndTheOthersAreUsed() throws Exception {
        record Case(String variable, String value, String kept) {}
        for (Case c : List.of(new Case("OTEL_TRACES_EXPORTER", "none,otlp", "otlp"),
                new Case("OTEL_METRICS_EXPORTER", "otlp,NONE", "otlp"),
                new Case("OTEL_PROPAGATORS", "none,tracecontext", "tracecontext"))) {
            try (OtlpReceiver otlp = OtlpReceiver.start()) {
                InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint()).env(c.variable(), c.value());
                List<Map<String, String>> sent = new java.util.concurrent.CopyOnWriteArrayList<>();
                cli.models((name, env) -> {
                    ScriptedModel script = ScriptedModel.of(ScriptedModel.text("hi"));
                    return (request, context) -> {
                        sent.add(request.option(dev.rein.model.TraceContextHeaders.class)
                                .map(dev.rein.model.TraceContextHeaders::headers).orElse(Map.of()));
                        return script.call(request, context);
                    };
                });
                InProcessCli.Outcome outcome = cli.run("run", "--json", "say hi");
                assertThat(outcome.exitCode()).as(c + ": " + outcome.stderr()).isZero();
                otlp.awaitUntil(() -> !otlp.spans().isEmpty() && !otlp.metrics().isEmpty(), Duration.ofSeconds(10));
                assertThat(otlp.spans()).as(c.toString()).extracting(Span::getName).containsOnlyOnce("invoke_agent rein");
                assertThat(otlp.metrics()).as(c.toString()).isNotEmpty();
                assertThat(sent).as(c.toString()).singleElement()
                        .satisfies(headers -> assertThat(headers).as(c.toString()).containsKey("traceparent"));
                assertThat(outcome.stderrLines()).as(c.toString()).filteredOn(line -> line.startsWith("rein: OpenTelemetry: "))
                        .singleElement().satisfies(line -> assertThat(line).contains(c.variable() + "=" + c.value())
                                .contains("none").contains("(" + c.kept() + ")").doesNotContain("otel."));
            }
        }
    }

    /**
     * "logging" is the old name of the console exporter (SDK environment variables spec: "logging" is
     * Standard Output, "a deprecated value left for backwards compatibility"), so
     * OTEL_TRACES_EXPORTER=console,logging named one exporter twice, and each span was printed twice
     * on stderr. It is the same exporter named twice: used once, and said so.
     */
    @Test
    void consoleAndLoggingAreOneExporterUsedOnce() {
        InProcessCli cli = new InProcessCli().env("OTEL_TRACES_EXPORTER", "console,logging").env("OTEL_METRICS_EXPORTER", "none");
        cli.models((name, env) -> ScriptedModel.of(ScriptedModel.text("hi")));
        InProcessCli.Outcome outcome = cli.run("run", "--json", "say hi");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
        assertThat(outcome.stderrLines()).filteredOn(line -> line.contains("'invoke_agent rein'")).hasSize(1);
        assertThat(outcome.stderrLines()).filteredOn(line -> line.startsWith("rein: OpenTelemetry: "))
                .singleElement().satisfies(line -> assertThat(line).contains("OTEL_TRACES_EXPORTER=console,logging")
                        .contains("logging").contains("console").contains("used once"));
    }

    /**
     * Under OTEL_SDK_DISABLED=true nothing is exported, whatever the exporters: the line that ignores
     * an exporter the command line does not have said "(the default, otlp: the spans go over OTLP)",
     * which is not what happens. It now says the SDK is disabled and nothing is exported.
     */
    @Test
    void anUnknownExporterUnderADisabledSdkIsNotSaidToFallBackToOtlp() {
        for (Map<String, String> env : List.of(Map.of("OTEL_SDK_DISABLED", "true", "OTEL_TRACES_EXPORTER", "zipkin"),
                Map.of("OTEL_SDK_DISABLED", "TRUE", "OTEL_METRICS_EXPORTER", "prometheus",
                        "OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318"))) {
            java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
            OtelVariables.knownValues(env, new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
            assertThat(err.toString(java.nio.charset.StandardCharsets.UTF_8).lines().toList()).as(env.toString()).singleElement()
                    .satisfies(line -> assertThat(line).contains("ignored").doesNotContain("go over OTLP")
                            .contains("OTEL_SDK_DISABLED=true").contains("nothing is exported"));
        }
    }

    /**
     * Under OTEL_SDK_DISABLED=true nothing is exported, so a value said and ignored is not replaced by a
     * default that will be used: the lines said "(the default, 10000)", "(no compression)", "(every trace
     * is sampled)", "so nothing is sent twice", as if the export went on. Each now says that nothing is
     * exported in any case.
     */
    @Test
    void underADisabledSdkNoLineSaysAnExportFallsBackToADefault() throws Exception {
        Map<String, String> env = new java.util.HashMap<>(Map.of("OTEL_SDK_DISABLED", "true", "OTEL_TRACES_EXPORTER", "otlp,otlp",
                "OTEL_METRICS_EXPORTER", "none,otlp", "OTEL_EXPORTER_OTLP_TIMEOUT", "-5", "OTEL_EXPORTER_OTLP_COMPRESSION", "zstd",
                "OTEL_TRACES_SAMPLER", "traceidratio", "OTEL_TRACES_SAMPLER_ARG", "lots", "OTEL_BSP_MAX_QUEUE_SIZE", "0",
                "OTEL_METRICS_EXEMPLAR_FILTER", "sometimes", "OTEL_EXPORTER_OTLP_PROTOCOL", "http"));
        env.put("OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE", "weekly");
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        java.io.PrintStream errStream = new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8);
        CliEnvironment cli = new CliEnvironment(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()), errStream,
                env, Terminal.NONE, (name, e) -> {
                    throw new AssertionError("no model");
                }, false);
        CliTelemetry.from(cli, CliHome.of(Map.of("REIN_HOME", dir.toString()))).close();
        List<String> lines = err.toString(java.nio.charset.StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).as("each value said once").hasSize(9).allSatisfy(line -> assertThat(line)
                .startsWith("rein: OpenTelemetry: ").contains("OTEL_SDK_DISABLED=true: nothing is exported in any case")
                .doesNotContain("the default").doesNotContain("no compression").doesNotContain("every trace is sampled")
                .doesNotContain("nothing is sent twice").doesNotContain("the others are used"));
    }

    @Test
    void aProtocolWithSpacesAroundItIsRefusedSayingSo() {
        // The SDK takes the value as it is: "http/protobuf " is an "Unsupported OTLP metrics protocol:
        // http/protobuf", where the space cannot be seen. The line names the variable and the spaces.
        CliHome home = CliHome.of(Map.of("REIN_HOME", dir.toString()));
        assertThatThrownBy(() -> CliTelemetry.from(cli(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318",
                "OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf ")), home))
                .isInstanceOf(UsageException.class)
                .hasMessage("OTEL_EXPORTER_OTLP_PROTOCOL='http/protobuf ' has spaces around the protocol, which the OpenTelemetry SDK"
                        + " does not accept; set OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf");
    }

    @Test
    void aSignalsOwnProtocolWinsOverTheGeneralOneSoGrpcIsRefusedOnlyWhereItWouldBeUsed() {
        // SDK environment variables: OTEL_EXPORTER_OTLP_{SIGNAL}_PROTOCOL takes precedence over OTEL_EXPORTER_OTLP_PROTOCOL.
        CliHome home = CliHome.of(Map.of("REIN_HOME", dir.toString()));
        assertThatCode(() -> CliTelemetry.from(cli(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318",
                "OTEL_EXPORTER_OTLP_PROTOCOL", "grpc", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "http/protobuf",
                "OTEL_EXPORTER_OTLP_METRICS_PROTOCOL", "http/protobuf")), home).close())
                .as("both signals over HTTP").doesNotThrowAnyException();
        assertThatCode(() -> CliTelemetry.from(cli(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318",
                "OTEL_EXPORTER_OTLP_METRICS_PROTOCOL", "grpc", "OTEL_METRICS_EXPORTER", "none")), home).close())
                .as("no metrics exported at all").doesNotThrowAnyException();
        assertThatThrownBy(() -> CliTelemetry.from(cli(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4317",
                "OTEL_EXPORTER_OTLP_PROTOCOL", "grpc", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "http/protobuf")), home))
                .isInstanceOf(UsageException.class)
                .hasMessageStartingWith("OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported").as("metrics would still use gRPC");
    }

    @Test
    void withoutConfigurationTheAgentIsLeftAsItIs() throws Exception {
        try (CliTelemetry off = CliTelemetry.from(cli(Map.of()), CliHome.of(Map.of("REIN_HOME", dir.toString())))) {
            dev.rein.agent.Agent.Builder builder = dev.rein.agent.Agent.builder();
            assertThat(off.install(builder)).isSameAs(builder);
        }
    }

    /** {@code model}, its calls answered by {@code script}: a provider's model without a server to call. */
    private static dev.rein.model.Model answeredBy(dev.rein.model.Model model, ScriptedModel script) {
        return new dev.rein.provider.ForwardingModel(model) {
            @Override
            public dev.rein.model.ModelResponse call(dev.rein.model.ModelRequest request, dev.rein.model.ModelCallContext context)
                    throws dev.rein.model.ModelException, InterruptedException {
                return script.call(request, context);
            }
        };
    }

    private static java.util.Optional<String> string(Span span, String key) {
        return OtlpReceiver.attribute(span.getAttributesList(), key).map(AnyValue::getStringValue);
    }

    private static java.util.Optional<Long> integer(Span span, String key) {
        return OtlpReceiver.attribute(span.getAttributesList(), key).map(AnyValue::getIntValue);
    }

    /** The run's invoke_agent span and its chat spans, once the receiver has them. */
    private static List<Span> runAndChats(OtlpReceiver otlp) throws InterruptedException {
        otlp.awaitUntil(() -> otlp.spans().stream().anyMatch(s -> s.getName().startsWith("invoke_agent")), Duration.ofSeconds(10));
        return otlp.spans().stream().filter(s -> s.getName().startsWith("chat ") || s.getName().startsWith("invoke_agent")).toList();
    }

    @Test
    void withoutABaseUrlTheOpenAiProvidersChatSpansNameThePublicApiAsTheirServer() throws Exception {
        // Inference span: server.address recommended, server.port conditionally required when the address is set.
        // Probe: the provider's own model (OpenAiModel without a base URL) names the public API.
        try (OtlpReceiver otlp = OtlpReceiver.start()) {
            InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint()).env("OPENAI_API_KEY", "sk-test")
                    .models((name, env) -> answeredBy(ProviderModels.create(name, env), ScriptedModel.of(ScriptedModel.text("hi"))));
            InProcessCli.Outcome outcome = cli.run("run", "--provider", "openai", "--price", "0,0", "--json", "say hi");
            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
            Span chat = runAndChats(otlp).stream().filter(s -> s.getName().startsWith("chat ")).findFirst().orElseThrow();
            assertThat(string(chat, "server.address")).contains("api.openai.com");
            assertThat(integer(chat, "server.port")).contains(443L);
        }
    }

    /**
     * The command line set the spans' server itself, from the provider's base URL variable or, without one, from a
     * copy of the bundled providers' public URLs; so a model whose calls go elsewhere (a provider plug-in reading
     * another variable, a model of its own) had chat spans naming a server it never called. Each chat span now names
     * the server of the model its call went to (ModelDefaults.serverUri(), which the provider's model gives), as in
     * the library, and the run span, an INTERNAL invoke_agent span, none (the conventions list no server.* for it).
     */
    @Test
    void eachChatSpanNamesTheServerItsModelCallsNotOneTheCommandLineGuesses() throws Exception {
        try (OtlpReceiver otlp = OtlpReceiver.start()) {
            ScriptedModel script = ScriptedModel.of(ScriptedModel.text("hi"));
            InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint())
                    .models((name, env) -> new dev.rein.provider.ForwardingModel(script) {
                        @Override
                        public java.net.URI serverUri() {
                            return java.net.URI.create("http://10.1.2.3:8443/v1");
                        }
                    });
            InProcessCli.Outcome outcome = cli.run("run", "--provider", "openai", "--price", "0,0", "--json", "say hi");
            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
            List<Span> spans = runAndChats(otlp);
            Span chat = spans.stream().filter(s -> s.getName().startsWith("chat ")).findFirst().orElseThrow();
            assertThat(string(chat, "server.address")).contains("10.1.2.3");
            assertThat(integer(chat, "server.port")).contains(8443L);
            Span run = spans.stream().filter(s -> s.getName().startsWith("invoke_agent")).findFirst().orElseThrow();
            assertThat(string(run, "server.address")).isEmpty();
            assertThat(string(run, "gen_ai.provider.name")).contains("openai");
        }
    }

    /**
     * The command line configured providerName(--provider), which names every span, so a call whose model is of
     * another provider (a plug-in's model of another API, a model that moves a call to another provider's) had a chat
     * span and metrics naming the --provider, not the provider called. Each chat span now names its model's own
     * provider (ModelDefaults.providerName()), as in the library; the --provider names only a model that names none.
     */
    @Test
    void eachChatSpanNamesTheProviderItsModelCallsAndTheOptionOnlyAModelThatNamesNone() throws Exception {
        try (OtlpReceiver otlp = OtlpReceiver.start()) {
            ScriptedModel script = ScriptedModel.of(ScriptedModel.text("hi"));
            InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint())
                    .models((name, env) -> new dev.rein.provider.ForwardingModel(script) {
                        @Override
                        public String providerName() {
                            return "openai";
                        }
                    });
            InProcessCli.Outcome outcome = cli.run("run", "--provider", "anthropic", "--price", "0,0", "--json", "say hi");
            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
            assertThat(runAndChats(otlp)).hasSize(2).allSatisfy(span ->
                    assertThat(string(span, "gen_ai.provider.name")).as(span.getName()).contains("openai"));
        }
        try (OtlpReceiver otlp = OtlpReceiver.start()) {
            InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint())
                    .models((name, env) -> ScriptedModel.of(ScriptedModel.text("hi")));
            InProcessCli.Outcome outcome = cli.run("run", "--provider", "anthropic", "--price", "0,0", "--json", "say hi");
            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
            assertThat(runAndChats(otlp)).hasSize(2).allSatisfy(span ->
                    assertThat(string(span, "gen_ai.provider.name")).as(span.getName()).contains("anthropic"));
        }
    }

    /**
     * UTF-8 through the OTLP export (protobuf strings are UTF-8): a Japanese goal and answer captured as content, a
     * Japanese service name, and a percent-encoded Japanese resource attribute value (the spec: values are
     * percent-decoded, as UTF-8) reach the collector intact. Probe.
     */
    @Test
    void japaneseTextReachesTheCollectorIntactInContentServiceNameAndResourceAttributes() throws Exception {
        try (OtlpReceiver otlp = OtlpReceiver.start()) {
            InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint())
                    .env("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "true")
                    .env("OTEL_SERVICE_NAME", "注文エージェント")
                    .env("OTEL_RESOURCE_ATTRIBUTES", "team=%E6%94%AF%E6%89%95%E3%81%84")
                    .models((name, env) -> ScriptedModel.of(ScriptedModel.text("今は東京で昼です。")));
            InProcessCli.Outcome outcome = cli.run("run", "--price", "0,0", "--json", "今は東京で何時?");
            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
            List<Span> spans = runAndChats(otlp);
            Span run = spans.stream().filter(s -> s.getName().startsWith("invoke_agent")).findFirst().orElseThrow();
            assertThat(string(run, "gen_ai.input.messages")).hasValueSatisfying(json -> assertThat(json).contains("今は東京で何時?"));
            assertThat(string(run, "gen_ai.output.messages")).hasValueSatisfying(json -> assertThat(json).contains("今は東京で昼です。"));
            Span chat = spans.stream().filter(s -> s.getName().startsWith("chat ")).findFirst().orElseThrow();
            assertThat(string(chat, "gen_ai.output.messages")).hasValueSatisfying(json -> assertThat(json).contains("今は東京で昼です。"));
            assertThat(otlp.spanResources()).isNotEmpty().allSatisfy(resource -> {
                assertThat(OtlpReceiver.attribute(resource.getAttributesList(), "service.name").map(AnyValue::getStringValue))
                        .contains("注文エージェント");
                assertThat(OtlpReceiver.attribute(resource.getAttributesList(), "team").map(AnyValue::getStringValue))
                        .contains("支払い");
            });
        }
    }

    @Test
    void theProviderAndBaseUrlGivenAsOptionsAreTheSpansProviderAndServer() throws Exception {
        // docs/observability.md: the chat spans' server.address/port are the host and port of the provider's base URL
        // (--base-url, ANTHROPIC_BASE_URL, OPENAI_BASE_URL), which the provider's model calls; gen_ai.provider.name is
        // the run's provider. Probe, through the real provider against a fake server.
        try (OtlpReceiver otlp = OtlpReceiver.start();
             dev.rein.testkit.openai.FakeChatCompletionsServer server = dev.rein.testkit.openai.FakeChatCompletionsServer.start()) {
            server.enqueue(dev.rein.testkit.openai.ChatReply.text("hi"));
            InProcessCli cli = new InProcessCli().models(ProviderModels::create).env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint())
                    .env("OPENAI_API_KEY", "sk-test");
            InProcessCli.Outcome outcome = cli.run("run", "--provider", "openai", "--base-url", server.baseUrl(),
                    "--model", "gpt-test", "--price", "0,0", "--json", "say hi");
            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
            List<Span> spans = runAndChats(otlp);
            assertThat(spans).hasSize(2).allSatisfy(span ->
                    assertThat(string(span, "gen_ai.provider.name")).as(span.getName()).contains("openai"));
            Span chat = spans.stream().filter(s -> s.getName().startsWith("chat ")).findFirst().orElseThrow();
            java.net.URI base = java.net.URI.create(server.baseUrl());
            assertThat(string(chat, "server.address")).contains(base.getHost());
            assertThat(integer(chat, "server.port")).contains((long) base.getPort());
            // The invoke_agent span has the agent's request parameters and the finish reason of its last answer.
            Span run = spans.stream().filter(s -> s.getName().startsWith("invoke_agent")).findFirst().orElseThrow();
            assertThat(integer(run, "gen_ai.request.max_tokens")).isEqualTo(integer(chat, "gen_ai.request.max_tokens")).isPresent();
            assertThat(OtlpReceiver.attribute(run.getAttributesList(), "gen_ai.response.finish_reasons")
                    .map(v -> v.getArrayValue().getValuesList().stream().map(AnyValue::getStringValue).toList())).contains(List.of("stop"));
        }
    }

    /**
     * An OpenAI reasoning model reports its reasoning tokens (usage.completion_tokens_details.reasoning_tokens,
     * counted in completion_tokens); the GenAI conventions name them gen_ai.usage.reasoning.output_tokens
     * ("The value SHOULD be included in gen_ai.usage.output_tokens"). No span carried them, so a backend could
     * not tell thinking from answer tokens. The chat span has the call's, the run span the sum.
     */
    @Test
    void theReasoningTokensAProviderReportsAreOnTheChatAndRunSpans() throws Exception {
        try (OtlpReceiver otlp = OtlpReceiver.start();
             dev.rein.testkit.openai.FakeChatCompletionsServer server = dev.rein.testkit.openai.FakeChatCompletionsServer.start()) {
            String chunk = "{\"id\":\"chatcmpl-r1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"o4-mini\",";
            server.enqueue(new dev.rein.testkit.openai.ChatReply.Malformed(
                    "data: " + chunk + "\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"391\"},"
                            + "\"finish_reason\":null}]}\n\n"
                            + "data: " + chunk + "\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
                            + "data: " + chunk + "\"choices\":[],\"usage\":{\"prompt_tokens\":50,\"completion_tokens\":300,"
                            + "\"total_tokens\":350,\"completion_tokens_details\":{\"reasoning_tokens\":256}}}\n\n"
                            + "data: [DONE]\n\n"));
            InProcessCli cli = new InProcessCli().models(ProviderModels::create).env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint())
                    .env("OPENAI_API_KEY", "sk-test");
            InProcessCli.Outcome outcome = cli.run("run", "--provider", "openai", "--base-url", server.baseUrl(),
                    "--model", "o4-mini", "--price", "0,0", "--json", "What is 17 * 23?");
            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();

            otlp.awaitUntil(() -> otlp.spans().stream().anyMatch(s -> s.getName().startsWith("invoke_agent")), Duration.ofSeconds(10));
            List<Span> spans = otlp.spans().stream().filter(s -> s.getName().startsWith("chat ") || s.getName().startsWith("invoke_agent")).toList();
            assertThat(spans).hasSize(2).allSatisfy(span -> {
                assertThat(OtlpReceiver.attribute(span.getAttributesList(), "gen_ai.usage.reasoning.output_tokens")
                        .map(AnyValue::getIntValue)).as(span.getName()).contains(256L);
                assertThat(OtlpReceiver.attribute(span.getAttributesList(), "gen_ai.usage.output_tokens")
                        .map(AnyValue::getIntValue)).as(span.getName()).contains(300L);
            });
        }
    }

    @Test
    void aCollectorThatNeverAnswersIsOneLineOnStderrAndDoesNotHoldTheResult() throws Exception {
        // docs/observability.md: "each distinct export problem is one `rein: OpenTelemetry: …` line on
        // stderr (no stack traces), and the flush waits at most 5 seconds for an unreachable collector".
        List<java.net.Socket> held = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (java.net.ServerSocket silent = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            Thread.ofVirtual().start(() -> {
                try {
                    while (true) {
                        held.add(silent.accept()); // accepted, never answered
                    }
                } catch (java.io.IOException closed) {
                    // the test is over
                }
            });
            InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + silent.getLocalPort());
            cli.models((name, env) -> ScriptedModel.of(ScriptedModel.text("こんにちは")));
            long started = System.nanoTime();
            InProcessCli.Outcome outcome = cli.run("run", "--json", "挨拶して");
            Duration took = Duration.ofNanos(System.nanoTime() - started);

            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
            assertThat(outcome.stdout()).contains("こんにちは");
            // Unbounded, the exporter's 10 s timeout and its retries would hold the result for far longer.
            assertThat(took).isLessThan(Duration.ofSeconds(30));
            assertThat(outcome.stderrLines()).filteredOn(line -> line.startsWith("rein: OpenTelemetry: ")).singleElement()
                    .satisfies(line -> assertThat(line).contains("did not answer within 5 s"));
            assertThat(outcome.stderr()).doesNotContain("\tat ");
        }
    }

    @Test
    void theFlushAtTheRunsEndSaysTheCollectorDidNotAnswerAndTheExitIsNotHeldAgain() throws Exception {
        // docs/observability.md: spans are flushed "when the run ends, before the result is printed", the
        // flush "waits at most 5 seconds", and after a collector did not answer "later flushes in the same
        // command are not waited for". So the line comes with that flush, before the result, and the
        // shutdown at exit does not wait another 5 s.
        try (java.net.ServerSocket silent = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            List<java.net.Socket> held = new java.util.concurrent.CopyOnWriteArrayList<>();
            Thread.ofVirtual().start(() -> {
                try {
                    while (true) {
                        held.add(silent.accept()); // accepted, never answered
                    }
                } catch (java.io.IOException closed) {
                    // the test is over
                }
            });
            // warmed up first, so the time measured below is the export's, not class loading's
            InProcessCli warm = new InProcessCli();
            warm.models((name, env) -> ScriptedModel.of(ScriptedModel.text("hi")));
            assertThat(warm.run("run", "--json", "say hi").exitCode()).isZero();
            // twice: the flush used to race its own 5 s bound and lose about two times in three
            for (int i = 0; i < 2; i++) {
                // the exporter's own timeout unset (10 s): the flush's 5 s bound comes first (a longer configured
                // timeout would be the bound itself)
                InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + silent.getLocalPort());
                cli.models((name, env) -> ScriptedModel.of(ScriptedModel.text("hi")));
                long started = System.nanoTime();
                InProcessCli.Outcome outcome = cli.run("run", "--json", "say hi");
                Duration took = Duration.ofNanos(System.nanoTime() - started);

                assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
                List<String> lines = outcome.stderrLines();
                assertThat(lines).as(outcome.stderr()).anyMatch(l -> l.contains("did not answer within 5 s"));
                int said = lines.indexOf(lines.stream().filter(l -> l.contains("did not answer within 5 s")).findFirst().orElseThrow());
                int result = lines.indexOf(lines.stream().filter(l -> l.startsWith("rein: SUCCEEDED")).findFirst().orElseThrow());
                assertThat(said).as(outcome.stderr()).isLessThan(result);
                // two 5 s waits take at least 10 s; one leaves room for a loaded machine
                assertThat(took).as("one 5 s wait, not one at the run's end and another at exit").isLessThan(Duration.ofSeconds(10));
            }
        }
    }

    @Test
    void theFlushWaitsForALongerConfiguredExportTimeout() throws Exception {
        // OTEL_EXPORTER_OTLP_TIMEOUT is how long an export may take (SDK configuration); a collector
        // that answers within it must not be given up on after Rein's own 5 s.
        try (OtlpReceiver otlp = OtlpReceiver.start().delayingTraces(Duration.ofMillis(6500))) {
            InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint())
                    .env("OTEL_EXPORTER_OTLP_TIMEOUT", "10000");
            cli.models((name, env) -> ScriptedModel.of(ScriptedModel.text("こんにちは")));
            long started = System.nanoTime();
            InProcessCli.Outcome outcome = cli.run("run", "--json", "挨拶して");
            Duration took = Duration.ofNanos(System.nanoTime() - started);

            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
            // A refused connection cannot be this run's (its collector listens throughout): it is a late export of an
            // earlier test whose collector has closed, reaching this one through the SDK's shared logger
            assertThat(outcome.stderrLines()).as(outcome.stderr())
                    .noneMatch(line -> line.startsWith("rein: OpenTelemetry: ") && !line.contains("ConnectException"));
            assertThat(took).as("the flush waited for the collector's answer").isGreaterThanOrEqualTo(Duration.ofMillis(6500));
            assertThat(otlp.spans()).anyMatch(span -> span.getName().startsWith("invoke_agent"));
        }
    }

    @Test
    void theFlushBoundIsTheLongestConfiguredExportTimeoutAndNeverBelowFiveSeconds() {
        assertThat(CliTelemetry.flushBound(config(Map.of()))).isEqualTo(Duration.ofSeconds(5));
        assertThat(CliTelemetry.flushBound(config(Map.of("otel.exporter.otlp.timeout", "2000")))).isEqualTo(Duration.ofSeconds(5));
        assertThat(CliTelemetry.flushBound(config(Map.of("otel.exporter.otlp.timeout", "30000")))).isEqualTo(Duration.ofSeconds(30));
        // a signal's own timeout wins over the general one for that signal
        assertThat(CliTelemetry.flushBound(config(Map.of("otel.exporter.otlp.timeout", "30000",
                "otel.exporter.otlp.traces.timeout", "8000", "otel.exporter.otlp.metrics.timeout", "12s")))).isEqualTo(Duration.ofSeconds(12));
        assertThat(CliTelemetry.flushBound(config(Map.of("otel.exporter.otlp.traces.timeout", "20000")))).isEqualTo(Duration.ofSeconds(20));
        // a value the SDK cannot read is its to report: the bound stays
        assertThat(CliTelemetry.flushBound(config(Map.of("otel.exporter.otlp.timeout", "soon")))).isEqualTo(Duration.ofSeconds(5));
    }

    /**
     * SDK environment variables spec, Timeout: 0 means indefinite, and the SDK's exporter takes it
     * so (no limit on an export). The flush at a run's end still gave up after its 5 s, so a
     * collector that took longer to answer lost the run's spans though the user had set no limit.
     * It now waits as long as the export takes ("a very long time", as the spec allows: the 32-bit
     * maximum of milliseconds), as it already did for a longer timeout; a signal's own 0 does so too.
     */
    @Test
    void anExportTimeoutOfZeroLetsTheFlushWaitAsLongAsTheExportTakes() throws Exception {
        Duration indefinite = Duration.ofMillis(Integer.MAX_VALUE);
        assertThat(CliTelemetry.flushBound(config(Map.of("otel.exporter.otlp.timeout", "0")))).isEqualTo(indefinite);
        assertThat(CliTelemetry.flushBound(config(Map.of("otel.exporter.otlp.timeout", "30000",
                "otel.exporter.otlp.metrics.timeout", "0")))).isEqualTo(indefinite);
        assertThat(CliTelemetry.flushBound(config(Map.of("otel.exporter.otlp.timeout", "0",
                "otel.exporter.otlp.traces.timeout", "8000", "otel.exporter.otlp.metrics.timeout", "9000"))))
                .as("each signal's own wins").isEqualTo(Duration.ofSeconds(9));
        assertTheFlushWaitsForACollectorSlowWith(Signal.TRACES, "OTEL_EXPORTER_OTLP_TIMEOUT", "0");
    }

    /**
     * OTEL_METRIC_EXPORT_TIMEOUT (SDK environment variables spec, Periodic exporting MetricReader: the
     * "maximum allowed time (in milliseconds) to export data", 30000 by default) was read by nothing:
     * the Java SDK's autoconfiguration 1.68 sets only the reader's interval, so a shorter timeout did
     * not cut a slow metrics export short (the flush waited its 5 s and said the collector did not
     * answer), a longer one did not keep the flush waiting (the metrics of a collector that answers in
     * 6.5 s were given up on after 5 s), and a negative one was not said. Now the metric reader gives
     * up at it (one line naming the variable), the flush waits as long as a longer one, 0 is no limit,
     * and a value out of range is said and ignored like the other numbers.
     */
    @Test
    void theMetricExportTimeoutBoundsTheMetricsExportAndALongerOneIsWaitedFor() throws Exception {
        assertThat(CliTelemetry.flushBound(config(Map.of("otel.metric.export.timeout", "9000")))).isEqualTo(Duration.ofSeconds(9));
        assertThat(CliTelemetry.flushBound(config(Map.of("otel.metric.export.timeout", "2000")))).isEqualTo(Duration.ofSeconds(5));
        assertThat(CliTelemetry.flushBound(config(Map.of("otel.metric.export.timeout", "0"))))
                .isEqualTo(Duration.ofMillis(Integer.MAX_VALUE));
        // longer than the flush's 5 s: a collector that takes the metrics in 6.5 s is waited for
        assertTheFlushWaitsForACollectorSlowWith(Signal.METRICS, "OTEL_METRIC_EXPORT_TIMEOUT", "9000");
        // shorter: the metrics export is given up at 1 s, said naming the variable, not as a collector silent for 5 s
        try (OtlpReceiver otlp = OtlpReceiver.start().delayingMetrics(Duration.ofMillis(6500))) {
            InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint())
                    .env("OTEL_METRIC_EXPORT_TIMEOUT", "1000");
            cli.models((name, env) -> ScriptedModel.of(ScriptedModel.text("hi")));
            InProcessCli.Outcome outcome = cli.run("run", "--json", "say hi");

            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
            assertThat(outcome.stderrLines()).as(outcome.stderr())
                    .filteredOn(line -> line.startsWith("rein: OpenTelemetry: ") && !line.contains("ConnectException")).singleElement()
                    .satisfies(line -> assertThat(line).contains("OTEL_METRIC_EXPORT_TIMEOUT=1000").doesNotContain("within 5 s"));
            otlp.awaitUntil(() -> !otlp.spans().isEmpty(), Duration.ofSeconds(5));
            assertThat(otlp.spans()).extracting(Span::getName).contains("invoke_agent rein");
        }
        try (OtlpReceiver otlp = OtlpReceiver.start()) {
            InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint())
                    .env("OTEL_METRIC_EXPORT_TIMEOUT", "-5");
            cli.models((name, env) -> ScriptedModel.of(ScriptedModel.text("hi")));
            InProcessCli.Outcome outcome = cli.run("run", "--json", "say hi");
            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
            assertThat(outcome.stderrLines()).filteredOn(line -> line.startsWith("rein: OpenTelemetry: ")).singleElement()
                    .satisfies(line -> assertThat(line).contains("OTEL_METRIC_EXPORT_TIMEOUT=-5 is negative; ignored, as if unset"));
            otlp.awaitUntil(() -> !otlp.metrics().isEmpty(), Duration.ofSeconds(10));
            assertThat(otlp.metrics()).isNotEmpty();
        }
    }

    /**
     * OTEL_BSP_EXPORT_TIMEOUT is the batch span processor's "maximum allowed time to export data"
     * (SDK environment variables spec, a Timeout: 0 is indefinite). A longer one set did not keep the
     * flush at a run's end waiting, as OTEL_EXPORTER_OTLP_TIMEOUT and OTEL_METRIC_EXPORT_TIMEOUT do:
     * a collector that takes the spans in 6.5 s was reported as not answering within 5 s.
     */
    @Test
    void aLongerSpanProcessorExportTimeoutIsWaitedForByTheFlush() throws Exception {
        assertThat(CliTelemetry.flushBound(config(Map.of("otel.bsp.export.timeout", "9000")))).isEqualTo(Duration.ofSeconds(9));
        assertThat(CliTelemetry.flushBound(config(Map.of("otel.bsp.export.timeout", "2000")))).isEqualTo(Duration.ofSeconds(5));
        assertThat(CliTelemetry.flushBound(config(Map.of("otel.bsp.export.timeout", "0"))))
                .isEqualTo(Duration.ofMillis(Integer.MAX_VALUE));
        assertTheFlushWaitsForACollectorSlowWith(Signal.TRACES, "OTEL_BSP_EXPORT_TIMEOUT", "9000");
    }

    /** Which signal {@link #assertTheFlushWaitsForACollectorSlowWith} has the collector answer late. */
    private enum Signal { TRACES, METRICS }

    /**
     * One {@code rein run} with {@code variable=value} set, against a collector that answers the given
     * signal's exports after 6.5 s: the flush at the run's end waits for the answer (longer than its
     * own 5 s), no line says it gave up, and the run's spans arrive.
     */
    private static void assertTheFlushWaitsForACollectorSlowWith(Signal slow, String variable, String value) throws Exception {
        try (OtlpReceiver otlp = OtlpReceiver.start()) {
            if (slow == Signal.TRACES) {
                otlp.delayingTraces(Duration.ofMillis(6500));
            } else {
                otlp.delayingMetrics(Duration.ofMillis(6500));
            }
            InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint()).env(variable, value);
            cli.models((name, env) -> ScriptedModel.of(ScriptedModel.text("hi")));
            long begun = System.nanoTime();
            InProcessCli.Outcome outcome = cli.run("run", "--json", "say hi");
            Duration took = Duration.ofNanos(System.nanoTime() - begun);

            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
            assertThat(outcome.stderrLines()).as(outcome.stderr())
                    .noneMatch(line -> line.startsWith("rein: OpenTelemetry: ") && !line.contains("ConnectException"));
            assertThat(took).as("the flush waited for the collector's answer").isGreaterThanOrEqualTo(Duration.ofMillis(6500));
            assertThat(otlp.spans()).anyMatch(span -> span.getName().startsWith("invoke_agent"));
        }
    }

    private static io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties config(Map<String, String> properties) {
        return io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties.createFromMap(properties);
    }

    @Test
    void aCollectorThatIsDownIsReportedAsUnreachableNotAsSilent() throws Exception {
        // docs/observability.md: "did not answer within 5 s" is for a collector that accepts the connection
        // and does not answer. Nothing listening (the collector is down, a wrong port) refuses the connection;
        // the sender retries that for longer than the flush waits, and the line says what happened.
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        // the exporter's own timeout unset (10 s), so the flush's 5 s bound comes before its retries end
        InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + port);
        cli.models((name, env) -> ScriptedModel.of(ScriptedModel.text("hi")));
        InProcessCli.Outcome outcome = cli.run("run", "--json", "say hi");

        assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
        assertThat(outcome.stderrLines()).filteredOn(line -> line.startsWith("rein: OpenTelemetry: ")).singleElement()
                .satisfies(line -> assertThat(line).startsWith("rein: OpenTelemetry: the collector could not be reached (java.net.ConnectException")
                        .doesNotContain("did not answer").contains("OTEL_EXPORTER_OTLP_ENDPOINT"));
        assertThat(outcome.stderr()).doesNotContain("\tat ");
    }

    /**
     * SDK environment variables spec, Exporter Selection: OTEL_METRICS_EXPORTER defaults to otlp, and
     * the OTLP endpoint to http://localhost:4318. So OTEL_TRACES_EXPORTER=console alone still sends
     * the metrics over OTLP, which is right, but with no collector there the line said "spans and
     * metrics not sent by now are lost (check OTEL_EXPORTER_OTLP_ENDPOINT ...)", a variable the user
     * never set, about spans that were printed. It says that only the metrics go over OTLP, to the
     * default endpoint, and how to turn that off; OTEL_METRICS_EXPORTER=none (and OTEL_LOGS_EXPORTER=none)
     * sends nothing, and says nothing.
     */
    @Test
    void consoleSpansAloneStillSendTheMetricsOverOtlpAndTheLineSaysSoAndHowToTurnItOff() throws Exception {
        try (java.net.Socket probe = new java.net.Socket()) {
            probe.connect(new java.net.InetSocketAddress("localhost", 4318), 200);
            org.junit.jupiter.api.Assumptions.abort("something listens on localhost:4318, the default OTLP endpoint");
        } catch (java.io.IOException nothingThere) {
            // as expected: no collector on the default endpoint
        }
        InProcessCli cli = new InProcessCli().env("OTEL_TRACES_EXPORTER", "console");
        cli.models((name, env) -> ScriptedModel.of(ScriptedModel.text("hi")));
        InProcessCli.Outcome outcome = cli.run("run", "--json", "say hi");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
        assertThat(outcome.stderr()).contains("'invoke_agent rein'");
        assertThat(outcome.stderrLines()).filteredOn(line -> line.startsWith("rein: OpenTelemetry: ")).singleElement()
                .satisfies(line -> assertThat(line).contains("metrics not sent by now are lost").doesNotContain("spans")
                        .contains("http://localhost:4318").contains("OTEL_METRICS_EXPORTER=none"));

        InProcessCli off = new InProcessCli().env("OTEL_TRACES_EXPORTER", "console").env("OTEL_METRICS_EXPORTER", "none")
                .env("OTEL_LOGS_EXPORTER", "none");
        off.models((name, env) -> ScriptedModel.of(ScriptedModel.text("hi")));
        long started = System.nanoTime();
        InProcessCli.Outcome quiet = off.run("run", "--json", "say hi");
        assertThat(quiet.exitCode()).as(quiet.stderr()).isZero();
        assertThat(quiet.stderr()).contains("'invoke_agent rein'");
        assertThat(quiet.stderrLines()).noneMatch(line -> line.startsWith("rein: OpenTelemetry: "));
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("no export to wait for").isLessThan(Duration.ofSeconds(4));
    }

    /**
     * Only OTEL_EXPORTER_OTLP_TRACES_ENDPOINT set (to a collector that takes the spans): the metrics
     * still go over OTLP, to the default http://localhost:4318 (SDK environment variables spec), and
     * with nothing there the line said "spans and metrics not sent by now are lost (check
     * OTEL_EXPORTER_OTLP_ENDPOINT ...)", about spans the collector had and a variable the user never
     * set. It names only what was not delivered, the metrics, where they go and how to change that.
     */
    @Test
    void aTracesEndpointAloneSaysTheMetricsToTheDefaultEndpointWereNotSentNotTheSpans() throws Exception {
        try (java.net.Socket probe = new java.net.Socket()) {
            probe.connect(new java.net.InetSocketAddress("localhost", 4318), 200);
            org.junit.jupiter.api.Assumptions.abort("something listens on localhost:4318, the default OTLP endpoint");
        } catch (java.io.IOException nothingThere) {
            // as expected: no collector on the default endpoint
        }
        try (OtlpReceiver otlp = OtlpReceiver.start()) {
            InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", otlp.endpoint() + "/v1/traces");
            cli.models((name, env) -> ScriptedModel.of(ScriptedModel.text("hi")));
            InProcessCli.Outcome outcome = cli.run("run", "--json", "say hi");
            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
            assertThat(otlp.spans()).extracting(Span::getName).contains("invoke_agent rein");
            assertThat(outcome.stderrLines()).filteredOn(line -> line.startsWith("rein: OpenTelemetry: ")).singleElement()
                    .satisfies(line -> assertThat(line).contains("metrics not sent by now are lost").doesNotContain("spans")
                            .doesNotContain("check OTEL_EXPORTER_OTLP_ENDPOINT").contains("http://localhost:4318")
                            .contains("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT"));
        }
    }

    /**
     * docs/observability.md: Rein's spans and metrics come from the scope dev.rein.otel; the SDK's
     * autoconfiguration also records the SDK's own metrics (its batch span processor's and OTLP
     * exporter's, the self-observability the semantic conventions define as otel.sdk.*), which are
     * exported beside them in scopes of their own, so a backend can tell them apart.
     */
    @Test
    void reinsMetricsHaveItsScopeAndTheSdksOwnMetricsTheirs() throws Exception {
        try (OtlpReceiver otlp = OtlpReceiver.start()) {
            InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint());
            cli.models((name, env) -> ScriptedModel.of(ScriptedModel.text("hi")));
            assertThat(cli.run("run", "--json", "say hi").exitCode()).isZero();
            otlp.awaitUntil(() -> otlp.metricScopes().containsKey("rein.run.stops"), Duration.ofSeconds(10));
            Map<String, String> scopes = otlp.metricScopes();
            assertThat(scopes).containsKeys("gen_ai.client.token.usage", "gen_ai.client.operation.duration", "rein.run.stops");
            scopes.forEach((metric, scope) -> {
                if (metric.startsWith("gen_ai.") || metric.startsWith("rein.")) {
                    assertThat(scope).as(metric).isEqualTo("dev.rein.otel");
                } else {
                    assertThat(scope).as(metric).startsWith("io.opentelemetry.");
                }
            });
        }
    }

    @Test
    void theCliExportsWithTheJdkSenderAndShipsNoOkHttpSenderOrOkHttp5() throws Exception {
        List<String> jars = List.of(Files.readString(Path.of("target", "classpath.txt")).strip().split(java.io.File.pathSeparator));
        assertThat(jars).anyMatch(jar -> jar.contains("opentelemetry-exporter-sender-jdk-"));
        assertThat(jars).noneMatch(jar -> jar.contains("opentelemetry-exporter-sender-okhttp"));
        assertThat(jars).filteredOn(jar -> jar.contains("/com/squareup/okhttp3/okhttp/"))
                .as("only the OkHttp 4 the provider SDK brings").allMatch(jar -> jar.contains("/okhttp/4."));
    }

    @Test
    void aServiceNameInTheResourceAttributesIsPercentDecodedLikeEveryOtherValue() throws Exception {
        // SDK environment variables spec: OTEL_RESOURCE_ATTRIBUTES values are percent-encoded
        // (W3C Baggage octet rules), so service.name=checkout%20agent names the service "checkout agent".
        try (OtlpReceiver otlp = OtlpReceiver.start()) {
            InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint())
                    .env("OTEL_RESOURCE_ATTRIBUTES", "service.name=checkout%20agent,team=ai%2Cml");
            cli.models((name, env) -> ScriptedModel.of(ScriptedModel.text("hi")));
            InProcessCli.Outcome outcome = cli.run("run", "--json", "say hi");
            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();

            otlp.awaitUntil(() -> !otlp.spanResources().isEmpty(), Duration.ofSeconds(10));
            assertThat(otlp.spanResources()).allSatisfy(resource -> {
                assertThat(OtlpReceiver.attribute(resource.getAttributesList(), "service.name").map(AnyValue::getStringValue))
                        .contains("checkout agent");
                assertThat(OtlpReceiver.attribute(resource.getAttributesList(), "team").map(AnyValue::getStringValue))
                        .contains("ai,ml");
            });
        }
    }

    /**
     * Resource semantic conventions: service.version is recommended. When the service is Rein itself
     * (the default name "rein"), it is Rein's own version.
     */
    @Test
    void theDefaultServiceReinCarriesReinsVersion() throws Exception {
        assertThat(Version.rein()).as("filtered in at build time").isNotEqualTo("unknown");
        assertThat(resourceOfARun(Map.of())).containsEntry("service.name", "rein").containsEntry("service.version", Version.rein());
    }

    /** A service the user names is theirs: Rein's version is not its version. */
    @Test
    void aServiceTheUserNamesGetsNoVersionFromRein() throws Exception {
        assertThat(resourceOfARun(Map.of("OTEL_SERVICE_NAME", "checkout"))).containsEntry("service.name", "checkout")
                .doesNotContainKey("service.version");
        assertThat(resourceOfARun(Map.of("OTEL_RESOURCE_ATTRIBUTES", "service.name=checkout"))).containsEntry("service.name", "checkout")
                .doesNotContainKey("service.version");
    }

    /** A service.version the user gives in OTEL_RESOURCE_ATTRIBUTES is kept, the default name "rein" or not. */
    @Test
    void theUsersOwnServiceVersionIsKept() throws Exception {
        assertThat(resourceOfARun(Map.of("OTEL_RESOURCE_ATTRIBUTES", "service.version=2026.12%2B7")))
                .containsEntry("service.name", "rein").containsEntry("service.version", "2026.12+7");
    }

    /** The string attributes of the resource the spans of one run in this JVM are exported with. */
    private static Map<String, String> resourceOfARun(Map<String, String> env) throws Exception {
        try (OtlpReceiver otlp = OtlpReceiver.start()) {
            InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint());
            env.forEach(cli::env);
            cli.models((name, e) -> ScriptedModel.of(ScriptedModel.text("hi")));
            InProcessCli.Outcome outcome = cli.run("run", "--json", "say hi");
            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
            otlp.awaitUntil(() -> !otlp.spanResources().isEmpty(), Duration.ofSeconds(10));
            return otlp.spanResources().get(0).getAttributesList().stream()
                    .filter(kv -> kv.getValue().hasStringValue())
                    .collect(java.util.stream.Collectors.toMap(kv -> kv.getKey(), kv -> kv.getValue().getStringValue()));
        }
    }

    @Test
    void aTraceparentInTheEnvironmentIsTheRunSpansParent() throws Exception {
        // Environment Variables as Context Propagation Carriers (OpenTelemetry specification,
        // context/env-carriers.md): a command-line tool extracts TRACEPARENT / TRACESTATE at startup
        // with the configured propagators, so a CI job's or script's trace contains the run.
        String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
        String parentId = "00f067aa0ba902b7";
        try (OtlpReceiver otlp = OtlpReceiver.start()) {
            InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint())
                    .env("TRACEPARENT", "00-" + traceId + "-" + parentId + "-01").env("TRACESTATE", "vendor=abc");
            cli.models((name, env) -> ScriptedModel.of(ScriptedModel.text("hi")));
            InProcessCli.Outcome outcome = cli.run("run", "--json", "say hi");
            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();

            otlp.awaitUntil(() -> otlp.spans().stream().anyMatch(s -> s.getName().startsWith("invoke_agent")), Duration.ofSeconds(10));
            Span run = otlp.spans().stream().filter(s -> s.getName().startsWith("invoke_agent")).findFirst().orElseThrow();
            assertThat(java.util.HexFormat.of().formatHex(run.getTraceId().toByteArray())).isEqualTo(traceId);
            assertThat(java.util.HexFormat.of().formatHex(run.getParentSpanId().toByteArray())).isEqualTo(parentId);
            assertThat(run.getTraceState()).isEqualTo("vendor=abc");
        }
    }

    @Test
    void aTraceparentThatIsNotValidIsIgnoredAndTheRunStartsATraceOfItsOwn() throws Exception {
        // W3C Trace Context: a traceparent that does not parse (or has an all-zero trace id) is ignored;
        // the run is neither refused nor parented by it.
        for (String bad : List.of("garbage", "00-00000000000000000000000000000000-00f067aa0ba902b7-01")) {
            try (OtlpReceiver otlp = OtlpReceiver.start()) {
                InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint()).env("TRACEPARENT", bad);
                cli.models((name, env) -> ScriptedModel.of(ScriptedModel.text("hi")));
                InProcessCli.Outcome outcome = cli.run("run", "--json", "say hi");
                assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
                assertThat(outcome.stderr()).as(bad).doesNotContain("rein: OpenTelemetry:");

                otlp.awaitUntil(() -> otlp.spans().stream().anyMatch(s -> s.getName().startsWith("invoke_agent")), Duration.ofSeconds(10));
                Span run = otlp.spans().stream().filter(s -> s.getName().startsWith("invoke_agent")).findFirst().orElseThrow();
                assertThat(run.getParentSpanId().isEmpty()).as(bad).isTrue();
                assertThat(java.util.HexFormat.of().formatHex(run.getTraceId().toByteArray())).as(bad)
                        .isNotEqualTo("00000000000000000000000000000000");
            }
        }
    }

    @Test
    void theConsoleExporterPrintsSpansAndMetricsOnStderrAndLeavesTheAnswerAlone() {
        // SDK environment variables spec: "console" is a known value of OTEL_TRACES_EXPORTER and
        // OTEL_METRICS_EXPORTER. The SDK's console exporter logs through java.util.logging; the CLI
        // prints its records on stderr, so stdout stays the run's answer and --json still parses.
        InProcessCli cli = new InProcessCli().env("OTEL_TRACES_EXPORTER", "console").env("OTEL_METRICS_EXPORTER", "console");
        cli.models((name, env) -> ScriptedModel.of(ScriptedModel.text("hi")));
        InProcessCli.Outcome outcome = cli.run("run", "--json", "say hi");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
        assertThat(outcome.stderr()).contains("'invoke_agent rein'", "'chat ", "gen_ai.client.token.usage")
                .doesNotContain("rein: OpenTelemetry:");
        assertThat(Json.parse(outcome.stdout()).path("status").asText()).isEqualTo("SUCCEEDED");
    }

    @Test
    void otelSdkDisabledExportsNothingButStillPropagatesTheTraceContext() throws Exception {
        // SDK environment variables spec: OTEL_SDK_DISABLED "has no effect on propagators configured
        // through the OTEL_PROPAGATORS variable"; the Java autoconfiguration sets the propagators up
        // before it looks at the flag. So the model requests still carry the caller's trace.
        String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
        List<Map<String, String>> sent = new java.util.concurrent.CopyOnWriteArrayList<>();
        ScriptedModel script = ScriptedModel.of(ScriptedModel.text("hi"));
        dev.rein.model.Model recording = (request, context) -> {
            sent.add(request.option(dev.rein.model.TraceContextHeaders.class)
                    .map(dev.rein.model.TraceContextHeaders::headers).orElse(Map.of()));
            return script.call(request, context);
        };
        try (OtlpReceiver otlp = OtlpReceiver.start()) {
            try (CliTelemetry telemetry = CliTelemetry.from(cli(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint(),
                    "OTEL_SDK_DISABLED", "true", "TRACEPARENT", "00-" + traceId + "-00f067aa0ba902b7-01")),
                    CliHome.of(Map.of("REIN_HOME", dir.toString())))) {
                telemetry.install(dev.rein.agent.Agent.builder().model(recording)
                        .modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES)).build().run("say hi");
            }
            assertThat(sent).singleElement().satisfies(headers -> assertThat(headers.get("traceparent"))
                    .as("the caller's trace goes on").startsWith("00-" + traceId + "-"));
            assertThat(otlp.spans()).as("nothing is exported").isEmpty();
            assertThat(otlp.metrics()).as("nothing is exported").isEmpty();
        }
        assertThat(dir.resolve("otel-links")).as("no links to spans that were never exported").doesNotExist();

        // OTEL_PROPAGATORS=none still means none
        sent.clear();
        try (CliTelemetry telemetry = CliTelemetry.from(cli(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:9",
                "OTEL_SDK_DISABLED", "true", "OTEL_PROPAGATORS", "none")), CliHome.of(Map.of("REIN_HOME", dir.toString())))) {
            ScriptedModel again = ScriptedModel.of(ScriptedModel.text("hi"));
            telemetry.install(dev.rein.agent.Agent.builder().model((request, context) -> {
                sent.add(request.option(dev.rein.model.TraceContextHeaders.class)
                        .map(dev.rein.model.TraceContextHeaders::headers).orElse(Map.of()));
                return again.call(request, context);
            }).modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES)).build().run("say hi");
        }
        assertThat(sent).singleElement().satisfies(headers -> assertThat(headers).doesNotContainKey("traceparent"));
    }

    @Test
    void otelPropagatorsNoneSendsNoTraceHeadersToTheModelApi() throws Exception {
        // SDK environment variables spec: OTEL_PROPAGATORS=none means "no automatically configured
        // propagator", so the model requests carry no traceparent; the default (tracecontext,baggage) does.
        for (Map.Entry<String, Boolean> c : Map.of("none", false, "tracecontext", true).entrySet()) {
            List<Map<String, String>> sent = new java.util.concurrent.CopyOnWriteArrayList<>();
            ScriptedModel script = ScriptedModel.of(ScriptedModel.text("hi"));
            dev.rein.model.Model recording = (request, context) -> {
                sent.add(request.option(dev.rein.model.TraceContextHeaders.class)
                        .map(dev.rein.model.TraceContextHeaders::headers).orElse(Map.of()));
                return script.call(request, context);
            };
            try (OtlpReceiver otlp = OtlpReceiver.start();
                 CliTelemetry telemetry = CliTelemetry.from(cli(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint(),
                         "OTEL_PROPAGATORS", c.getKey())), CliHome.of(Map.of("REIN_HOME", dir.toString())))) {
                telemetry.install(dev.rein.agent.Agent.builder().model(recording)
                        .modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES)).build().run("say hi");
            }
            assertThat(sent).as(c.getKey()).singleElement()
                    .satisfies(headers -> assertThat(headers.containsKey("traceparent")).as(c.getKey()).isEqualTo(c.getValue()));
        }
    }

    @Test
    void aCollectorThatOnlyAnswers503IsReportedWithItsStatusNotAsSilent() throws Exception {
        // OTLP/HTTP: 503 is retryable and the client waits as Retry-After says; a collector that keeps
        // answering so has answered, and the line says with what, not that it "did not answer".
        com.sun.net.httpserver.HttpServer busy = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        java.util.concurrent.atomic.AtomicInteger attempts = new java.util.concurrent.atomic.AtomicInteger();
        busy.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            attempts.incrementAndGet();
            exchange.getResponseHeaders().set("Retry-After", "2");
            exchange.sendResponseHeaders(503, -1);
            exchange.close();
        });
        busy.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
        busy.start();
        try {
            InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + busy.getAddress().getPort());
            cli.models((name, env) -> ScriptedModel.of(ScriptedModel.text("hi")));
            InProcessCli.Outcome outcome = cli.run("run", "--json", "say hi");
            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
            // Rein's line after 5 s, and the SDK's own per signal if its retries end before the command does.
            assertThat(outcome.stderrLines()).filteredOn(line -> line.startsWith("rein: OpenTelemetry: ")).isNotEmpty()
                    .allSatisfy(line -> assertThat(line).contains("503").doesNotContain("did not answer"))
                    .anySatisfy(line -> assertThat(line).contains("the collector answered HTTP 503 (retryable)"));
        } finally {
            // The exporter goes on retrying after the command (5 attempts per signal): answered to the
            // end, so no later test hears of this collector through the SDK's shared logger.
            long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (attempts.get() < 10 && System.nanoTime() < until) {
                Thread.sleep(100);
            }
            Thread.sleep(500);
            busy.stop(0);
        }
    }

    /**
     * SDK environment variables spec, Boolean: only true (any case) is true, and any other value
     * but false or empty "SHOULD" be warned of as falling back to false. OTEL_SDK_DISABLED=1 or yes,
     * meant to turn telemetry off, exported everything without a word; it is said in one line, and
     * the run is still exported as the spec has it. false says nothing.
     */
    @Test
    void aDisabledFlagThatIsNeitherTrueNorFalseIsSaidToBeTakenAsFalse() {
        for (String value : List.of("1", "yes")) {
            InProcessCli cli = new InProcessCli().env("OTEL_TRACES_EXPORTER", "console").env("OTEL_METRICS_EXPORTER", "none")
                    .env("OTEL_SDK_DISABLED", value);
            cli.models((name, env) -> ScriptedModel.of(ScriptedModel.text("hi")));
            InProcessCli.Outcome outcome = cli.run("run", "--json", "say hi");
            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
            assertThat(outcome.stderr()).as("still exported").contains("'invoke_agent rein'");
            assertThat(outcome.stderrLines()).filteredOn(line -> line.startsWith("rein: OpenTelemetry: ")).singleElement()
                    .satisfies(line -> assertThat(line).contains("OTEL_SDK_DISABLED=" + value).contains("false")
                            .contains("OTEL_SDK_DISABLED=true"));
        }
        InProcessCli quiet = new InProcessCli().env("OTEL_TRACES_EXPORTER", "console").env("OTEL_METRICS_EXPORTER", "none")
                .env("OTEL_SDK_DISABLED", "False");
        quiet.models((name, env) -> ScriptedModel.of(ScriptedModel.text("hi")));
        assertThat(quiet.run("run", "--json", "say hi").stderrLines()).noneMatch(line -> line.startsWith("rein: OpenTelemetry: "));
    }

    /**
     * SDK environment variables spec, Numeric: a value "outside the valid range" SHOULD be warned of
     * and ignored, "treat them as not set", and a negative value given no meaning is such a value.
     * OTEL_EXPORTER_OTLP_TIMEOUT=-5 was taken: the run went on, and every export failed
     * ("Invalid duration: PT-0.005S"), so nothing reached the collector. It is said in one line and
     * the default (a signal's own, the general one) is used, so the run is delivered.
     */
    @Test
    void aNegativeExportTimeoutIsSaidOnceAndIgnoredSoTheRunIsStillDelivered() throws Exception {
        for (String variable : List.of("OTEL_EXPORTER_OTLP_TIMEOUT", "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT")) {
            try (OtlpReceiver otlp = OtlpReceiver.start()) {
                InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint()).env(variable, "-5");
                cli.models((name, env) -> ScriptedModel.of(ScriptedModel.text("hi")));
                InProcessCli.Outcome outcome = cli.run("run", "--json", "say hi");
                assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
                otlp.awaitUntil(() -> !otlp.spans().isEmpty() && !otlp.metrics().isEmpty(), Duration.ofSeconds(10));
                assertThat(otlp.spans()).as(outcome.stderr()).extracting(Span::getName).contains("invoke_agent rein");
                assertThat(outcome.stderrLines()).filteredOn(line -> line.startsWith("rein: OpenTelemetry: ")).singleElement()
                        .satisfies(line -> assertThat(line).contains(variable + "=-5").contains("ignored"));
            }
        }
    }

    /**
     * SDK environment variables spec, Numeric: "if the user provides a value the implementation cannot
     * parse, or which is outside the valid range for the configuration item, the implementation SHOULD
     * generate a warning and gracefully ignore the setting, i.e., treat them as not set" (and for a
     * Duration or Timeout, a negative value MUST be warned of and ignored). A negative export timeout
     * already was, but OTEL_BSP_MAX_QUEUE_SIZE=-5 or 0, an unreadable OTEL_BSP_MAX_EXPORT_BATCH_SIZE, a
     * negative span limit or schedule delay, OTEL_METRIC_EXPORT_INTERVAL=0 and OTEL_EXPORTER_OTLP_TIMEOUT=soon
     * refused the run with exit code 2. Each is now one line naming the variable and its value, and the
     * run goes on with the default.
     */
    @Test
    void aNumberThatIsUnreadableOrOutOfRangeIsSaidOnceAndIgnoredLikeANegativeTimeout() throws Exception {
        List<List<String>> cases = List.of(List.of("OTEL_BSP_MAX_QUEUE_SIZE", "-5"), List.of("OTEL_BSP_MAX_QUEUE_SIZE", "0"),
                List.of("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "lots"), List.of("OTEL_BSP_SCHEDULE_DELAY", "-1"),
                List.of("OTEL_BSP_EXPORT_TIMEOUT", "-30000"), List.of("OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT", "-1"),
                List.of("OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT", "99999999999"), List.of("OTEL_SPAN_EVENT_COUNT_LIMIT", "-3"),
                List.of("OTEL_METRIC_EXPORT_INTERVAL", "0"), List.of("OTEL_EXPORTER_OTLP_TIMEOUT", "soon"));
        for (List<String> given : cases) {
            String variable = given.get(0);
            String value = given.get(1);
            try (OtlpReceiver otlp = OtlpReceiver.start()) {
                InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint()).env(variable, value);
                cli.models((name, env) -> ScriptedModel.of(ScriptedModel.text("hi")));
                InProcessCli.Outcome outcome = cli.run("run", "--json", "say hi");
                assertThat(outcome.exitCode()).as(variable + "=" + value + ": " + outcome.stderr()).isZero();
                otlp.awaitUntil(() -> !otlp.spans().isEmpty() && !otlp.metrics().isEmpty(), Duration.ofSeconds(10));
                assertThat(otlp.spans()).as(outcome.stderr()).extracting(Span::getName).contains("invoke_agent rein");
                assertThat(outcome.stderrLines()).as(variable + "=" + value)
                        .filteredOn(line -> line.startsWith("rein: OpenTelemetry: ")).singleElement()
                        .satisfies(line -> assertThat(line).contains(variable + "=" + value).contains("ignored, as if unset"));
            }
        }
        // what the SDK takes stays taken, without a word: 0 is a valid limit and a valid export timeout (none)
        try (OtlpReceiver otlp = OtlpReceiver.start()) {
            InProcessCli quiet = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint())
                    .env("OTEL_SPAN_LINK_COUNT_LIMIT", "0").env("OTEL_EXPORTER_OTLP_TIMEOUT", "0")
                    .env("OTEL_BSP_SCHEDULE_DELAY", "10ms").env("OTEL_BSP_MAX_QUEUE_SIZE", "4096");
            quiet.models((name, env) -> ScriptedModel.of(ScriptedModel.text("hi")));
            InProcessCli.Outcome outcome = quiet.run("run", "--json", "say hi");
            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
            assertThat(outcome.stderrLines()).noneMatch(line -> line.startsWith("rein: OpenTelemetry: "));
            otlp.awaitUntil(() -> !otlp.spans().isEmpty(), Duration.ofSeconds(10));
            assertThat(otlp.spans()).extracting(Span::getName).contains("invoke_agent rein");
        }
    }

    /**
     * SDK environment variables spec, Enum: an unrecognized value MUST be warned of and gracefully
     * ignored. OTEL_METRICS_EXEMPLAR_FILTER=sometimes (known values always_on, always_off, trace_based)
     * was taken as trace_based by the SDK without a word; it is said in one line and ignored.
     */
    @Test
    void anUnknownExemplarFilterIsSaidOnceAndIgnored() {
        InProcessCli cli = new InProcessCli().env("OTEL_TRACES_EXPORTER", "console").env("OTEL_METRICS_EXPORTER", "none")
                .env("OTEL_METRICS_EXEMPLAR_FILTER", "sometimes");
        cli.models((name, env) -> ScriptedModel.of(ScriptedModel.text("hi")));
        InProcessCli.Outcome outcome = cli.run("run", "--json", "say hi");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
        assertThat(outcome.stderrLines()).filteredOn(line -> line.startsWith("rein: OpenTelemetry: ")).singleElement()
                .satisfies(line -> assertThat(line).contains("OTEL_METRICS_EXEMPLAR_FILTER=sometimes").contains("ignored")
                        .contains("trace_based"));
        InProcessCli known = new InProcessCli().env("OTEL_TRACES_EXPORTER", "console").env("OTEL_METRICS_EXPORTER", "none")
                .env("OTEL_METRICS_EXEMPLAR_FILTER", "ALWAYS_OFF");
        known.models((name, env) -> ScriptedModel.of(ScriptedModel.text("hi")));
        assertThat(known.run("run", "--json", "say hi").stderrLines()).noneMatch(line -> line.startsWith("rein: OpenTelemetry: "));
    }

    /**
     * SDK environment variables spec, Enum: an unrecognized value MUST be warned of and gracefully
     * ignored. An OTLP protocol that is none of http/protobuf, grpc, http/json (OTEL_EXPORTER_OTLP_PROTOCOL=http,
     * a signal's own =protobuf), an OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE other than
     * cumulative, delta, lowmemory and an OTEL_EXPORTER_OTLP_METRICS_DEFAULT_HISTOGRAM_AGGREGATION other
     * than explicit_bucket_histogram, base2_exponential_bucket_histogram refused the run with exit code 2
     * ("Unsupported OTLP traces protocol: http", "Unrecognized aggregation temporality: sometimes").
     * Each is said in one line and ignored; a known one is read whatever its case.
     */
    @Test
    void anUnknownProtocolTemporalityOrHistogramAggregationIsSaidOnceAndIgnored() throws Exception {
        for (Map.Entry<String, String> c : List.of(Map.entry("OTEL_EXPORTER_OTLP_PROTOCOL", "http"),
                Map.entry("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "protobuf"),
                Map.entry("OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE", "sometimes"),
                Map.entry("OTEL_EXPORTER_OTLP_METRICS_DEFAULT_HISTOGRAM_AGGREGATION", "exponential"))) {
            try (OtlpReceiver otlp = OtlpReceiver.start()) {
                InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint()).env(c.getKey(), c.getValue());
                cli.models((name, env) -> ScriptedModel.of(ScriptedModel.text("hi")));
                InProcessCli.Outcome outcome = cli.run("run", "--json", "say hi");
                assertThat(outcome.exitCode()).as(c + ": " + outcome.stderr()).isZero();
                otlp.awaitUntil(() -> !otlp.spans().isEmpty() && !otlp.metrics().isEmpty(), Duration.ofSeconds(10));
                assertThat(otlp.spans()).as(c.toString()).extracting(Span::getName).contains("invoke_agent rein");
                assertThat(otlp.metrics()).as(c.toString()).isNotEmpty();
                assertThat(outcome.stderrLines()).as(c.toString()).filteredOn(line -> line.startsWith("rein: OpenTelemetry: "))
                        .singleElement().satisfies(line -> assertThat(line).contains(c.getKey() + "=" + c.getValue()).contains("ignored"));
            }
        }
        try (OtlpReceiver otlp = OtlpReceiver.start()) {
            InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint())
                    .env("OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE", "DELTA")
                    .env("OTEL_EXPORTER_OTLP_METRICS_DEFAULT_HISTOGRAM_AGGREGATION", "Base2_Exponential_Bucket_Histogram");
            cli.models((name, env) -> ScriptedModel.of(ScriptedModel.text("hi")));
            InProcessCli.Outcome outcome = cli.run("run", "--json", "say hi");
            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
            assertThat(outcome.stderrLines()).noneMatch(line -> line.startsWith("rein: OpenTelemetry: ") && !line.contains("ConnectException"));
            otlp.awaitUntil(() -> otlp.metrics().stream().anyMatch(m -> m.getName().equals("gen_ai.client.operation.duration")),
                    Duration.ofSeconds(10));
            assertThat(otlp.metrics()).filteredOn(m -> m.getName().equals("gen_ai.client.operation.duration")).first()
                    .satisfies(m -> assertThat(m.getExponentialHistogram().getAggregationTemporality())
                            .isEqualTo(io.opentelemetry.proto.metrics.v1.AggregationTemporality.AGGREGATION_TEMPORALITY_DELTA));
        }
    }

    @Test
    void aSamplerArgumentThatIsNotARatioIsSaidOnceAndIgnored() {
        // SDK environment variables spec, OTEL_TRACES_SAMPLER_ARG: "Invalid or unrecognized input MUST be
        // logged and MUST be otherwise ignored, i.e. the implementation MUST behave as if
        // OTEL_TRACES_SAMPLER_ARG is not set" (traceidratio then samples everything: ratio 1.0).
        for (String arg : List.of("abc", "2.5")) {
            InProcessCli cli = new InProcessCli().env("OTEL_TRACES_EXPORTER", "console").env("OTEL_METRICS_EXPORTER", "none")
                    .env("OTEL_TRACES_SAMPLER", "parentbased_traceidratio").env("OTEL_TRACES_SAMPLER_ARG", arg);
            cli.models((name, env) -> ScriptedModel.of(ScriptedModel.text("hi")));
            InProcessCli.Outcome outcome = cli.run("run", "--json", "say hi");
            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
            assertThat(outcome.stderr()).as(arg).contains("'invoke_agent rein'");
            assertThat(outcome.stderrLines()).filteredOn(line -> line.startsWith("rein: OpenTelemetry: ")).singleElement()
                    .satisfies(line -> assertThat(line).contains("OTEL_TRACES_SAMPLER_ARG=" + arg).contains("ignored"));
        }
    }

    /**
     * OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT takes the values OpenTelemetry's GenAI
     * instrumentations give it as well as true/false: SPAN_ONLY and SPAN_AND_EVENT record content
     * (Rein records it on the spans), NO_CONTENT does not, whatever their case. EVENT_ONLY asks for
     * a form Rein does not emit, and a value of neither kind is not silently taken as false: each is
     * said in one line, and no content is recorded.
     */
    @Test
    void theContentOptInTakesTheGenAiInstrumentationsValuesAndSaysWhatItCannotHonour() {
        for (String value : List.of("true", "TRUE", "SPAN_ONLY", "span_and_event", "false", "NO_CONTENT", "EVENT_ONLY", "yes")) {
            InProcessCli cli = new InProcessCli().env("OTEL_TRACES_EXPORTER", "console").env("OTEL_METRICS_EXPORTER", "none")
                    .env("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", value);
            cli.models((name, env) -> ScriptedModel.of(ScriptedModel.text("hi")));
            InProcessCli.Outcome outcome = cli.run("run", "--json", "say hi");
            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
            assertThat(outcome.stderr()).as(value).contains("'invoke_agent rein'");
            boolean captured = List.of("true", "TRUE", "SPAN_ONLY", "span_and_event").contains(value);
            assertThat(outcome.stderr().contains("gen_ai.input.messages")).as(value).isEqualTo(captured);
            List<String> said = outcome.stderrLines().stream().filter(line -> line.startsWith("rein: OpenTelemetry: ")).toList();
            if (value.equals("EVENT_ONLY") || value.equals("yes")) {
                assertThat(said).as(value).singleElement().satisfies(line -> assertThat(line)
                        .contains("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=" + value).contains("SPAN_ONLY"));
            } else {
                assertThat(said).as(value).isEmpty();
            }
        }
    }
    /**
     * A command whose collector was down returns without waiting for the exporter's retries (the flush waits at most
     * 5 s); those retries then fail through the SDK's JVM-wide logger. Before, their "Failed to export N metrics ...
     * ConnectException" was printed by the next command's handler, on that command's stderr, about a collector it never
     * used (CliTelemetryTest flaked so under load). Now each command's handler says only what its own SDK reports, and
     * nothing once the command has ended.
     */
    @Test
    void aCommandsLateExportFailuresAreNotPrintedByTheNextCommand() throws Exception {
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        InProcessCli down = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + port);
        down.models((name, env) -> ScriptedModel.of(ScriptedModel.text("hi")));
        InProcessCli.Outcome first = down.run("run", "--json", "say hi");
        assertThat(first.stderrLines()).filteredOn(line -> line.startsWith("rein: OpenTelemetry: ")).singleElement().asString()
                .contains("could not be reached");
        try (OtlpReceiver otlp = OtlpReceiver.start()) {
            // the next command lasts longer than the first one's abandoned retries (about 8 s after its flush began)
            InProcessCli up = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint());
            up.models((name, env) -> (request, context) -> {
                Thread.sleep(10_000);
                return ScriptedModel.of(ScriptedModel.text("こんにちは")).call(request, context);
            });
            InProcessCli.Outcome second = up.run("run", "--json", "挨拶して");
            assertThat(second.exitCode()).as(second.stderr()).isZero();
            assertThat(second.stdout()).contains("こんにちは");
            assertThat(second.stderrLines()).as(second.stderr()).noneMatch(line -> line.startsWith("rein: OpenTelemetry: "));
        }
    }
}
