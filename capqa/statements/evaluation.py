"""Generated statements scored against gold statements (``python -m capqa eval-statements``, whose
command line is ``capqa.cli.eval_statements``).

Generates with ``capqa.statements.generator.StatementGenerator`` (the same code the metric uses:
4 beams, 128 input tokens; ``--model rules`` evaluates the rule-based converter) and reports exact
match and token F1 (``capqa.statements.text_metrics``), sacreBLEU BLEU/chrF and the share of
statements with each issue of ``capqa.statements.check.statement_issues``, overall and per question
type.
"""

from typing import Any, Dict, Iterable, Optional, Sequence

from capqa.common.constants import STATEMENT_MAX_INPUT_TOKENS, STATEMENT_NUM_BEAMS
from capqa.statements.check import ISSUES, statement_issues
from capqa.statements.generator import StatementGenerator
from capqa.statements.text_metrics import corpus_bleu_chrf, sacrebleu_module, surface_scores


def evaluate_statements(model: Optional[str], rows: Sequence[dict], revision: Optional[str] = None,
                        batch_size: int = 32, num_beams: int = STATEMENT_NUM_BEAMS,
                        max_input_tokens: int = STATEMENT_MAX_INPUT_TOKENS, device: str = "auto",
                        show_progress: Optional[bool] = None) -> tuple:
    """Generate a statement per row with ``StatementGenerator`` and score it against gold.

    Returns (scores, predictions); scores hold exact_match, token_f1, bleu, chrf, rows, ``issues``
    (issue code -> share of statements with it, and "any") and, when the rows carry
    ``label_question_type``, the same per question type under ``by_question_type``.
    ``show_progress``: None shows a bar on large inputs only.
    """
    sacrebleu_module()  # before generating: a missing train extra fails now
    generator = StatementGenerator(model=model, revision=revision, device=device, batch_size=batch_size,
                                   num_beams=num_beams, max_input_tokens=max_input_tokens,
                                   show_progress=show_progress)
    predictions = generator.generate([row["question"] for row in rows], [row["answer"] for row in rows])

    issues = [statement_issues(row["question"], row["answer"], prediction) for row, prediction in zip(rows, predictions)]

    def score(indices: Iterable[int]) -> Dict[str, Any]:
        indices = list(indices)
        chosen = [predictions[i] for i in indices]
        gold = [rows[i]["statement"] for i in indices]
        shares = {"any": sum(bool(issues[i]) for i in indices) / len(indices)}
        shares.update({code: sum(code in issues[i] for i in indices) / len(indices) for code in ISSUES})
        return {**surface_scores(chosen, gold), **corpus_bleu_chrf(chosen, gold), "rows": len(indices),
                "issues": shares}

    scores = score(range(len(rows)))
    types = sorted({row["label_question_type"] for row in rows if row.get("label_question_type")})
    if types:
        scores["by_question_type"] = {
            kind: score([i for i, row in enumerate(rows) if row.get("label_question_type") == kind])
            for kind in types}
    return scores, predictions


def format_scores(scores: dict) -> str:
    """The scores as a plain-text table, overall first, then per question type; then the share
    of statements with each issue that any statement has."""
    lines = [f"{'':24}{'rows':>6}{'EM':>8}{'F1':>8}{'BLEU':>8}{'chrF':>8}{'issues':>8}"]
    groups = [("overall", scores)] + sorted(scores.get("by_question_type", {}).items())
    for name, group in groups:
        lines.append(f"{name:24}{group['rows']:>6}{group['exact_match']:>8.3f}{group['token_f1']:>8.3f}"
                     f"{group['bleu']:>8.2f}{group['chrf']:>8.2f}{group['issues']['any']:>8.3f}")
    found = {code: share for code, share in scores["issues"].items() if code != "any" and share}
    if found:
        lines += ["", "statements with each issue (capqa.statements.check.ISSUES):"]
        lines += [f"  {code:20}{share:>8.3f}" for code, share in sorted(found.items(), key=lambda item: -item[1])]
    return "\n".join(lines)
