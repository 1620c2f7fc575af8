"""CAP inside the LLM evaluation frameworks: lm-evaluation-harness, lighteval, inspect-ai, RAGAS and
DeepEval adapters (docs/harnesses.md)."""
