package dev.rein.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * {@code ./test} and {@code .ci/run} run {@code mvn verify} on the root pom's default modules, so a module left out of
 * them (built only in a profile, as rein-bench was) has tests that nothing runs: the benchmark's verdict rules could
 * break unseen. Every module folder of the checkout ({@code rein-*} with a pom) is in the default reactor.
 */
class ReactorModulesTest {

    @Test
    void everyModuleFolderIsInTheDefaultBuildSoTestRunsItsTests() throws Exception {
        Path root = ModuleFolders.root();
        TreeSet<String> folders = new TreeSet<>();
        ModuleFolders.under(root).forEach(m -> folders.add(m.getFileName().toString()));
        assertThat(folders).as("module folders under " + root).contains("rein-core", "rein-bench");
        assertThat(new TreeSet<>(defaultModules(root.resolve("pom.xml"))))
                .as("the root pom's <modules> outside any profile (what ./test builds and tests)")
                .containsExactlyElementsOf(folders);
    }

    /** The {@code <module>} entries of the project's own {@code <modules>}, not those of a profile. */
    private static List<String> defaultModules(Path pom) throws Exception {
        var factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        Element project;
        try (var in = Files.newInputStream(pom)) {
            project = factory.newDocumentBuilder().parse(in).getDocumentElement();
        } catch (IOException e) {
            throw new IOException("cannot read " + pom, e);
        }
        List<String> modules = new ArrayList<>();
        for (Element list : children(project, "modules")) {
            for (Element module : children(list, "module")) {
                modules.add(module.getTextContent().strip());
            }
        }
        return modules;
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> found = new ArrayList<>();
        for (Node child = parent.getFirstChild(); child != null; child = child.getNextSibling()) {
            if (child instanceof Element element && element.getTagName().equals(name)) {
                found.add(element);
            }
        }
        return found;
    }
}
