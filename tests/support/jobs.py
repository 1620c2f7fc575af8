"""A scorer that stops a job partway, as Ctrl-C would."""


class InterruptedScorer:
    """A real scorer that is interrupted (as by Ctrl-C) when called more than ``calls`` times."""

    def __init__(self, scorer, calls):
        self.scorer, self.calls = scorer, calls

    def __getattr__(self, name):  # the job's settings (model, alpha, variant) are the real scorer's
        return getattr(self.scorer, name)

    def score(self, *args, **kwargs):
        if self.calls == 0:
            raise KeyboardInterrupt
        self.calls -= 1
        return self.scorer.score(*args, **kwargs)
