"""The NLI engine: the cross-encoder scorer, its NLI-specific checks, pair encoding, the DeBERTa
attention patch and the score cache."""
