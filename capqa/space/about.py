"""The About tab: what CAP measures, the formula, the taxonomy, this Space's settings."""

from capqa.common.constants import ALPHA, CITATION, CLASS_DEFINITIONS, HARD_PAIRS, LABELS, NEUTRAL_WEIGHT, SEVERITY
from capqa.space.settings import SpaceSettings, settings_markdown


def about_markdown(settings: SpaceSettings) -> str:
    taxonomy = "\n".join(f"| {label} | {SEVERITY[label]} | {CLASS_DEFINITIONS[label]} |"
                         for label in LABELS)
    hard = ", ".join(f"{better} vs {worse}" for better, worse in HARD_PAIRS)
    return f"""
## What CAP measures

CAP scores how correct a predicted answer is with respect to the gold answer(s) of the same
question, from *How Correct Is Your Answer? A Semantic Correctness Framework for Open QA
Evaluation* (Findings of EMNLP 2026). Token-overlap metrics reward shared words; CAP asks whether
the two answers *mean* the same thing. Both answers are turned into declarative statements with the
question as context ("Name a city in Bulgaria." + "Burgas" → "One city in Bulgaria is Burgas."),
and an NLI model scores entailment between the two statements in both directions. With several
gold answers the best one counts.

## The formula

    D(a → b) = P_entail(a → b) + {NEUTRAL_WEIGHT:.2f} · P_neutral(a → b)
    CAP      = {ALPHA} · D(gold → prediction) + {1 - ALPHA:.2f} · D(prediction → gold)

The forward direction (the gold statement entails the predicted one) carries most of the weight;
a neutral verdict counts for a little, a contradiction for nothing. CAP is in [0, 1], higher is
more correct.

## The correctness taxonomy

| class | severity | the predicted answer is ... |
|---|---|---|
{taxonomy}

A good metric orders answers by severity: the paper's diagnostic counts the pairs of answers with
different severity that a metric orders correctly (pairwise accuracy) and the class pairs whose
mean scores are in the wrong order (violations, out of 25). Hard pairs: {hard}.

## This Space

Running with: {settings.describe()}. The Space reads these environment variables at start:

{settings_markdown(settings)}
The scoring endpoints are also an API: `gradio_client.Client(url).view_api()` lists
`/score` (one answer), `/score_file` (a file), `/cancel_file_job` (stops the caller's running file job;
scoring the same file again resumes it) and `/compare` (scored files) with their named inputs and outputs.

## Citation

```bibtex
{CITATION.strip()}
```
"""
