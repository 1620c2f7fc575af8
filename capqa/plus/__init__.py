"""CAP+ and the relation diagnosis: a calibrated classifier over CAP's NLI probabilities and
answer overlap, its features, its shipped parameters, and how it is refitted."""
