"""Scoring jobs over files: the job fingerprint and manifest, the resumable locked CSV output,
CSV-injection escaping, and sharding/merging across torch.distributed ranks.

``capqa/score_file.py`` (``python -m capqa score``) is the command built on this room; the Space
uses the same resumable output for its file tab.
"""
