"""Developer tools: the engine benchmark, measurement helpers and tiny offline models for tests and
benchmarks."""
