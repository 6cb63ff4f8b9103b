package dev.outlierlab.live;

import java.util.List;

/**
 * The result of filtering one request's candidates: the list to route over, in routing order and never
 * empty when the input was not, and the stage record, or null when the stage did nothing worth recording.
 */
public record Selection(List<Endpoint> candidates, StageRecord stage) {}
