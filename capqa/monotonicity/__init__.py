"""How well scores order the eight correctness classes: pairwise accuracy, violations, correlations,
their bootstrap intervals and plots."""
