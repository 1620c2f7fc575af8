"""``python tests/support/paused_score.py score ...``: ``python -m capqa score ...`` that stops after its
first committed chunk, for the tests that interrupt or kill a scoring job mid-run.

Without the pause such a test races the job: on a fast machine (or with a warm cache) the whole
job can end before the signal is sent. Here the job cannot end: once ``ResumableCsv.append`` has
committed a first chunk, the process writes its pid to the file named by ``CAPQA_TEST_PAUSED``
(atomically: the file appears whole) and waits for a signal, forever. Everything else is the real
command: the same parser, scorer, output and interrupt handling.

- ``CAPQA_TEST_PAUSE_RANK``: under ``torchrun`` only that rank pauses (the others run on).
- SIGINT gets Python's own handler back: a process started from a shell in the background
  (``pytest ... &``) inherits SIGINT ignored, and would then never see a Ctrl-C.
"""

import os
import signal
import sys
from pathlib import Path

from capqa.cli import main
from capqa.jobs.output import ResumableCsv


def pause_after_the_first_commit(flag: Path) -> None:
    commit = ResumableCsv.append

    def append_then_pause(self, records_csv, n_rows):
        commit(self, records_csv, n_rows)
        ResumableCsv.append = commit  # pause once
        written = flag.with_name(flag.name + ".tmp")
        written.write_text(str(os.getpid()))
        os.replace(written, flag)
        while True:
            signal.pause()  # a signal's handler raises (SIGINT) or the signal ends the process

    ResumableCsv.append = append_then_pause


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.default_int_handler)
    rank = os.environ.get("CAPQA_TEST_PAUSE_RANK")
    if rank is None or rank == os.environ.get("RANK"):
        pause_after_the_first_commit(Path(os.environ["CAPQA_TEST_PAUSED"]))
    raise SystemExit(main(sys.argv[1:]))
