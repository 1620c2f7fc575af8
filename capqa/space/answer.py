"""The "Score an answer" tab: CAP of one answer, its statements, both directions in plain words."""

from typing import TYPE_CHECKING, Any, Dict, Optional

import numpy as np

from capqa.common.constants import NLI_LABELS
from capqa.space.text import parse_golds, required_text
from capqa.space.verdicts import verdict_line
from capqa.statements.check import ISSUES

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from capqa.space.models import ModelLoader

# One example per correctness class (the paper's, from paper_results.json) and the README's.
EXAMPLES = (
    ("exact", "As of 2017, how many people in the world have some access to electricity?", "80%", "80%"),
    ("equivalent", "Earth rotating causes", "the cycling of AM and PM",
     "Earth's rotation causes the alternation of morning and afternoon"),
    ("alternative_correct", "At what temperature does water begin to boil?", "100°C", "212°F"),
    ("overinclusive_valid", "If a cow is offered a choice, it will turn down", "a chunk of pork",
     "a chunk of pork, since cows are herbivores and do not eat meat"),
    ("partial", "What travels through the stem of a plant?", "water and food", "water"),
    ("overinclusive_invalid", "Sound reaches our ears because sound makes air particles", "vibrate.",
     "vibrate and also create electromagnetic waves that travel through the air"),
    ("invalid", "Which material is the best conductor of electricity?", "Metal", "Plastic"),
    ("contradictory", "The extensive branching of neurons helps them to perform which function?",
     "communicate with other neurons", "prevent communication with other neurons"),
    ("alternative_correct", "Name a city in Bulgaria.", "Sofia", "Burgas"),
)


def check_answer_inputs(question: Any, gold: Any, answer: Any) -> None:
    """Refuse empty, too long or non-text fields (the page checks before it scores)."""
    required_text(question, "a question")
    parse_golds(gold)
    required_text(answer, "a predicted answer")


def score_answer(loader: "ModelLoader", question: Any, gold: Any, answer: Any) -> Dict[str, Any]:
    """CAP of one answer with everything the page shows: a dict (see ``score_outputs``)."""
    question = required_text(question, "a question")
    golds = parse_golds(gold)
    answer = required_text(answer, "a predicted answer")
    result = loader.scorer_or_error().score([answer], [golds], [question], return_details=True)
    details = {key: (value[0] if isinstance(value, list) and value else value)
               for key, value in result.items() if key != "scores"}
    details["cap"] = result["scores"][0]
    details["gold_answer"] = golds[details["best_reference"]]
    details["hashcode"] = loader.hashcode(result)
    return details


def direction_probabilities(details: Dict[str, Any], direction: str) -> Dict[str, float]:
    return {label: details[f"p_{label}_{direction}"] for label in NLI_LABELS}


def _direction_line(name, probabilities, score):
    verdict = max(probabilities, key=probabilities.get)
    parts = ", ".join(f"{label} {p:.2f}" for label, p in probabilities.items())
    return f"- **{name}**: {verdict} ({parts}; directional score {score:.3f})"


_SUMMARIES = {
    "contradiction": ("**Contradiction**: the two statements cannot both be true; the prediction "
                      "conflicts with the gold answer."),
    "both": ("**Both directions entail**: the statements say the same thing; the prediction "
             "is equivalent to the gold answer."),
    "forward": ("**Gold entails prediction**: everything the prediction says follows from the "
                "gold answer, but not the other way round: it says less (partial or more general)."),
    "reverse": ("**Prediction entails gold**: the prediction contains the gold answer and says "
                "more (over-inclusive); whether the extra part is true decides its correctness."),
    "neither": ("**Neither direction entails**: neither statement implies the other; the "
                "prediction gives different information (a wrong answer, or an alternative "
                "correct answer that the NLI model cannot verify)."),
}


def _relation_key(forward_verdict, reverse_verdict):
    if "contradiction" in (forward_verdict, reverse_verdict):
        return "contradiction"
    if forward_verdict == reverse_verdict == "entailment":
        return "both"
    if forward_verdict == "entailment":
        return "forward"
    return "reverse" if reverse_verdict == "entailment" else "neither"


def plain_reading(details: Dict[str, Any], verdict: Optional[str] = None) -> str:
    """The two directions in plain words: which statement implies which, or a contradiction.

    ``verdict``: the Space's verdict policy; its verdict is added when the scorer gave one.
    """
    forward = direction_probabilities(details, "forward")
    reverse = direction_probabilities(details, "reverse")
    key = _relation_key(max(forward, key=forward.get), max(reverse, key=reverse.get))
    lines = [_SUMMARIES[key], "",
             _direction_line("Gold ⇒ prediction", forward, details["forward"]),
             _direction_line("Prediction ⇒ gold", reverse, details["reverse"])]
    judged = verdict_line(details, verdict)
    return "\n".join(lines + _calibration_lines(details) + _statement_lines(details) + ([judged] if judged else []))


_SIDES = {"gold": "the gold statement", "prediction": "the predicted statement"}


def _statement_lines(details):
    """What the statement check found in the two statements: the score rests on them."""
    found = details.get("statement_issues") or []
    if not found:
        return []
    parts = []
    for issue in found:
        side, _, code = issue.partition(":")
        parts.append(f"{_SIDES.get(side, side)}: {ISSUES.get(code, code)} (`{code}`)")
    return ["", "- **Doubtful statement**: " + "; ".join(parts) + ". The score rests on these statements."]


def _calibration_lines(details):
    """The diagnosed relation, when the scorer provides it (CAP+ has its own box)."""
    relation = details.get("relation")
    if not (isinstance(relation, dict) and relation):
        return []
    text = relation.get("explanation") or (
        f"likely {relation.get('label')}, p = {relation.get('probability', float('nan')):.2f}")
    return ["", f"- **Likely relation**: {text}"]


def probabilities_figure(details: Dict[str, Any]) -> "Figure":
    """The six NLI probabilities as grouped bars: one group per direction."""
    # Deferred: matplotlib is heavy, imported on first use.
    from matplotlib.figure import Figure

    figure = Figure(figsize=(6.4, 3.0), layout="constrained")
    axis = figure.subplots()
    positions = np.arange(len(NLI_LABELS))
    colors = {"forward": "#2b6cb0", "reverse": "#dd6b20"}
    names = {"forward": "gold ⇒ prediction", "reverse": "prediction ⇒ gold"}
    for offset, direction in ((-0.2, "forward"), (0.2, "reverse")):
        values = list(direction_probabilities(details, direction).values())
        bars = axis.bar(positions + offset, values, width=0.38, color=colors[direction],
                        label=names[direction])
        axis.bar_label(bars, fmt="%.2f", fontsize=8)
    axis.set_xticks(positions, NLI_LABELS)
    axis.set_ylim(0, 1.12)
    axis.set_ylabel("probability")
    # Above the bars, not over them: a bar near 1.0 would run into a legend inside the axes.
    figure.legend(*axis.get_legend_handles_labels(), loc="outside upper center", ncols=2, fontsize=8, frameon=False)
    axis.grid(axis="y", alpha=0.3)
    return figure


def score_outputs(loader: "ModelLoader", question: Any, gold: Any, answer: Any) -> tuple:
    """The Score tab's outputs, in the order app.py lists them (also the ``/score`` API):
    CAP, CAP+, gold statement, predicted statement, forward, reverse, figure, reading, details.

    The four scores are text with 4 decimals (see ``shown_score``); the details hold them exactly.
    """
    details = score_answer(loader, question, gold, answer)
    return (shown_score(details["cap"]), shown_score(details.get("cap_plus")), details["premises"],
            details["hypotheses"], shown_score(details["forward"]), shown_score(details["reverse"]),
            probabilities_figure(details), plain_reading(details, loader.settings.verdict),
            _json_ready(details))


def shown_score(value: Optional[float]) -> str:
    """A score as the page's score boxes show it (4 decimals); "" when there is none."""
    return "" if value is None else f"{value:.4f}"


def _json_ready(value):
    if isinstance(value, dict):
        return {key: _json_ready(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_ready(item) for item in value]
    if isinstance(value, np.generic):
        return value.item()
    return value
