"""What the tests share besides fixtures (those are conftest.py's): the repo's paths, tolerances,
the tiny models' known values, and the helper programs some tests run (the Space, a paused job,
the harness venvs)."""
