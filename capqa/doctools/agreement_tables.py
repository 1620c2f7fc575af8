"""The baselines' agreement with the human judgement, for docs/agreement.md (registered in
``capqa.doctools.registry``): the card of ``python -m capqa agreement`` without CAP, on every
judged row the repository carries, rendered by the card's own tables. CAP's rows need CAP's NLI
model, which these machines do not have: no CAP figure is generated.
"""

from functools import lru_cache

from capqa.agreement.card import AgreementCard, agreement_card
from capqa.agreement.judged import read_judged
from capqa.agreement.report import card_note, citations_table, source_table, system_table, thresholds_table
from capqa.compare.report import render_tables

RESAMPLES, SEED = 1000, 42


@lru_cache(maxsize=1)
def baselines_card() -> AgreementCard:
    return agreement_card(read_judged(), n_resamples=RESAMPLES, seed=SEED, progress=False)


def baselines_by_source() -> str:
    """Per source and over all: the baselines' accuracy and kappa, the published figures beside them."""
    card = baselines_card()
    tables = render_tables([source_table(card), thresholds_table(card), citations_table(card)], card_note(card),
                           "markdown")
    return f"{tables}\n\n{_published_em_line(card)}"


def _published_em_line(card: AgreementCard) -> str:
    """EM here against EM as published, on the same NQ301 answers."""
    published = next(figure for figure in card.published if figure.source == "NQ301" and figure.method == "EM")
    group = next(group for group in card.groups if group.source == "NQ301" and group.system is None)
    ours = group.methods["exact_match"].accuracy
    return (f"EM on NQ301: {100 * ours.mean:.1f} % here ({group.rows:,} answers; 95% CI {100 * ours.low:.1f}–"
            f"{100 * ours.high:.1f} %), {100 * published.accuracy:.1f} % published ({published.rows:,} answers, "
            f"[{published.citation}]).")


def baselines_by_system() -> str:
    """Per system: the baselines' accuracy and kappa."""
    card = baselines_card()
    return render_tables([system_table(card)], "as above", "markdown")
