package dev.outlierlab.config.scenario;

import dev.outlierlab.sim.gateway.GatewayScenario;
import java.util.ArrayList;
import java.util.List;

/**
 * The gateway profile's controlled comparisons: the statements of spec gateway-profile section 7 (and a few
 * neighbours), each a change to the default scenario under {@code profile: gateway} written as {@code --set}
 * overrides. Defined once: the golden report {@code docs/gateway-comparisons.md} renders them and the browser
 * lab offers them as presets.
 */
public final class GatewayComparisons {
    /**
     * One comparison.
     *
     * @param id   a short stable name for links and buttons, e.g. {@code two-one-dead}
     * @param name the report's row title
     * @param sets the {@code --set KEY=VALUE} overrides after {@code profile=gateway}
     * @param hint what to look for, in one line
     */
    public record Comparison(String id, String name, List<String> sets, String hint) {
        public Comparison {
            sets = List.copyOf(sets);
        }

        /** The overrides with {@code profile=gateway} first, as {@code run --set} takes them. */
        public List<String> overrides() {
            List<String> all = new ArrayList<>();
            all.add("profile=gateway");
            all.addAll(sets);
            return all;
        }

        /** The scenario this comparison runs, every default filled in. */
        public GatewayScenario scenario() {
            return ScenarioReader.defaultsProfiled(overrides()).gateway();
        }
    }

    private static final String TWO = "cluster.hosts=[azure, openai]";
    private static final String DEAD = "faults[0].error_rate=100";
    private static final List<Comparison> ALL = List.of(
            new Comparison(
                    "two-one-bad",
                    "Two providers, one failing 33 %",
                    List.of(TWO),
                    "Two endpoints: the 2 sigma rule cannot fire (no value lies more than 1 stdev from the mean of two), "
                            + "and a third of requests failing evenly is never 3 in a row: nothing is ejected."),
            new Comparison(
                    "two-one-dead",
                    "Two providers, one dead",
                    List.of(TWO, "faults[0].hosts=1", DEAD),
                    "The hard trip ejects azure on its third failure in a row, and traffic moves to openai for 30 s."),
            new Comparison(
                    "two-others",
                    "Two providers, peer_set others",
                    List.of(TWO, "gateway.peer_set=others"),
                    "Leave-one-out lets two endpoints compare, but one peer has a stdev of 0, below min_stdev 1."),
            new Comparison(
                    "two-others-min0",
                    "Two providers, peer_set others, min_stdev 0",
                    List.of(TWO, "gateway.peer_set=others", "gateway.min_stdev=0"),
                    "Without the floor, one failure more than a perfect peer ejects azure."),
            new Comparison(
                    "one-dead",
                    "One endpoint, dead",
                    List.of("cluster.hosts=[only]", "faults[0].hosts=1", DEAD),
                    "The hard trip ejects the only endpoint, and the guard keeps it in every candidate list (kept_all)."),
            new Comparison(
                    "four-one-bad",
                    "Four endpoints, one bad",
                    List.of("cluster.hosts=4"),
                    "Two to four endpoints: the statistical rule never fires (sqrt(3) = 1.73 < 2)."),
            new Comparison(
                    "five-one-bad",
                    "Five endpoints, one bad",
                    List.of("cluster.hosts=5"),
                    "Five endpoints: exactly 2 stdev at most, so it fires only on a tie that rounding decides."),
            new Comparison(
                    "six-one-bad",
                    "Six endpoints, one bad",
                    List.of(),
                    "Six endpoints: the statistical rule ejects the bad one (sqrt(5) = 2.24 > 2)."),
            new Comparison(
                    "six-shadow",
                    "Six, shadow",
                    List.of("gateway.mode=shadow"),
                    "Shadow names the endpoint prod would remove, at the same moments, and changes no routing."),
            new Comparison(
                    "six-off",
                    "Six, mode off",
                    List.of("gateway.mode=off"),
                    "Off: outcomes are not recorded and nothing is ejected."),
            new Comparison(
                    "six-two-processes",
                    "Six, two processes",
                    List.of("gateway.processes=2"),
                    "Two processes with alternating requests eject the same endpoint at different moments."),
            new Comparison(
                    "six-ordered",
                    "Six, ordered routing",
                    List.of("routing.strategy=ordered"),
                    "Ordered routing sends everything to the first endpoint: the others cannot be scored."),
            new Comparison(
                    "six-all-bad",
                    "Six all failing 33 %",
                    List.of("faults[0].hosts=6"),
                    "A uniformly bad pool ejects nobody statistically."),
            new Comparison(
                    "six-all-bad-min0",
                    "Six all failing 33 %, min_stdev 0",
                    List.of("faults[0].hosts=6", "gateway.min_stdev=0"),
                    "Without min_stdev, one-failure differences in a pool failing evenly get ejected: why the floor exists."));

    private GatewayComparisons() {}

    public static List<Comparison> all() {
        return ALL;
    }
}
