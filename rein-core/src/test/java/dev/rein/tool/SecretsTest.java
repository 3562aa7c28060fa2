package dev.rein.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SecretsTest {
    @Test
    void spellingsAreWorkedOutOnceAndNeverHoldTheValueItself() {
        String value = new String("wJalrXUtnFEMI/K7MDENG/bPxRfi<秘密>");
        java.util.List<String> spellings = Secrets.spellings(value);

        assertThat(spellings).containsExactlyElementsOf(Secrets.forms(value)).hasSizeGreaterThan(1);
        assertThat(spellings.get(spellings.size() - 1)).isEqualTo(value);
        assertThat(Secrets.spellings(new String(value))).as("the same list for an equal value").isSameAs(spellings);
        // The memo's keys are weak: a list that held the key instance would keep its entry forever.
        assertThat(spellings).allSatisfy(form -> assertThat(form).isNotSameAs(value));
        for (String v : java.util.List.of("plainvalue", "a/b\\c\"d", "秘密の鍵-東京", "tab\there")) {
            assertThat(Secrets.spellings(v)).as(v).containsExactlyElementsOf(Secrets.forms(v));
        }
        assertThat(Secrets.mask("a " + value + " b " + spellings.get(0), Map.of("k", value)))
                .isEqualTo("a [REDACTED:k] b [REDACTED:k]");
    }

    @Test
    void longerSecretsAreMaskedFirstSoAContainedSecretNeverLeaksHalfOfALongerOne() {
        String masked = Secrets.mask("a=abcd-efgh b=abcd", Map.of("short", "abcd", "long", "abcd-efgh"));
        assertThat(masked).isEqualTo("a=[REDACTED:long] b=[REDACTED:short]");
    }

    @Test
    void twoSecretsThatOverlapInTheTextAreBothMaskedWhole() {
        // The end of one key is the start of the other: masking one first left the rest of the other in clear
        // ("[REDACTED:a]-WXYZ-tok", 9 of its 13 characters).
        Map<String, String> secrets = Map.of("a", "tok-ABCD-1234", "b", "1234-WXYZ-tok");
        assertThat(Secrets.mask("x tok-ABCD-1234-WXYZ-tok y", secrets)).isEqualTo("x [REDACTED:a][REDACTED:b] y");
        assertThat(Secrets.mask("1234-WXYZ-tok-ABCD-1234", secrets)).isEqualTo("[REDACTED:b][REDACTED:a]");
        assertThat(Secrets.mask("\"秘密キー-秘密\" 秘密キー-秘密キー-秘密", Map.of("k", "秘密キー-秘密")))
                .isEqualTo("\"[REDACTED:k]\" [REDACTED:k]");
    }

    @Test
    void aSecretWithoutAValueIsRefusedByNameNotWithABareNullPointerException() {
        // the usual cause: a map filled from System.getenv of a variable that is not set
        Map<String, String> fromEnvironment = new java.util.HashMap<>();
        fromEnvironment.put("db_password", null);
        assertThatThrownBy(() -> Secrets.of(fromEnvironment)).isInstanceOf(ReinException.class)
                .hasMessageContaining("secret 'db_password' has no value (null)").hasMessageContaining("environment variable");
        Map<String, String> unnamed = new java.util.HashMap<>();
        unnamed.put(null, "long-enough-value");
        assertThatThrownBy(() -> Secrets.of(unnamed)).isInstanceOf(ReinException.class).hasMessageContaining("no name");
        assertThatThrownBy(() -> Secrets.of(null)).isInstanceOf(ReinException.class).hasMessageContaining("Secrets.NONE");
    }

    @Test
    void tooShortSecretsAreRefusedAtRegistration() {
        assertThatThrownBy(() -> Secrets.of(Map.of("pin", "123"))).isInstanceOf(ReinException.class)
                .hasMessageContaining("shorter than 4");
    }

    @Test
    void trackingLearnsValuesAsTheyAreHandedOut() {
        Secrets lazy = Secrets.tracking(name -> Optional.of("value-of-" + name));
        assertThat(lazy.known()).isEmpty();
        lazy.get("a");
        assertThat(lazy.known()).containsEntry("a", "value-of-a");
    }

    @Test
    void aKeyWithSlashesIsMaskedAsEncodersThatEscapeTheSlashWriteIt() {
        // An AWS-style secret key; PHP's json_encode writes every / as \/ (and non-ASCII as \\u).
        String key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
        String php = "{\"secret\":\"" + key.replace("/", "\\/") + "\"}";
        assertThat(Secrets.mask(php, Map.of("aws", key))).isEqualTo("{\"secret\":\"[REDACTED:aws]\"}");
        String phpUnicode = "\"p\\u00e4ss/w\\u00f6rd\"".replace("/", "\\/");
        assertThat(Secrets.mask(phpUnicode, Map.of("pw", "p\u00e4ss/w\u00f6rd"))).isEqualTo("\"[REDACTED:pw]\"");
    }

    @Test
    void aSecretWithHtmlCharactersIsMaskedAsHtmlSafeEncodersWriteIt() {
        // Go's encoding/json writes <, > and & as \\u003c, \\u003e and \\u0026 by default.
        String go = "{\"token\":\"a\\u0026b\\u003cc\\u003ed-1234\"}";
        assertThat(Secrets.mask(go, Map.of("t", "a&b<c>d-1234"))).isEqualTo("{\"token\":\"[REDACTED:t]\"}");
        assertThat(Secrets.mask("plain a&b<c>d-1234", Map.of("t", "a&b<c>d-1234"))).isEqualTo("plain [REDACTED:t]");
    }
    @Test
    void aSecretNameHoldingAClosingBracketIsRefusedAsItWouldEndItsMarkerEarly() {
        assertThatThrownBy(() -> Secrets.of(Map.of("a]bcdefgh", "sk-secretvalue"))).isInstanceOf(ReinException.class)
                .hasMessage("secret 'a]bcdefgh' has ']' in its name, which would end its [REDACTED:name] marker early:"
                        + " name it without ']'");
    }

    @Test
    void aSecretNameLongerThanAMarkerIsLookedForWithinIsRefused() {
        // a fence's cut looks for a marker's ']' within 128 characters of name: a longer name's marker reads as text there
        String longName = "n".repeat(129);
        assertThatThrownBy(() -> Secrets.of(Map.of(longName, "sk-secretvalue"))).isInstanceOf(ReinException.class)
                .hasMessage("secret '" + longName + "' has a name of 129 characters, longer than the 128 a"
                        + " [REDACTED:name] marker may name: give it a shorter name");
        assertThat(Secrets.of(Map.of("n".repeat(128), "sk-secretvalue")).known()).hasSize(1);
    }

    /**
     * A lookup's name that Secrets.of would refuse fails only when the lookup has a value for it, which could not be masked
     * with a whole marker ("[REDACTED:a]b]", a marker a quote's cut could show in half). With no value the answer is an
     * empty Optional as before, so a handler's orElse(default) keeps working (rev136 item 2: before, it threw too).
     */
    @Test
    void aLookupsBadNameFailsOnlyWhenItWouldHandOutAValue() {
        Secrets lookup = Secrets.tracking(name -> name.startsWith("unset") ? Optional.empty() : Optional.of("value-of-" + name));
        assertThatThrownBy(() -> lookup.get("a]bcdefgh")).isInstanceOf(ReinException.class)
                .hasMessage("secret 'a]bcdefgh' has ']' in its name, which would end its [REDACTED:name] marker early:"
                        + " name it without ']'");
        String longName = "n".repeat(129);
        assertThatThrownBy(() -> lookup.get(longName)).isInstanceOf(ReinException.class)
                .hasMessage("secret '" + longName + "' has a name of 129 characters, longer than the 128 a"
                        + " [REDACTED:name] marker may name: give it a shorter name");
        assertThat(lookup.get("unset]key")).isEmpty();
        assertThat(lookup.get("unset" + "n".repeat(124))).isEmpty();
        assertThat(lookup.known()).as("nothing refused is handed out or known").isEmpty();
        assertThat(lookup.get("n".repeat(128))).contains("value-of-" + "n".repeat(128));
        assertThat(lookup.known()).containsOnlyKeys("n".repeat(128));
        // the fixed sets never throw for a name they do not have, tracked or not
        Secrets fixed = Secrets.of(Map.of("key", "sk-secretvalue"));
        for (Secrets secrets : List.of(Secrets.NONE, fixed, Secrets.tracking(Secrets.NONE), Secrets.tracking(fixed))) {
            assertThat(secrets.get("a]b")).isEmpty();
            assertThat(secrets.get(longName)).isEmpty();
        }
    }

    /** A handler that asks for no name is told so in its own words, not in Secrets.of's (which speak of registering). */
    @Test
    void aHandlerAskingForNoNameIsToldToPassTheRegisteredName() {
        for (Secrets base : List.of(Secrets.NONE, Secrets.of(Map.of("key", "sk-secretvalue")), name -> Optional.empty())) {
            assertThatThrownBy(() -> Secrets.tracking(base).get(null)).isInstanceOf(ReinException.class)
                    .hasMessage("a tool handler asked for a secret with no name (null): pass the name the secret is"
                            + " registered under");
        }
    }
}
