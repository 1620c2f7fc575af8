"""Hub artifacts: building the CAP-Correctness and CAP-Statements dataset repos, and publishing
datasets, the statement model and the Space."""
