"""Scoring jobs over files: the job fingerprint and manifest, the resumable locked CSV output,
CSV-injection escaping, and sharding/merging across torch.distributed ranks.

``capqa/score_file.py`` is built on this room (its command, ``python -m capqa score``, is
``capqa/cli/score.py``); the Space uses the same resumable output for its file tab.
"""
