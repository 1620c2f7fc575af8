"""How far model-derived floats may differ between runs, batches and CPUs (docs/testing.md)."""

# Model-derived numbers (probabilities, CAP, CAP+) computed in different batch compositions,
# thread counts or CPUs differ by float32 rounding: up to 2.4e-7 on probabilities across Intel
# AMX and AMD AVX2 machines, and up to 2.0e-6 on CAP+ / 1.2e-6 on CAP on an AMD EPYC (Zen 4,
# AVX-512, no AMX) between chunk sizes 7 and 30 with the random tiny model. Every such
# comparison uses this bound, 5x the largest difference seen. (With the NLI tokenizer below, 60
# sample rows at batch sizes 1 to 64: at most 1.8e-6 on probabilities, 1.1e-6 on CAP, 2.8e-7
# on CAP+, with 1 and 2 threads alike.)
MODEL_ATOL = 1e-5
