"""From scores to verdicts: policies, validation-chosen thresholds, the binary report."""
