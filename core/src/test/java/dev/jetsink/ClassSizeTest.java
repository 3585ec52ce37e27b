package dev.jetsink;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** DESIGN.md "Class size": no main source file of core, server or testkit is longer than {@value #MAX_LINES} lines. */
class ClassSizeTest {
    private static final int MAX_LINES = 400;
    // tests run in the module directory: core's own sources and its neighbours'
    private static final List<Path> MAIN_SOURCES = List.of(Path.of("src/main/java"), Path.of("../server/src/main/java"),
        Path.of("../testkit/src/main/java"));

    @Test
    void noMainSourceFileIsLongerThanTheBound() throws IOException {
        List<Path> files = javaFiles(MAIN_SOURCES);
        assertThat(files).as("main source files read").hasSizeGreaterThan(250);
        assertThat(overBound(files)).as("files over " + MAX_LINES + " lines (DESIGN.md \"Class size\")").isEmpty();
    }

    @Test
    void aFileOfOneLineMoreIsReportedWithItsLength(@TempDir Path root) throws IOException {
        Path pkg = Files.createDirectories(root.resolve("dev/jetsink/x"));
        Files.writeString(pkg.resolve("AtTheBound.java"), "//\n".repeat(MAX_LINES));
        Files.writeString(pkg.resolve("OneOver.java"), "//\n".repeat(MAX_LINES + 1));
        assertThat(overBound(javaFiles(List.of(root)))).singleElement().asString()
            .endsWith("OneOver.java: " + (MAX_LINES + 1) + " lines");
    }

    private static List<Path> javaFiles(List<Path> roots) throws IOException {
        List<Path> files = new ArrayList<>();
        for (Path root : roots) {
            try (Stream<Path> walk = Files.walk(root)) {
                walk.filter(f -> f.toString().endsWith(".java")).sorted().forEach(files::add);
            }
        }
        return files;
    }

    private static List<String> overBound(List<Path> files) throws IOException {
        List<String> over = new ArrayList<>();
        for (Path f : files) {
            long lines;
            try (Stream<String> s = Files.lines(f)) {
                lines = s.count();
            }
            if (lines > MAX_LINES) {
                over.add(f + ": " + lines + " lines");
            }
        }
        return over;
    }
}
