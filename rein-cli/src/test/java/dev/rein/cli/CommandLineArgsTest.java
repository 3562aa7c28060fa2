package dev.rein.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class CommandLineArgsTest {
    /** /proc/self/cmdline: every argument of the process, each ended by a NUL byte. */
    private static byte[] cmdline(String... entries) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (String entry : entries) {
            out.writeBytes(entry.getBytes(StandardCharsets.UTF_8));
            out.write(0);
        }
        return out.toByteArray();
    }

    @Test
    void recoversArgumentsTheJvmDecodedAsAscii() {
        // What the JVM hands main() under LANG=C: each UTF-8 byte became a replacement character.
        String[] lost = {"run", "--json", "\uFFFD".repeat(6)};
        byte[] raw = cmdline("/usr/bin/java", "-cp", "x.jar", "dev.rein.cli.Rein", "run", "--json", "今日");

        assertThat(CommandLineArgs.recover(lost, raw)).containsExactly("run", "--json", "今日");
    }

    @Test
    void keepsTheArgumentsWhenTheCommandLineDoesNotLineUp() {
        String[] lost = {"run", "\uFFFD\uFFFD\uFFFD"};
        assertThat(CommandLineArgs.recover(lost, cmdline("java", "Main", "demo", "今"))).containsExactly(lost);
        assertThat(CommandLineArgs.recover(lost, cmdline("今"))).containsExactly(lost);
        byte[] invalidUtf8 = {'j', 0, 'r', 'u', 'n', 0, (byte) 0xE4, (byte) 0xBB, 0};
        assertThat(CommandLineArgs.recover(lost, invalidUtf8)).containsExactly(lost);
    }

    @Test
    void leavesCorrectlyDecodedArgumentsAlone() {
        // This JVM decodes with UTF-8 (the launcher and ./test make sure of it): nothing to recover.
        String[] args = {"run", "今日から100日後は何月何日?"};
        assertThat(CommandLineArgs.recover(args)).isSameAs(args);
    }

    @Test
    void anArgumentThatIsNotUtf8KeepsItsReplacementCharactersAndTheOthersAreRecovered() {
        String[] lost = {"run", "--system", "\uFFFD", "\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD"};
        ByteArrayOutputStream raw = new ByteArrayOutputStream();
        raw.writeBytes(cmdline("java", "dev.rein.cli.Rein", "run", "--system"));
        raw.write(0xff); // not UTF-8
        raw.write(0);
        raw.writeBytes(cmdline("今日"));
        assertThat(CommandLineArgs.recover(lost, raw.toByteArray())).containsExactly("run", "--system", "\uFFFD", "今日");
    }
}
