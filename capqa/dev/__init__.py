"""Developer tools: the engine benchmark and tiny offline models for tests and benchmarks."""
