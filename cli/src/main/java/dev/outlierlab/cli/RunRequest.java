package dev.outlierlab.cli;

import dev.outlierlab.config.InputException;
import dev.outlierlab.engine.profile.Capability;
import dev.outlierlab.engine.profile.Profile;
import dev.outlierlab.engine.profile.Profiles;
import dev.outlierlab.sim.RunWatcher;
import dev.outlierlab.sim.WorkEstimate;
import dev.outlierlab.sim.gateway.GatewayWorkEstimate;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code run} asks of a profile's {@link ProfileRunner}: the format and the number of decisions to show, the
 * options given (so a runner can refuse those it does not take), and the work limit and progress bar.
 */
public final class RunRequest {
    private final String format;
    private final int maxEvents;
    private final Path stagesFile;
    private final List<Used> used;
    private final WorkOptions work;
    private WorkOptions.Progress progress;
    private Path traceIn;

    /** An option given on the command line and the capability it needs. */
    record Used(String option, Capability needs) {}

    RunRequest(String format, int maxEvents, Path stagesFile, List<Used> used, WorkOptions work) {
        this.format = format;
        this.maxEvents = maxEvents;
        this.stagesFile = stagesFile;
        this.used = List.copyOf(used);
        this.work = work;
    }

    /** {@code text}, {@code json} or {@code csv}. */
    public String format() {
        return format;
    }

    /** How many decisions a text report shows ({@code --events}). */
    public int maxEvents() {
        return maxEvents;
    }

    /** This request replaying an outcome trace ({@code --trace-in FILE}) when {@code file} is not null. */
    RunRequest withTrace(Path file) {
        this.traceIn = file;
        return this;
    }

    /** {@code --trace-in FILE}, or null. */
    public Path traceIn() {
        return traceIn;
    }

    /** {@code --stages FILE}, or null. */
    public Path stagesFile() {
        return stagesFile;
    }

    /** The options given that need a capability, in the order of the help. */
    public List<String> optionsGiven() {
        return used.stream().map(Used::option).toList();
    }

    /** Refuses, with one message, every given option whose capability the profile does not list. */
    void refuseByCapabilities(Profile profile) {
        List<String> refused = new ArrayList<>();
        for (Used u : used) {
            if (!profile.capabilities().contains(u.needs())) {
                refused.add(u.option() + " (" + Profiles.namesThatCan(u.needs()) + ")");
            }
        }
        if (!refused.isEmpty()) {
            throw new InputException(String.join(", ", refused) + ": not taken by this scenario's profile, "
                    + profile.name() + "; the profiles that take each are in brackets");
        }
    }

    /** Refuses the run when its estimated work needs {@code --yes}, then starts the progress bar. */
    public RunWatcher start(WorkEstimate envoy, GatewayWorkEstimate gateway) {
        work.check(envoy, gateway, "this run");
        long units = Math.addExact(envoy.units(), WorkOptions.progressUnits(gateway));
        progress = WorkOptions.progress("run", units);
        return progress.next(units);
    }

    /** Ends the progress bar. */
    public void finish() {
        if (progress != null) {
            progress.finish();
        }
    }
}
