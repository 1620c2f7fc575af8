"""The records of what produced a score (``identity``: the scorer's; ``job``: a scoring job's;
``code``: digests of the code that ran) and of what a result holds (``results``): data, their
serialisations and their JSON (``json_records``), no scoring."""
