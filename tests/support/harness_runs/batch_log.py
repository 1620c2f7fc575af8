"""The sizes of the batches CAP scored in a run, read from capqa.harness.batching's debug line."""

import logging


class BatchSizes(logging.Handler):
    """Attached to capqa.harness.batching's logger while it is in use (``with BatchSizes() as sizes``)."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.sizes = []
        self._logger = logging.getLogger("capqa.harness.batching")

    def emit(self, record):
        if record.msg.startswith("scoring a batch of"):
            self.sizes.append(record.args[0])

    def __enter__(self):
        self._logger.setLevel(logging.DEBUG)
        self._logger.addHandler(self)
        return self.sizes

    def __exit__(self, *exc):
        self._logger.removeHandler(self)
