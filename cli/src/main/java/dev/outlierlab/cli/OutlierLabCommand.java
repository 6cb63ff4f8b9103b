package dev.outlierlab.cli;

import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The top-level {@code outlier-lab} command: a list of subcommands; alone, it prints its usage. */
@Command(
        name = "outlier-lab",
        mixinStandardHelpOptions = true,
        versionProvider = VersionText.class,
        usageHelpWidth = 110,
        description = {
            "Shows what passive outlier detection (Envoy's outlier_detection, releases 1.26 to 1.40;"
                    + " grpc-java's outlier-detection policy; an LLM or API gateway's ejection stage; nginx's"
                    + " max_fails, HAProxy's observe, Caddy's passive health checks) will do to your traffic: a"
                    + " deterministic lab with synthetic or replayed traffic, every caller its own detector, every"
                    + " decision explained; checks of the configurations you deploy; a search for settings that fit"
                    + " your cluster; a live proxy.",
            ""
        },
        subcommands = {
            RunCommand.class,
            ReplayCommand.class,
            SweepCommand.class,
            TuneCommand.class,
            CheckCommand.class,
            ExportCommand.class,
            ServeCommand.class,
            ProxyCommand.class,
            picocli.CommandLine.HelpCommand.class,
            AutoComplete.GenerateCompletion.class
        },
        footer = {
            "",
            "Examples:",
            "  outlier-lab run",
            "      the built-in scenario (6 hosts, one failing 33 %%)",
            "  outlier-lab run --set outlier_detection.max_ejection_percent=34",
            "  outlier-lab run my-scenario.yaml --format json",
            "  outlier-lab run --clients 50",
            "      each of 50 calling pods its own detector",
            "  outlier-lab run --profile envoy,grpc",
            "      the same traffic under Envoy's and gRPC's rules",
            "  outlier-lab replay access.log --set outlier_detection.max_ejection_percent=34",
            "  outlier-lab sweep --vary outlier_detection.max_ejection_percent=10,20,34,100",
            "  outlier-lab tune --hosts 6 --rps 600",
            "      which settings catch a bad host here",
            "  outlier-lab check envoy.yaml --format sarif",
            "      findings for CI, exit 1 on errors",
            "  outlier-lab run --envoy envoy.yaml --cluster search",
            "  outlier-lab export > cluster.yaml",
            "  outlier-lab serve --open",
            "      the lab in the browser",
            "",
            "Run 'outlier-lab help COMMAND' for a command's options. Shell completion for bash and zsh:",
            "  source <(outlier-lab generate-completion)"
        })
public final class OutlierLabCommand implements Runnable {
    @Spec
    CommandSpec spec;

    /** A bare {@code outlier-lab} is a request for the usage, not a mistake. */
    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
