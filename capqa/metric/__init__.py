"""CAP itself: the formula, ``CAPScorer`` (statements, NLI both ways, the best gold) and the
metric's options."""
