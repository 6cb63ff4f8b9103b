package dev.outlierlab.check.proxies;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.outlierlab.check.Finding;
import dev.outlierlab.check.Rule;
import dev.outlierlab.check.ServerRule;
import dev.outlierlab.config.haproxy.HaproxyConfigReader;
import java.util.List;
import org.junit.jupiter.api.Test;

class HaproxyChecksTest {
    @Test
    void eachServerGetsItsSurpriseWithAFix() {
        List<Finding> f =
                HaproxyChecks.forBackend(HaproxyConfigReader.readText("""
                backend be
                  option httpchk GET /health
                  server a 10.0.0.1:80 observe layer7 error-limit 2 on-error mark-down
                  server b 10.0.0.2:80 check observe layer7
                  server c 10.0.0.3:80 check observe layer7 error-limit 3 on-error sudden-death
                  server d 10.0.0.4:80 check
                """, "haproxy.cfg", null), "haproxy.cfg");
        assertThat(f)
                .extracting(Finding::rule)
                .containsExactly(
                        ServerRule.HAPROXY_OBSERVE_WITHOUT_CHECK,
                        ServerRule.HAPROXY_CHECKS_CLEAR_ERRORS,
                        ServerRule.HAPROXY_FLAPS,
                        ServerRule.HAPROXY_NO_OBSERVE);
        assertThat(f.get(0).fix())
                .isEqualTo("server a 10.0.0.1:80 check observe layer7 error-limit 2 on-error " + "mark-down");
        assertThat(f.get(0).line()).isEqualTo(3);
        assertThat(f.get(1).message()).contains("below about 15 errors a second");
    }

    @Test
    void aBackupServerIsLeftOutWithANoteAtItsLine() {
        List<Finding> f =
                HaproxyChecks.forBackend(HaproxyConfigReader.readText("""
                defaults
                  default-server backup
                backend be
                  server a 10.0.0.1:80 check no-backup
                  server b 10.0.0.2:80 check no-backup cookie backup
                  server c 10.0.0.3:80 check
                """, "haproxy.cfg", null), "haproxy.cfg");
        assertThat(f)
                .filteredOn(x -> x.rule() == Rule.NOT_MODELLED)
                .extracting(Finding::line, Finding::file)
                .containsExactly(tuple(6, "haproxy.cfg"));
        assertThat(f.get(f.size() - 1).message())
                .startsWith("backup server c 10.0.0.3:80 is left out: HAProxy sends to it only when every active "
                        + "server is DOWN");
        assertThat(HaproxyConfigReader.readText("backend be\n  server a 10.0.0.1:80\n", "haproxy.cfg", null)
                        .notes())
                .isEmpty();
    }
}
