"""Comparing systems' scored files: summaries, bootstrap intervals, paired approximate
randomisation, Holm, and the report."""
