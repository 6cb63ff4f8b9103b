package dev.outlierlab.check.proxies;

import dev.outlierlab.check.Finding;
import dev.outlierlab.check.Rule;
import dev.outlierlab.check.Severity;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a proxy configuration reader read but the lab does not model, as {@code check}'s
 * {@link Rule#NOT_MODELLED} notes: each reader note is "FILE:LINE: sentence" (or a sentence alone), and becomes a
 * note about that file and line.
 */
public final class ReaderNotes {
    private static final Pattern AT = Pattern.compile("^([^\\n]*?):([0-9]+): (.*)$", Pattern.DOTALL);

    private ReaderNotes() {}

    /**
     * The notes of one read, about {@code source} (the file as given) unless a note names another file (an
     * included one); a note with no place is put at {@code defaultLine}.
     */
    public static List<Finding> of(List<String> notes, String source, int defaultLine) {
        List<Finding> out = new ArrayList<>();
        Path given = Path.of(source).getFileName();
        for (String note : notes) {
            Matcher m = AT.matcher(note);
            String file = source;
            int line = defaultLine;
            String message = note;
            if (m.matches()) {
                file = m.group(1).equals(source) || given != null && m.group(1).equals(given.toString())
                        ? source
                        : m.group(1);
                line = Integer.parseInt(m.group(2));
                message = m.group(3);
            }
            out.add(new Finding(Rule.NOT_MODELLED, Severity.NOTE, "", message, Map.of(), null, file, line, List.of()));
        }
        return out;
    }
}
