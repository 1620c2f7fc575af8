"""Scoring jobs over files: ``scoring.score_table``, the one builder of a scored file (the
command, the Space and every distributed rank call it); the job's identity, built once, and its
fingerprint; the manifest and the resumable locked CSV output; rows scored chunk by chunk; and
sharding/merging across torch.distributed ranks.

The command line of this room is ``capqa/cli/score.py`` (``python -m capqa score``).
"""
