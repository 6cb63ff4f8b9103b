package dev.outlierlab.config.haproxy;

/**
 * The note for a HAProxy {@code backup} server, which the lab leaves out. In HAProxy 2.6 a backup server takes
 * traffic only when no active server is usable: {@code recount_servers} ({@code src/backend.c}) counts the usable
 * active and backup servers apart and remembers the first usable backup ({@code lbprm.fbck}) unless
 * {@code option allbackups}; {@code update_backend_weight} balances over the active servers while there is one,
 * else over that first backup alone, else over every backup ({@code option allbackups}). The lab models the active
 * servers only, so a backend whose servers all go DOWN answers 503 in the lab where HAProxy would send to its
 * backup.
 */
final class BackupNote {
    private BackupNote() {}

    static String of(String name, String address) {
        return "backup server " + name + " " + address + " is left out: HAProxy sends to it only when every active "
                + "server is DOWN (the first backup alone unless option allbackups), which the lab does not model; "
                + "its runs answer 503 where HAProxy would use the backup";
    }
}
