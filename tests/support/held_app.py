"""``python tests/support/held_app.py``: ``python app.py`` whose file jobs can be held between chunks.

A test of what the Space does *while* a file job runs (a single score is not queued behind it)
cannot count on the job being slow: a fast machine ends it first. Here, while the file named by
``CAP_TEST_HOLD`` exists, a file job waits after each chunk it has scored and reported; removing
the file lets it go on. A held job whose cancel switch is set says so by a file beside it
(``<hold>.cancelled``). Without that file the app is ``python app.py``, run as its main module.
"""

import os
import runpy
import sys
import time
from pathlib import Path

# Run as a script (tests/support on sys.path, not tests/): the repo is two folders up.
REPO_ROOT = Path(__file__).resolve().parents[2]


def hold_file_jobs(hold: Path) -> None:
    from capqa.space import file_job

    report = file_job.ReportingScorer.score

    def score_then_hold(self, *args, **kwargs):
        result = report(self, *args, **kwargs)
        while hold.exists():
            if self._cancelled.is_set():  # tells a test that the cancel (or the closed page) arrived
                hold.with_name(hold.name + ".cancelled").touch()
            time.sleep(0.05)
        return result

    file_job.ReportingScorer.score = score_then_hold


if __name__ == "__main__":
    sys.path.insert(0, str(REPO_ROOT))
    hold_file_jobs(Path(os.environ["CAP_TEST_HOLD"]))
    sys.argv = [str(REPO_ROOT / "app.py")]
    runpy.run_path(sys.argv[0], run_name="__main__")
