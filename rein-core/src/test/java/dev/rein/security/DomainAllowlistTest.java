package dev.rein.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.json.Json;
import dev.rein.tool.ErrorClass;
import dev.rein.tool.PermissionDeniedException;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolCall;
import dev.rein.tool.ToolContext;
import dev.rein.tool.ToolExecutor;
import dev.rein.tool.ToolRegistry;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

class DomainAllowlistTest {
    private final DomainAllowlist allow = DomainAllowlist.of("example.com", "*.wikipedia.org", "例え.jp");

    @Test
    void exactHostsAndWildcardSubdomainsPass() {
        assertThat(allow.check("https://example.com/a?b=c")).isEmpty();
        assertThat(allow.check("https://EXAMPLE.com./x")).isEmpty();
        assertThat(allow.check("http://ja.wikipedia.org/wiki/X")).isEmpty();
        assertThat(allow.check("https://xn--r8jz45g.jp/")).isEmpty();
    }

    @Test
    void everythingElseIsRefusedWithAReason() {
        assertThat(allow.check("https://wikipedia.org/")).get().asString().contains("not on the allowlist");
        assertThat(allow.check("https://example.com.evil.net/")).isPresent();
        assertThat(allow.check("https://evil.net/?u=https://example.com")).isPresent();
        assertThat(allow.check("https://example.com@evil.net/")).isPresent();
        assertThat(allow.check("file:///etc/passwd")).get().asString().contains("only http and https");
        assertThat(allow.check("http://127.0.0.1/")).isPresent();
        assertThat(allow.check("not a url")).isPresent();
    }

    @Test
    void aHostWrittenInUnicodeIsComparedInItsIdnForm() {
        assertThat(allow.check("https://例え.jp/")).isEmpty();
        assertThat(allow.check("https://例え.jp:8443/検索?q=天気")).isEmpty();
        assertThat(allow.check("https://ja.ウィキ.wikipedia.org/")).isEmpty();
        assertThat(allow.check("https://例え.jp.evil.net/")).get().asString().contains("not on the allowlist");
        assertThat(allow.check("https://悪い.jp/")).get().asString().contains("host 'xn--").contains("not on the allowlist");
        assertThat(allow.check("https://ユーザー@例え.jp/")).get().asString().contains("user info");
        assertThat(allow.check("https://例え.jp;example.com/")).get().asString().contains("not a valid host name");
        assertThat(allow.check("https://例_え.jp/")).get().asString().contains("not a valid host name");
    }

    @Test
    void theFullStopsIdnaTakesForDotsSeparateLabelsInUrlsAndEntriesAlike() {
        // U+3002 (。), U+FF0E (．) and U+FF61 (｡) are label separators in IDNA (RFC 3490 3.1), as a Japanese IME types them:
        // a trailing one is a trailing dot, and a wildcard entry written with one is a wildcard
        assertThat(allow.check("https://example.com\u3002/x")).isEmpty();
        assertThat(allow.check("https://example\uff0ecom\uff61/x")).isEmpty();
        assertThat(allow.check("https://ja\u3002wikipedia\u3002org/wiki/X")).isEmpty();
        assertThat(allow.check("https://wikipedia\u3002org/")).get().asString().contains("host 'wikipedia.org' is not on");
        assertThat(allow.check("https://example.com\u3002evil.net/")).get().asString().contains("host 'example.com.evil.net'");

        DomainAllowlist typed = DomainAllowlist.of("*\u3002wikipedia\uff0eorg", "example\u3002com\u3002");
        assertThat(typed.describe()).isEqualTo("[example.com, *.wikipedia.org]");
        assertThat(typed.check("https://ja.wikipedia.org/")).isEmpty();
        assertThat(typed.check("https://wikipedia.org/")).isPresent();
        assertThat(typed.check("https://example.com/")).isEmpty();
    }

    @Test
    void badEntriesAreConfigurationErrors() {
        assertThatThrownBy(() -> DomainAllowlist.of("https://example.com/")).isInstanceOf(ReinException.class);
        assertThatThrownBy(() -> DomainAllowlist.of()).isInstanceOf(ReinException.class);
    }

    /**
     * Entries that could match no host ('*', '*.', an empty label, a '*' not leading, characters no host name has) were
     * accepted silently ('a..com' threw a bare IllegalArgumentException); now each is a ReinException naming the entry
     * and saying what to write.
     */
    @Test
    void entriesThatCanMatchNoHostAreRefusedSayingWhatToWrite() {
        for (String entry : List.of("*", "*.", "*\u3002", ".example.com", "a..com", "example.com..", "*.*.example.com",
                "api.*.example.com", "exa mple.com", "my_host.internal", "*.", "-a.com")) {
            assertThatThrownBy(() -> DomainAllowlist.of("example.org", entry)).as(entry).isInstanceOf(ReinException.class)
                    .hasMessageContaining("'" + entry + "'").hasMessageContaining("'example.com'")
                    .hasMessageContaining("'*.example.com' (its subdomains");
        }
        assertThat(DomainAllowlist.of("例え.jp", "*.com", "127.0.0.1", "[::1]", "example.com.").describe())
                .isEqualTo("[xn--r8jz45g.jp, 127.0.0.1, [::1], example.com, *.com]");
    }

    /**
     * A wildcard over a domain ending in a number ('*.0.1') matched IP addresses (10.0.0.1), which pass only when listed;
     * no top-level domain is a number, so such an entry is refused, saying to list the address itself.
     */
    @Test
    void aWildcardOverNumbersIsRefusedSinceItWouldMatchIpAddresses() {
        for (String entry : List.of("*.0.1", "*.1", "*.168.1.1")) {
            assertThatThrownBy(() -> DomainAllowlist.of(entry)).as(entry).isInstanceOf(ReinException.class)
                    .hasMessageContaining("'" + entry + "'").hasMessageContaining("IP address");
        }
        assertThat(DomainAllowlist.of("10.0.0.1").check("http://10.0.0.1/")).isEmpty();
        assertThat(DomainAllowlist.of("*.x1.example").check("http://a.x1.example/")).isEmpty();
    }

    @Test
    void verifyThrowsForHandlersAndTheGuardRefusesBeforeTheHandler() throws Exception {
        assertThatThrownBy(() -> allow.verify(URI.create("https://evil.net/"))).isInstanceOf(PermissionDeniedException.class);
        Tool fetch = Tool.builder("fetch").description("d")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"url\":{\"type\":\"string\"}}}")
                .handler((a, c) -> "fetched").build();
        ToolExecutor executor = ToolExecutor.builder(ToolRegistry.of(fetch)).interceptor(allow.guard("fetch", "url")).build();

        var refused = executor.execute(new ToolCall("c", "fetch", Json.parse("{\"url\":\"https://evil.net/\"}"), 0),
                ToolContext.standalone("c"));
        var allowed = executor.execute(new ToolCall("c", "fetch", Json.parse("{\"url\":\"https://example.com/\"}"), 0),
                ToolContext.standalone("c"));

        assertThat(refused.errorClass()).isEqualTo(ErrorClass.PERMISSION_DENIED);
        assertThat(allowed.content()).isEqualTo("fetched");
    }

    /** Null where a host list, an entry, a URL or a guard's names belong is a ReinException saying what to pass (a bare NullPointerException before). */
    @Test
    void nullIsRefusedNamingWhatToPass() {
        assertThatThrownBy(() -> DomainAllowlist.of((String[]) null)).isInstanceOf(ReinException.class).hasMessageContaining("example.com");
        assertThatThrownBy(() -> DomainAllowlist.of((java.util.List<String>) null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("example.com");
        assertThatThrownBy(() -> DomainAllowlist.of("example.com", null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("null").hasMessageContaining("example.com");
        assertThatThrownBy(() -> allow.check((String) null)).isInstanceOf(ReinException.class).hasMessageContaining("check");
        assertThatThrownBy(() -> allow.check((URI) null)).isInstanceOf(ReinException.class).hasMessageContaining("check");
        assertThatThrownBy(() -> allow.verify(null)).isInstanceOf(ReinException.class).hasMessageContaining("verify");
        assertThatThrownBy(() -> allow.guard(null, "url")).isInstanceOf(ReinException.class).hasMessageContaining("guard");
        assertThatThrownBy(() -> allow.guard("fetch", null)).isInstanceOf(ReinException.class).hasMessageContaining("guard");
    }

    /** The Guard record is public: made directly, a missing part is refused the same way, not met at the first call. */
    @Test
    void aGuardMadeDirectlyWithAMissingPartIsRefusedSayingWhatToPass() {
        assertThatThrownBy(() -> new DomainAllowlist.Guard(null, "fetch", "url")).isInstanceOf(ReinException.class)
                .hasMessageContaining("allowlist").hasMessageContaining("guard(");
        assertThatThrownBy(() -> new DomainAllowlist.Guard(allow, null, "url")).isInstanceOf(ReinException.class)
                .hasMessageContaining("tool");
        assertThatThrownBy(() -> new DomainAllowlist.Guard(allow, "fetch", null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("URL");
    }
}
