package dev.outlierlab.tune;

import dev.outlierlab.check.CheckInputs;
import dev.outlierlab.check.CheckTarget;
import dev.outlierlab.check.FixStyle;
import dev.outlierlab.config.InputException;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.profile.Profiles;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where a recommendation goes and what it can say there: one file format a profile's settings are deployed in (an
 * Envoy cluster, an Istio DestinationRule, a gRPC service config, a gateway configuration, ...). A profile contributes
 * its targets through its {@link TuneTargets} facet; {@code --target} takes the flags of every registered one. A
 * target says what its file can express as a positive set ({@link TargetCapabilities}), writes a {@link Setting} in its own format
 * and reads it back with the project's reader for that format (which gives the settings the simulation runs, as a
 * {@link RunProfile}), and answers the few questions where targets differ; the defaults are those of Envoy's
 * outlier-detection fields, which the search shares as its vocabulary.
 */
public interface Target extends TargetCapabilities {
    /**
     * The settings and what was written: the file's text, the Envoy settings and panic threshold it gives (for gRPC,
     * its settings in Envoy's fields; unused for a profile with settings of its own) and the profile the simulation
     * runs it under.
     */
    record Written(String text, OutlierDetectionConfig config, double panicThresholdPercent, RunProfile profile) {
        public Written(String text, OutlierDetectionConfig config, double panicThresholdPercent) {
            this(text, config, panicThresholdPercent, RunProfile.ENVOY);
        }
    }

    /** The value of {@code --target}. */
    String flag();

    /** The file in words, e.g. {@code an Envoy cluster}. */
    String description();

    /**
     * Writes the setting for the request's cluster and Envoy release and reads it back: a field the release does not
     * have is not written (the release's default applies), so the file is one that release accepts. A target whose
     * settings are its own keeps the current profile's ({@code current}) other parts, which the search does not
     * change.
     *
     * @throws InputException when the target's reader refuses it (a defect of the writer)
     */
    Written write(
            Setting s,
            String name,
            int hosts,
            OutlierDetectionConfig base,
            double panicThresholdPercent,
            RunProfile current,
            EnvoyVersion version);

    /** {@link #write} for the release the lab defaults to. */
    default Written write(
            Setting s,
            String name,
            int hosts,
            OutlierDetectionConfig base,
            double panicThresholdPercent,
            RunProfile current) {
        return write(s, name, hosts, base, panicThresholdPercent, current, EnvoyVersion.DEFAULT);
    }

    /** {@link #write} on top of Envoy's simulation. */
    default Written write(
            Setting s, String name, int hosts, OutlierDetectionConfig base, double panicThresholdPercent) {
        return write(s, name, hosts, base, panicThresholdPercent, RunProfile.ENVOY);
    }

    /**
     * With no file: the target's defaults for a cluster named {@code name} of {@code hosts} hosts, as the target's
     * reader takes them (Envoy's default values written as the target's resource and read back).
     */
    default CurrentSettings defaults(String name, int hosts) {
        Written w = write(
                Setting.of(OutlierDetectionConfig.defaults()),
                name,
                Math.max(1, hosts),
                OutlierDetectionConfig.defaults(),
                defaultPanicPercent());
        return new CurrentSettings(
                name, null, this, w.config(), w.panicThresholdPercent(), null, null, null, w.profile(), null);
    }

    /** The panic threshold the target's defaults are written with. */
    default double defaultPanicPercent() {
        return 50;
    }

    /** Where the current settings come from without a file, in words. */
    default String defaultsLabel() {
        return "Envoy's defaults";
    }

    /** The simulation in the output's head line, e.g. {@code (Envoy 1.33)}. */
    default String engineLabel(EnvoyVersion version) {
        return "(Envoy " + version + ")";
    }

    /**
     * A file of the target's own kind that {@code check}'s reader does not take (a gRPC service config), read as the
     * current settings; null when {@code text} is not one.
     */
    default CurrentSettings readOwn(String text, String source) {
        return null;
    }

    /**
     * {@link #readOwn(String, String)} for the part of the file named {@code part} (an nginx upstream, a HAProxy
     * backend), or the file's only one when null.
     */
    default CurrentSettings readOwn(String text, String source, String part) {
        return readOwn(text, source);
    }

    /**
     * The settings of a cluster {@code check} read in one of this target's styles ({@link #tunes}): its outlier
     * detection, panic threshold, hosts and active health check, on Envoy's simulation.
     */
    default CurrentSettings read(CheckTarget t, String source) {
        return new CurrentSettings(
                t.name(),
                source,
                this,
                t.config(),
                t.panicThresholdPercent(),
                t.hosts(),
                null,
                null,
                RunProfile.ENVOY,
                t.healthChecks());
    }

    /**
     * The vocabulary {@code check}'s fixes use in this target's words: Envoy's fields unless the target's file has
     * names of its own (a DestinationRule's, a service config's); a profile's own file says its own fields.
     */
    default FixStyle fixStyle() {
        return FixStyle.ENVOY;
    }

    /** Whether a file {@code check} reads in this style holds this target's settings. */
    default boolean tunes(FixStyle style) {
        return false;
    }

    /**
     * {@code current}, read from another target's file, as this target takes it, or null when it cannot;
     * {@code notes} gets what is lost on the way.
     */
    default CurrentSettings adopt(CurrentSettings current, List<String> notes) {
        return null;
    }

    /** Said after a refusal to adopt another target's settings: where this target's own come from. */
    default String ownSettingsHint() {
        return "";
    }

    /** The search's candidates of a target whose settings are not Envoy's fields, or null for Envoy's search. */
    default List<Setting> candidates(TuneRequest req) {
        return null;
    }

    /**
     * Why a setting of this target that takes a dead host out in time gives up some of the recommendation's benefit
     * (said after the trade-off in "what no setting can catch here"), or null when the target has no such reason.
     */
    default String deadHostTradeOff() {
        return null;
    }

    /**
     * Why this target cannot catch scenario {@code scenario} under {@code current} whatever the search sets (said in
     * "what no setting can catch here"), or null when it has no such reason.
     */
    default String cannotCatch(RunProfile current, SuiteScenario scenario) {
        return null;
    }

    /** Why the file's active health check is not run, or null when the target's simulation runs it. */
    default String healthChecksNotRun() {
        return null;
    }

    /**
     * When each caller is a detector of its own tuned alone (gRPC's channels): the note that says so for
     * {@code clients} callers at {@code rate}; null when callers share the target's detector.
     */
    default String oneCallerEach(int clients, long rate) {
        return null;
    }

    /** Why {@code clients} callers are not allowed, or null. */
    default String clientsRefused(int clients) {
        return null;
    }

    /** {@code check}'s reading of a written file, for the findings on the recommendation. */
    default CheckInputs.Loaded check(String text) {
        return CheckInputs.read(text, "recommended", null, false);
    }

    /** What one caller's traffic lets the target's detectors do, when it says so in its own words; else null. */
    default List<String> detectors(TuneRequest req) {
        return null;
    }

    /** The changes between two settings in the target's words, or null for the Envoy fields' words. */
    default List<String> changes(Setting a, Setting b, int hosts) {
        return null;
    }

    /**
     * {@link #changes(Setting, Setting, int)} with the request, for a target whose current settings say more than
     * their {@link Setting} (the user's file as read is {@link TuneRequest#currentProfile()}).
     */
    default List<String> changes(Setting a, Setting b, TuneRequest req) {
        return changes(a, b, req.hosts());
    }

    /**
     * The recommendation spliced into the user's file of this target ({@code original}) for the cluster named
     * {@code cluster} (or null: the file's one); by default the lab's file is offered instead, with why.
     */
    default DeployableFile.Spliced splice(
            String original,
            OutlierDetectionConfig currentConfig,
            Setting recommended,
            Written written,
            EnvoyVersion version,
            String cluster) {
        return new DeployableFile.Spliced(
                null,
                null,
                "the recommendation is written as the lab writes " + description()
                        + ", not spliced into the file (only Envoy clusters and Istio DestinationRules are edited in"
                        + " place)");
    }

    /**
     * The setting as the target's file says it, for a row's {@code "setting"} in {@code tune --format json}: the
     * file's own field names, units and order, in insertion order ({@link SettingFields}); {@code written} is the
     * setting as this target wrote and read it back. By default Envoy's {@code outlier_detection} fields.
     */
    default Map<String, Object> fields(Setting s, Written written) {
        return SettingFields.envoy(s);
    }

    /**
     * {@link #fields(Setting, Written)} as Envoy {@code version} takes them: a field the release does not have
     * ({@code always_eject_one_host} before 1.31) is left out, as the file written for that release leaves it out.
     */
    default Map<String, Object> fields(Setting s, Written written, EnvoyVersion version) {
        return SettingFields.forRelease(fields(s, written), version);
    }

    /** A candidate's short label in the target's words; by default {@link Setting#label()}. */
    default String label(Setting s) {
        return s.label();
    }

    /**
     * The label of a setting as {@code profile} runs it: the current settings as the user's file has them (where the
     * file can say more than a candidate, such as different values per server); by default {@link #label(Setting)}.
     */
    default String label(Setting s, RunProfile profile) {
        return label(s);
    }

    /**
     * The label of a setting as {@code profile} runs it on {@code hosts} hosts: where the target's label names a
     * detector that cannot run on that many hosts, it says so; by default {@link #label(Setting, RunProfile)}.
     */
    default String label(Setting s, RunProfile profile, int hosts) {
        return label(s, profile);
    }

    /** The heading of the smallest change after a spliced file. */
    default String patchHeading() {
        return "Or only the changed fields:\n";
    }

    /** Whether, without {@code --from}, the written file's names and endpoints are placeholders to say so of. */
    default boolean placeholdersWithoutFile() {
        return can(Can.ENVOY_FIELDS);
    }

    /** Every registered target, in the profiles' rank order. */
    static List<Target> all() {
        List<Target> out = new ArrayList<>();
        for (Profiles.Registered p : Profiles.withFacet(TuneTargets.class)) {
            out.addAll(p.facet(TuneTargets.class).orElseThrow().targets());
        }
        return out;
    }

    /** The target {@code tune} writes when none is named: the first registered (an Envoy cluster). */
    static Target byDefault() {
        return all().get(0);
    }

    /** The target named by {@code --target}. */
    static Target byFlag(String name) {
        List<Target> all = all();
        for (Target t : all) {
            if (t.flag().equals(name)) {
                return t;
            }
        }
        String shown = name.length() > 40 ? name.substring(0, 40) + "..." : name;
        throw new InputException("--target: '" + shown + "' is not a target; expected "
                + Profiles.orList(all.stream().map(Target::flag).toList()));
    }

    /** The target that tunes files {@code check} reads in this style, or null. */
    static Target byStyle(FixStyle style) {
        for (Target t : all()) {
            if (t.tunes(style)) {
                return t;
            }
        }
        return null;
    }
}
