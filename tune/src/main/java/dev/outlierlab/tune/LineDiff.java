package dev.outlierlab.tune;

import java.util.ArrayList;
import java.util.List;

/**
 * A line diff of two texts in the unified style without line numbers: {@code ---}/{@code +++} headers, then every
 * line prefixed with a space (kept), {@code -} (only in the old text) or {@code +} (only in the new), by the longest
 * common subsequence of lines. Files here are a few dozen lines, so the quadratic table is small.
 */
final class LineDiff {
    private LineDiff() {
    }

    static String diff(String oldName, String oldText, String newName, String newText) {
        List<String> a = oldText.lines().toList();
        List<String> b = newText.lines().toList();
        int[][] lcs = new int[a.size() + 1][b.size() + 1];
        for (int i = a.size() - 1; i >= 0; i--) {
            for (int j = b.size() - 1; j >= 0; j--) {
                lcs[i][j] = a.get(i).equals(b.get(j)) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
            }
        }
        List<String> out = new ArrayList<>();
        out.add("--- " + oldName);
        out.add("+++ " + newName);
        int i = 0;
        int j = 0;
        boolean changed = false;
        List<String> removed = new ArrayList<>();
        List<String> added = new ArrayList<>();
        while (i < a.size() || j < b.size()) {
            if (i < a.size() && j < b.size() && a.get(i).equals(b.get(j))) {
                flush(out, removed, added);
                out.add(" " + a.get(i));
                i++;
                j++;
            } else if (i < a.size() && (j == b.size() || lcs[i + 1][j] >= lcs[i][j + 1])) {
                removed.add("-" + a.get(i++));
                changed = true;
            } else {
                added.add("+" + b.get(j++));
                changed = true;
            }
        }
        flush(out, removed, added);
        return changed ? String.join("\n", out) + "\n" : "";
    }

    /** A change's lines: what it removes, then what replaces it, as diff -u prints them. */
    private static void flush(List<String> out, List<String> removed, List<String> added) {
        out.addAll(removed);
        out.addAll(added);
        removed.clear();
        added.clear();
    }
}
