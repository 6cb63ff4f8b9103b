package dev.outlierlab.check.proxies;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.check.Finding;
import dev.outlierlab.check.Rule;
import dev.outlierlab.check.ServerRule;
import dev.outlierlab.config.nginx.NginxUpstreamReader;
import java.util.List;
import org.junit.jupiter.api.Test;

class NginxChecksTest {
    private static List<Finding> check(String conf) {
        return NginxChecks.forUpstream(NginxUpstreamReader.readText(conf, "nginx.conf", null));
    }

    @Test
    void theDefaultsCountNo5xxAndEachWorkerCountsAlone() {
        List<Finding> f = check("""
                worker_processes 4;
                http {
                    upstream api {
                        server 10.0.0.1:8080 max_fails=3;
                        server 10.0.0.2:8080;
                    }
                    server { location / { proxy_pass http://api; } }
                }
                """);
        assertThat(f)
                .extracting(Finding::rule)
                .containsExactly(
                        ServerRule.NGINX_5XX_NOT_COUNTED,
                        ServerRule.NGINX_MAX_FAILS_NOT_CONSECUTIVE,
                        ServerRule.NGINX_PER_WORKER_COUNTS,
                        ServerRule.NGINX_ALL_DOWN_502);
        assertThat(f.get(0).fix()).isEqualTo("proxy_next_upstream error timeout http_500 http_502 http_503 http_504;");
        assertThat(f.get(0).line()).isEqualTo(7);
        assertThat(f.get(1).line()).isEqualTo(4);
        assertThat(f.get(2).fix()).contains("zone api 64k;");
    }

    @Test
    void listingStatusesRetriesAndOneTryNeverCounts() {
        List<Finding> f = check("""
                http {
                    upstream api { zone api 64k; server a:80; server b:80; }
                    server { location / { proxy_pass http://api;
                        proxy_next_upstream error timeout http_500 http_502 http_503 http_504; } }
                }
                """);
        assertThat(f)
                .extracting(Finding::rule)
                .containsExactly(ServerRule.NGINX_RETRY_HIDES_FAILURES, ServerRule.NGINX_ALL_DOWN_502);
        List<Finding> one = check("""
                http {
                    upstream api { server a:80; server b:80; }
                    proxy_next_upstream_tries 1;
                    server { location / { proxy_pass http://api;
                        proxy_next_upstream error timeout http_500 http_502 http_503 http_504; } }
                }
                """);
        assertThat(one)
                .extracting(Finding::rule)
                .contains(ServerRule.NGINX_ONE_TRY)
                .doesNotContain(ServerRule.NGINX_RETRY_HIDES_FAILURES);
    }

    @Test
    void aOneServerUpstreamIsFlaggedAlone() {
        List<Finding> f = check("http { upstream api { server a:80 max_fails=0; } }");
        // and the reader's note that no location passes to it
        assertThat(f).extracting(Finding::rule).containsExactly(ServerRule.NGINX_SINGLE_SERVER, Rule.NOT_MODELLED);
    }

    @Test
    void oneServerAndABackupIsCountedAndTheAllDownNoteNamesTheBackup() {
        List<Finding> f = check("""
                http {
                    upstream api {
                        server 10.0.0.1:8080;
                        server 10.0.0.3:8080 backup;
                    }
                    server { location / { proxy_pass http://api; proxy_next_upstream error timeout http_503; } }
                }
                """);
        assertThat(f)
                .extracting(Finding::rule)
                .containsExactly(
                        ServerRule.NGINX_5XX_NOT_COUNTED,
                        ServerRule.NGINX_RETRY_HIDES_FAILURES,
                        ServerRule.NGINX_ALL_DOWN_502);
        Finding allDown = f.get(2);
        assertThat(allDown.message()).contains("sends to the backup server 10.0.0.3:8080");
        assertThat(allDown.fix()).isNull();
        assertThat(allDown.numbers()).containsEntry("servers", 1L).containsEntry("backups", 1L);
        assertThat(f.get(1).numbers()).containsEntry("tries", 2L); // the server and its backup
        List<Finding> alone = check("""
                http {
                    upstream api { server 10.0.0.1:8080; }
                    server { location / { proxy_pass http://api; proxy_next_upstream error timeout http_503; } }
                }
                """);
        assertThat(alone).extracting(Finding::rule).containsExactly(ServerRule.NGINX_SINGLE_SERVER);
    }

    @Test
    void whatTheReaderDoesNotModelIsANoteAtItsLine() {
        List<Finding> f = check("""
                worker_processes auto;
                http {
                    upstream api {
                        least_conn;
                        server 10.0.0.1:8080;
                        server 10.0.0.2:8080;
                    }
                }
                """);
        List<Finding> notes =
                f.stream().filter(x -> x.rule() == Rule.NOT_MODELLED).toList();
        assertThat(notes).extracting(Finding::line).containsExactly(1, 4, 3);
        assertThat(notes).extracting(Finding::file).containsOnly("nginx.conf");
        assertThat(notes.get(0).message()).startsWith("worker_processes auto is one worker per core");
        assertThat(notes.get(1).message()).startsWith("least_conn balances differently");
        assertThat(notes.get(2).message()).startsWith("no location passes to upstream \"api\"");
    }
}
