package dev.outlierlab.tune;

import java.util.ArrayList;
import java.util.List;

/**
 * A unified diff of two texts, as {@code diff -u} prints it: {@code ---}/{@code +++} headers, then hunks headed
 * {@code @@ -a,b +c,d @@} with up to three lines of context around each change, every line prefixed with a space
 * (kept), {@code -} (only in the old text) or {@code +} (only in the new), the {@code -} lines of a change before the
 * {@code +} lines that replace them, by the longest common subsequence of lines. Files here are at most a few
 * thousand lines; the quadratic table is bounded by {@link #MAX_LINES}.
 */
final class LineDiff {
    /** Lines of context around each change. */
    static final int CONTEXT = 3;
    /** Texts longer than this many lines are compared as wholly replaced (the table would be too large). */
    static final int MAX_LINES = 4_000;

    private LineDiff() {}

    /** One line of the edit script: ' ', '-' or '+', the line, and its numbers in the old and new texts (1-based). */
    private record Op(char kind, String line, int oldLine, int newLine) {}

    static String diff(String oldName, String oldText, String newName, String newText) {
        List<String> a = oldText.lines().toList();
        List<String> b = newText.lines().toList();
        List<Op> ops = ops(a, b);
        if (ops.stream().allMatch(o -> o.kind == ' ')) {
            return "";
        }
        List<String> out = new ArrayList<>();
        out.add("--- " + oldName);
        out.add("+++ " + newName);
        int i = 0;
        while (i < ops.size()) {
            if (ops.get(i).kind == ' ') {
                i++;
                continue;
            }
            int start = Math.max(0, i - CONTEXT);
            int end = i;
            // extend the hunk while the next change is within twice the context
            while (true) {
                int next = end;
                while (next < ops.size() && ops.get(next).kind != ' ') {
                    next++;
                }
                int gap = next;
                while (gap < ops.size() && ops.get(gap).kind == ' ') {
                    gap++;
                }
                if (gap < ops.size() && gap - next <= 2 * CONTEXT) {
                    end = gap;
                    continue;
                }
                end = Math.min(ops.size(), next + CONTEXT);
                break;
            }
            List<Op> hunk = ops.subList(start, end);
            int oldStart = 0;
            int newStart = 0;
            int oldCount = 0;
            int newCount = 0;
            for (Op o : hunk) {
                if (o.kind != '+') {
                    oldStart = oldStart == 0 ? o.oldLine : oldStart;
                    oldCount++;
                }
                if (o.kind != '-') {
                    newStart = newStart == 0 ? o.newLine : newStart;
                    newCount++;
                }
            }
            oldStart = oldCount == 0 ? before(ops, start, true) : oldStart;
            newStart = newCount == 0 ? before(ops, start, false) : newStart;
            out.add("@@ -" + range(oldStart, oldCount) + " +" + range(newStart, newCount) + " @@");
            for (Op o : hunk) {
                out.add(o.kind + o.line);
            }
            i = end;
        }
        return String.join("\n", out) + "\n";
    }

    /** The line before an empty side of a hunk (diff -u's convention: {@code -3,0} inserts after line 3). */
    private static int before(List<Op> ops, int start, boolean old) {
        for (int k = start - 1; k >= 0; k--) {
            Op o = ops.get(k);
            if (old && o.kind != '+') {
                return o.oldLine;
            }
            if (!old && o.kind != '-') {
                return o.newLine;
            }
        }
        return 0;
    }

    private static String range(int start, int count) {
        return count == 1 ? Integer.toString(start) : start + "," + count;
    }

    private static List<Op> ops(List<String> a, List<String> b) {
        List<Op> out = new ArrayList<>();
        if ((long) a.size() * b.size() > (long) MAX_LINES * MAX_LINES) {
            for (int i = 0; i < a.size(); i++) {
                out.add(new Op('-', a.get(i), i + 1, 0));
            }
            for (int j = 0; j < b.size(); j++) {
                out.add(new Op('+', b.get(j), 0, j + 1));
            }
            return out;
        }
        int[][] lcs = new int[a.size() + 1][b.size() + 1];
        for (int i = a.size() - 1; i >= 0; i--) {
            for (int j = b.size() - 1; j >= 0; j--) {
                lcs[i][j] = a.get(i).equals(b.get(j)) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
            }
        }
        int i = 0;
        int j = 0;
        List<Op> removed = new ArrayList<>();
        List<Op> added = new ArrayList<>();
        while (i < a.size() || j < b.size()) {
            if (i < a.size() && j < b.size() && a.get(i).equals(b.get(j))) {
                flush(out, removed, added);
                out.add(new Op(' ', a.get(i), i + 1, j + 1));
                i++;
                j++;
            } else if (i < a.size() && (j == b.size() || lcs[i + 1][j] >= lcs[i][j + 1])) {
                removed.add(new Op('-', a.get(i), i + 1, 0));
                i++;
            } else {
                added.add(new Op('+', b.get(j), 0, j + 1));
                j++;
            }
        }
        flush(out, removed, added);
        return out;
    }

    /** A change's lines: what it removes, then what replaces it, as diff -u prints them. */
    private static void flush(List<Op> out, List<Op> removed, List<Op> added) {
        out.addAll(removed);
        out.addAll(added);
        removed.clear();
        added.clear();
    }
}
