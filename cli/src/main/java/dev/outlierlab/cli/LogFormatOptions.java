package dev.outlierlab.cli;

import dev.outlierlab.accesslog.FormatDetector;
import dev.outlierlab.accesslog.JsonKeys;
import dev.outlierlab.accesslog.JsonLogFormat;
import dev.outlierlab.accesslog.KnownFormats;
import dev.outlierlab.accesslog.LogFormat;
import dev.outlierlab.accesslog.LogInput;
import dev.outlierlab.accesslog.StartTimeFormat;
import dev.outlierlab.accesslog.TextLogFormat;
import dev.outlierlab.config.InputException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** {@code replay}'s choice of access-log format: named, a format string, JSON keys, or recognised from the log. */
public final class LogFormatOptions {
    @Option(
            names = "--log-format",
            paramLabel = "NAME",
            description = "The log's format: envoy (Envoy's default), istio (Istio 1.9 and later), istio-1.5 (Istio 1.5"
                    + " to 1.8) or json. Without it (and without --log-format-string) the format is recognised from"
                    + " the first lines.")
    String name;

    @Option(
            names = "--log-format-string",
            paramLabel = "FORMAT",
            description = {
                "The Envoy format string the log was written with, e.g.",
                "  '[%%START_TIME%%] %%RESPONSE_CODE%% %%RESPONSE_FLAGS%% %%DURATION%% %%UPSTREAM_HOST%% %%UPSTREAM_CLUSTER%%'"
            })
    String formatString;

    @Option(
            names = "--json-key",
            paramLabel = "FIELD=KEY",
            description = "JSON logs: the key of a field (repeatable); fields: " + JsonKeys.FIELDS
                    + ". Defaults are Istio's JSON keys (start_time, response_code, ...).")
    Map<String, String> jsonKeys;

    @Option(
            names = "--instance-field",
            paramLabel = "OPERATOR",
            description = "The operator (text formats, e.g. HOSTNAME or REQ(X-POD)) or JSON key naming the proxy"
                    + " instance that wrote each line: each instance has its own detector, as in Envoy.")
    String instanceField;

    /** The format of the logs: as named, compiled, or recognised from the first input. */
    LogFormat resolve(List<LogInput> inputs) {
        return recipe(inputs).compile();
    }

    /**
     * How to make the format of the logs, as plain values: a job that reads the logs on other machines compiles
     * the same format there ({@link Recipe#compile}).
     *
     * @param name          the format's name (a known format, {@code json}, or {@code --log-format-string})
     * @param textFormat    the Envoy format string of a text format, or null for JSON
     * @param jsonKeys      JSON logs: the {@code --json-key} overrides, in the order given
     * @param instanceField the {@code --instance-field}, or null
     */
    public record Recipe(String name, String textFormat, Map<String, String> jsonKeys, String instanceField)
            implements Serializable {
        public Recipe {
            jsonKeys = jsonKeys == null ? new LinkedHashMap<>() : new LinkedHashMap<>(jsonKeys);
        }

        /** The format. */
        public LogFormat compile() {
            if (textFormat != null) {
                return TextLogFormat.compile(name, textFormat, instanceField);
            }
            JsonKeys keys = JsonKeys.ISTIO;
            for (Map.Entry<String, String> e : jsonKeys.entrySet()) {
                if (!JsonKeys.FIELDS.contains(e.getKey()) || e.getKey().isBlank()) {
                    throw new InputException(
                            "--json-key: '" + e.getKey() + "' is not a field; fields: " + JsonKeys.FIELDS);
                }
                keys = keys.with(e.getKey(), e.getValue());
            }
            if (instanceField != null) {
                keys = keys.with("instance", instanceField);
            }
            return new JsonLogFormat(keys, StartTimeFormat.compile(StartTimeFormat.ENVOY_DEFAULT));
        }
    }

    /** The recipe of the format of the logs: as named, a format string, or recognised from the first input. */
    public Recipe recipe(List<LogInput> inputs) {
        if (name != null && formatString != null) {
            throw new InputException("--log-format and --log-format-string: give one of them");
        }
        Recipe json = new Recipe("json", null, jsonKeys, instanceField);
        json.compile();
        if (formatString != null) {
            Recipe r = new Recipe("--log-format-string", formatString, null, instanceField);
            r.compile();
            return r;
        }
        if (name != null) {
            if (name.equals("json")) {
                return json;
            }
            String f = KnownFormats.TEXT.get(name);
            if (f == null) {
                throw new InputException(
                        "--log-format: '" + name + "' is not a format; formats: " + KnownFormats.NAMES);
            }
            return new Recipe(name, f, null, instanceField);
        }
        List<Recipe> recipes = new ArrayList<>();
        List<LogFormat> candidates = new ArrayList<>();
        for (Map.Entry<String, String> e : KnownFormats.TEXT.entrySet()) {
            if (instanceField == null) {
                recipes.add(new Recipe(e.getKey(), e.getValue(), null, null));
            }
        }
        recipes.add(json);
        for (Recipe r : recipes) {
            candidates.add(r.compile());
        }
        LogFormat found = FormatDetector.detect(inputs.get(0), candidates);
        return recipes.get(candidates.indexOf(found));
    }
}
