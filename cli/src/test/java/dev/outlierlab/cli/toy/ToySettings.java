package dev.outlierlab.cli.toy;

/** The toy profile's settings: failures in a row that eject, and for how long. */
record ToySettings(int failures, long ejectionNanos) {}
