"""The settings the tests' Spaces run with."""

# The Space's app with models gives verdicts under this policy (correct and credit columns).
SPACE_VERDICT = "graded"
# A job folder left by a process that no longer runs (pids never reach 2**22 + 1 on Linux).
STALE_JOB = f"{2 ** 22 + 1}-left-by-a-crash"
