package dev.outlierlab.cli;

import dev.outlierlab.check.CheckInputs;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.Wording;
import dev.outlierlab.config.io.TextFiles;
import dev.outlierlab.engine.profile.Profiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The files {@code check} is given, read: a file, {@code -} for standard input, or a directory for every
 * {@code .yaml}, {@code .yml} and {@code .json} file under it. One file that cannot be read is the run's one message
 * (exit 2, nothing on standard output); among several files or a directory, every file is checked and the ones that
 * cannot be read are named at the end.
 */
final class CheckFiles {
    /** Most files read from directories in one run. */
    static final int MAX_FILES = 10_000;

    private CheckFiles() {}

    /** How one file's text is read: its text, its name, and whether it was found in a directory. */
    @FunctionalInterface
    interface Reader {
        CheckInputs.Loaded read(String text, String source, boolean inDirectory);
    }

    /**
     * Every file named, read by {@code reader}, in order (a directory's files in name order); {@code skipped} gets,
     * one line each, the entries of a directory that are not read because they are not regular files (a FIFO, a
     * socket, a symbolic link to a directory or to nothing), e.g. {@code skipped dir/fifo: not a regular file}.
     */
    static List<CheckInputs.Loaded> readAll(List<String> files, Reader reader, Consumer<String> skipped) {
        List<CheckInputs.Loaded> loaded = new ArrayList<>();
        boolean several =
                files.size() > 1 || files.stream().anyMatch(f -> !f.equals("-") && Files.isDirectory(Path.of(f)));
        for (String name : files) {
            if (name.equals("-")) {
                read(loaded, several, reader, "-", () -> InputFiles.readText(Path.of(InputFiles.STDIN)), false);
                continue;
            }
            Path path = Path.of(name);
            if (Files.isDirectory(path)) {
                Found found;
                try {
                    found = configFiles(path, name);
                } catch (InputException e) {
                    if (files.size() == 1) {
                        throw e; // the run's only input: its one message
                    }
                    loaded.add(CheckInputs.unreadable(name, e, false));
                    continue;
                }
                found.skipped().forEach(skipped);
                for (Path f : found.files()) {
                    read(loaded, several, reader, f.toString(), () -> InputFiles.readText(f), true);
                }
            } else {
                read(loaded, several, reader, name, () -> InputFiles.readText(path), false);
            }
        }
        return loaded;
    }

    /** Reads one file into {@code loaded}; among several, a file that cannot be read is recorded, not thrown. */
    private static void read(
            List<CheckInputs.Loaded> loaded,
            boolean several,
            Reader reader,
            String source,
            Supplier<String> text,
            boolean inDirectory) {
        try {
            loaded.add(reader.read(text.get(), source, inDirectory).from(source));
        } catch (InputException e) {
            if (!several) {
                throw e;
            }
            loaded.add(CheckInputs.unreadable(source, e));
        }
    }

    /** What check reads in a directory, for the message about one that holds none of it. */
    static final String READS_IN_DIRECTORY =
            ".yaml, .yml and .json files, nginx*.conf, haproxy*.cfg and Caddyfile, in subdirectories too (hidden ones"
                    + " skipped)";

    /**
     * A directory's configuration files, in name order, and what was skipped in it that might have been one (one
     * line each, in name order).
     */
    record Found(List<Path> files, List<String> skipped) {}

    /**
     * The configuration files under a directory, in name order, skipping hidden directories: .yaml, .yml and .json
     * files and the files a server profile names ({@link CheckFile#namedLike}). An entry that is neither a regular file
     * nor a directory is skipped and said: a FIFO or socket (reading one waits for a writer that may never come), a
     * symbolic link to a directory (not followed, as the walk follows none, so a link cannot loop) or to nothing. A
     * symbolic link to a regular file is read. {@code given} is the directory as the user wrote it, for the message
     * when it holds none.
     */
    static Found configFiles(Path dir, String given) {
        // a directory named through a symbolic link is walked as the directory it names (the walk itself follows no
        // link, so it would see only the link); its files keep the name the user gave
        Path root;
        try {
            root = Files.isSymbolicLink(dir) ? dir.toRealPath() : dir;
        } catch (IOException e) {
            throw TextFiles.explain(Path.of(given), "", e);
        }
        try (Stream<Path> walk = Files.walk(root)) {
            List<Path> visible = walk.map(p -> dir.resolve(root.relativize(p)))
                    .filter(p -> !dir.relativize(p).toString().matches("(.*/)?\\..*"))
                    .toList();
            List<Path> regular = visible.stream().filter(Files::isRegularFile).toList();
            List<String> skipped = visible.stream()
                    .filter(p -> !p.equals(dir))
                    .sorted()
                    .map(p -> {
                        String why = whySkipped(p);
                        return why == null ? null : Wording.printable("skipped " + p + ": " + why);
                    })
                    .filter(line -> line != null)
                    .toList();
            List<Path> out = regular.stream()
                    .filter(p -> p.getFileName().toString().matches(".*\\.(ya?ml|json)")
                            || Profiles.withFacet(CheckFile.class).stream()
                                    .anyMatch(f -> f.facet(CheckFile.class)
                                            .orElseThrow()
                                            .namedLike(p.getFileName().toString())))
                    .sorted()
                    .limit(MAX_FILES + 1L)
                    .toList();
            if (out.size() > MAX_FILES) {
                throw new InputException(
                        given + ": more than " + MAX_FILES + " configuration files; check a smaller directory");
            }
            if (out.isEmpty()) {
                throw new InputException(given + ": no configuration file in this directory ("
                        + whatItHolds(dir, regular, skipped) + "); check reads " + READS_IN_DIRECTORY);
            }
            return new Found(out, skipped);
        } catch (IOException | UncheckedIOException e) {
            throw TextFiles.explain(
                    Path.of(given), "", e instanceof UncheckedIOException u ? u.getCause() : (IOException) e);
        }
    }

    /** What a directory with no configuration file holds instead, for its message. */
    private static String whatItHolds(Path dir, List<Path> regular, List<String> skipped) {
        if (regular.isEmpty() && !skipped.isEmpty()) {
            return "it holds no regular file: " + skipped.get(0).substring("skipped ".length())
                    + (skipped.size() > 1 ? " and " + (skipped.size() - 1) + " more skipped" : "");
        }
        if (regular.isEmpty()) {
            return "it is empty";
        }
        String first = regular.stream()
                .map(p -> dir.relativize(p).toString())
                .sorted()
                .findFirst()
                .orElseThrow();
        return regular.size()
                + (regular.size() == 1 ? " other file, " : " other files, e.g. ")
                + Wording.printable(first);
    }

    /** Why a directory's entry is not read, or null when it is a regular file (or a link to one) or a directory. */
    private static String whySkipped(Path p) {
        if (Files.isSymbolicLink(p)) {
            if (Files.isDirectory(p)) {
                return "a symbolic link to a directory (not followed)";
            }
            if (!Files.exists(p)) {
                return "a symbolic link to nothing";
            }
        }
        return Files.isRegularFile(p) || Files.isDirectory(p) ? null : "not a regular file";
    }
}
