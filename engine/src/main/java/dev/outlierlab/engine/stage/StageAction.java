package dev.outlierlab.engine.stage;

/**
 * What one run of the request stage did to the candidate list. Only {@link #NONE} goes unrecorded: the
 * the rule "no outlier_ejection stage is recorded" when nothing was (or would have been) removed.
 */
public enum StageAction {
    /** Nothing removed, nothing would have been, or the mode is off. */
    NONE(null),
    /** prod: the named ejected endpoints were removed from the list. */
    EJECT("eject"),
    /** The guard kept the whole list although the named endpoints are ejected. */
    KEPT_ALL("kept_all"),
    /** shadow: nothing removed; prod would have removed the named endpoints. */
    WOULD_EJECT("would_eject");

    private final String outputName;

    StageAction(String outputName) {
        this.outputName = outputName;
    }

    /** The name in output ({@code eject}, {@code kept_all}, {@code would_eject}); null for {@link #NONE}. */
    public String outputName() {
        return outputName;
    }
}
