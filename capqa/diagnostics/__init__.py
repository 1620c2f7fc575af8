"""The monotonicity diagnostic: pairwise accuracy, class-pair violations, correlations,
bootstrap intervals, and the report and plots built from them."""
