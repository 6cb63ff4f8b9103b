package dev.outlierlab.flink;

import dev.outlierlab.config.InputException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.Serializable;
import java.nio.file.FileSystems;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * The files the job reads, through Flink's file systems (local, {@code s3://}, {@code hdfs://}, ...): each log
 * argument is a file, a directory (its files, recursively, in name order) or a glob in its last part
 * ({@code s3://bucket/logs/*.log.gz}); numbered in that order, which is the order ties between files break in,
 * as {@code replay} breaks them by the order the logs are given. A path that does not exist or matches nothing
 * is bad input, refused before the job starts.
 */
final class FleetInputs {
    private FleetInputs() {}

    /** One file: its number, how the report names it (as given, or the directory as given and the name). */
    record Input(int index, String name, Path path) implements Serializable {}

    static List<Input> expand(List<String> logs) {
        List<Input> out = new ArrayList<>();
        for (String log : logs) {
            if ("-".equals(log)) {
                throw new InputException(
                        "-: standard input cannot be read by a Flink job; give files, directories or globs");
            }
            for (Named n : files(log)) {
                out.add(new Input(out.size(), n.name, n.path));
            }
        }
        return out;
    }

    private record Named(String name, Path path) {}

    private static List<Named> files(String log) {
        Path path = pathOf(log);
        try {
            FileSystem fs = path.getFileSystem();
            String last = path.getName();
            if (last.contains("*") || last.contains("?") || last.contains("[") || last.contains("{")) {
                PathMatcher glob = FileSystems.getDefault().getPathMatcher("glob:" + last);
                Path parent = path.getParent();
                String parentName = log.substring(0, Math.max(0, log.length() - last.length()));
                List<Named> out = new ArrayList<>();
                for (FileStatus s : sorted(list(fs, parent, log))) {
                    if (!s.isDir()
                            && glob.matches(java.nio.file.Path.of(s.getPath().getName()))) {
                        out.add(new Named(parentName + s.getPath().getName(), s.getPath()));
                    }
                }
                if (out.isEmpty()) {
                    throw new InputException(log + ": no file matches");
                }
                return out;
            }
            FileStatus status;
            try {
                status = fs.getFileStatus(path);
            } catch (FileNotFoundException e) {
                throw new InputException(log + ": no such file");
            }
            if (!status.isDir()) {
                return List.of(new Named(log, path));
            }
            List<Named> out = new ArrayList<>();
            walk(fs, status.getPath(), log.endsWith("/") ? log : log + "/", out, log);
            if (out.isEmpty()) {
                throw new InputException(log + ": the directory has no files");
            }
            return out;
        } catch (IOException e) {
            throw new InputException(log + ": cannot be read (" + e.getMessage() + ")");
        }
    }

    private static void walk(FileSystem fs, Path dir, String prefix, List<Named> out, String log) throws IOException {
        for (FileStatus s : sorted(list(fs, dir, log))) {
            String name = s.getPath().getName();
            if (name.startsWith(".") || name.startsWith("_")) {
                continue;
            }
            if (s.isDir()) {
                walk(fs, s.getPath(), prefix + name + "/", out, log);
            } else {
                out.add(new Named(prefix + name, s.getPath()));
            }
        }
    }

    private static FileStatus[] list(FileSystem fs, Path dir, String log) throws IOException {
        try {
            FileStatus[] found = fs.listStatus(dir);
            if (found == null) {
                throw new InputException(log + ": no such directory");
            }
            return found;
        } catch (FileNotFoundException e) {
            throw new InputException(log + ": no such directory");
        }
    }

    private static List<FileStatus> sorted(FileStatus[] statuses) {
        List<FileStatus> list = new ArrayList<>(Arrays.asList(statuses));
        list.sort(Comparator.comparing(s -> s.getPath().getName()));
        return list;
    }

    /** A path with a scheme as it is; without one, a local path made absolute (the workers share no directory). */
    static Path pathOf(String log) {
        if (log.matches("^[a-zA-Z][a-zA-Z0-9+.-]*://.*")) {
            return new Path(log);
        }
        java.nio.file.Path local = java.nio.file.Path.of(log).toAbsolutePath().normalize();
        return new Path(local.toUri());
    }
}
