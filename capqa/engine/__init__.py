"""The NLI engine: the cross-encoder scorer, its loading, batching, devices, attention patch and cache."""
