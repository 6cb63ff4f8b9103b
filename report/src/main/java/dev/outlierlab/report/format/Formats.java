package dev.outlierlab.report.format;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.Wording;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The output formats of one kind of result (a run, a replay, check's findings, a sweep, a search), each a name, a
 * line of help and its {@link Renderer}, in the order the help lists them; the first is the default. What a command
 * offers, what its {@code --help} says and what it refuses all come from here.
 *
 * @param <R> the result the renderers take
 */
public final class Formats<R> {
    /** One output format: its name (the value of {@code --format}), a line of help and its renderer. */
    public record Format<R>(String name, String help, Renderer<R> renderer) {}

    private final String what;
    private final Map<String, Format<R>> formats;

    private Formats(String what, Map<String, Format<R>> formats) {
        this.what = what;
        this.formats = formats;
    }

    /** No format yet, for the output of {@code what} (a command's name, as the refusals say it). */
    public static <R> Formats<R> of(String what) {
        return new Formats<>(what, new LinkedHashMap<>());
    }

    /** These formats and one more. */
    public Formats<R> with(String name, String help, Renderer<R> renderer) {
        Map<String, Format<R>> more = new LinkedHashMap<>(formats);
        if (more.put(name, new Format<>(name, help, renderer)) != null) {
            throw new IllegalArgumentException("format " + name + " is registered twice for " + what);
        }
        return new Formats<>(what, more);
    }

    /** These formats and one more that writes its output as one string. */
    public Formats<R> withText(String name, String help, Renderer.Text<R> renderer) {
        return with(name, help, renderer);
    }

    /**
     * The formats of this list that a narrower case offers ({@code what}: the case, as a refusal names it, such as
     * "run of a profile: gateway scenario").
     */
    public Formats<R> only(String what, Collection<String> names) {
        Map<String, Format<R>> kept = new LinkedHashMap<>();
        for (Format<R> f : formats.values()) {
            if (names.contains(f.name())) {
                kept.put(f.name(), f);
            }
        }
        return new Formats<>(what, kept);
    }

    /** The names, the default first. */
    public List<String> names() {
        return List.copyOf(formats.keySet());
    }

    /** The default format's name (the first registered). */
    public String defaultName() {
        return formats.keySet().iterator().next();
    }

    /** Whether {@code name} is offered. */
    public boolean has(String name) {
        return formats.containsKey(name);
    }

    /** The case these formats are for, as refusals name it. */
    public String what() {
        return what;
    }

    /** The renderer of {@code name}; a name not offered is refused with the names that are. */
    public Renderer<R> renderer(String name) {
        Format<R> f = formats.get(name);
        if (f == null) {
            throw refusal(name);
        }
        return f.renderer();
    }

    /** Refuses {@code name} if it is not offered here. */
    public void require(String name) {
        renderer(name);
    }

    /** The one message for a format not offered: {@code --format sarif is not available for run; allowed: text, json}. */
    public InputException refusal(String name) {
        return new InputException(refusalText(name));
    }

    /** The text of {@link #refusal}. */
    public String refusalText(String name) {
        return "--format " + Wording.shortPrefix(name) + " is not available for " + what + "; allowed: "
                + String.join(", ", formats.keySet());
    }

    /** The help lines of {@code --format}: one per format, the default marked. */
    public List<String> help() {
        List<String> lines = new ArrayList<>();
        lines.add("Output: " + String.join(", ", formats.keySet()) + " (default " + defaultName()
                + "; see docs/output-formats.md).");
        for (Format<R> f : formats.values()) {
            lines.add("  " + f.name() + ": " + f.help());
        }
        return lines;
    }
}
