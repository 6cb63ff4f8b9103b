package dev.outlierlab.report.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.config.InputException;
import dev.outlierlab.report.ResultJson;
import dev.outlierlab.report.SweepTable;
import java.util.List;
import org.junit.jupiter.api.Test;

class FormatsTest {
    private static SweepTable table() {
        ObjectNode low = ResultJson.mapper().createObjectNode().put("ejections", 0);
        ObjectNode high = ResultJson.mapper().createObjectNode().put("ejections", 3);
        return new SweepTable(
                List.of("outlier_detection.max_ejection_percent"),
                List.of("ejections", "max ejected %"),
                List.of(
                        new SweepTable.Row(List.of("10"), List.of("0", "0.0"), low),
                        new SweepTable.Row(List.of("34"), List.of("3", "16.7"), high)));
    }

    private static String render(Formats<SweepTable> formats, String name) throws Exception {
        StringBuilder out = new StringBuilder();
        formats.renderer(name).render(table(), out);
        return out.toString();
    }

    @Test
    void eachFormatOfTheRegistryRendersTheResult() throws Exception {
        assertThat(SweepFormats.SWEEP.names()).containsExactly("text", "csv", "json");
        assertThat(SweepFormats.SWEEP.defaultName()).isEqualTo("text");
        assertThat(render(SweepFormats.SWEEP, "text"))
                .isEqualTo("outlier_detection.max_ejection_percent  ejections  max ejected %\n"
                        + "10                                              0            0.0\n"
                        + "34                                              3           16.7\n");
        assertThat(render(SweepFormats.SWEEP, "csv"))
                .isEqualTo(
                        "outlier_detection.max_ejection_percent,ejections,max_ejected_percent\n10,0,0.0\n34,3,16.7\n");
        assertThat(render(SweepFormats.SWEEP, "json"))
                .contains("\"varied\"", "\"outlier_detection.max_ejection_percent\" : 34", "\"ejections\" : 3");
    }

    @Test
    void aFormatNotOfferedIsRefusedWithTheOnesThatAre() {
        assertThatThrownBy(() -> SweepFormats.SWEEP.renderer("sarif"))
                .isInstanceOf(InputException.class)
                .hasMessage("--format sarif is not available for sweep; allowed: text, csv, json");
        Formats<SweepTable> narrower = SweepFormats.SWEEP.only("sweep on a pager", List.of("text"));
        assertThat(narrower.names()).containsExactly("text");
        assertThatThrownBy(() -> narrower.require("csv"))
                .hasMessage("--format csv is not available for sweep on a pager; allowed: text");
        assertThat(RunFormats.RUN.refusalText("x".repeat(500))).hasSizeLessThan(200);
    }

    @Test
    void theHelpListsEveryFormatWithItsLine() {
        assertThat(CheckFormats.CHECK.help())
                .containsExactly(
                        "Output: text, json, sarif (default text; see docs/output-formats.md).",
                        "  text: the findings by cluster, with fixes",
                        "  json: every finding with its numbers",
                        "  sarif: SARIF 2.1.0, for CI code-scanning annotations");
        assertThatThrownBy(() ->
                        Formats.<String>of("x").withText("text", "a", s -> s).withText("text", "b", s -> s))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
