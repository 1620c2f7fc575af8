"""The ``diagnose`` command's library: a scores file diagnosed against its labels, with CAP+ added
on request."""
