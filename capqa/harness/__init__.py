"""CAP inside the LLM evaluation harnesses: lm-evaluation-harness and lighteval adapters."""
