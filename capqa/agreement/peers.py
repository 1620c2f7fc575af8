"""What CAP's peers published about their agreement with the same human judgements.

Quoted as published, never recomputed here, each with its citation. Only figures a citation
can back are quoted:

- NQ301: Kamalloo, Dziri, Clarke and Rafiei (ACL 2023) measure on the 1,490 judged answers of
  their ``data/NQ301_human.tsv``, the NQ301 rows the card scores;
- EVOUNA: Wang et al. (NeurIPS 2023) publish their evaluators' agreement in the paper only; the
  repository (github.com/wangcunxiang/QA-Eval) publishes the data and no figure, and the paper's
  tables could not be read where this was written, so none is quoted. Their figures cover every
  EVOUNA question, and the card a sample of them, so they would not be on the same rows anyway.
"""

from dataclasses import dataclass
from typing import Dict, Optional, Tuple


@dataclass(frozen=True)
class Citation:
    key: str
    text: str
    quoted: str   # what is quoted from it, or why nothing is


@dataclass(frozen=True)
class PublishedFigure:
    """A peer's published agreement with the human judgement of one source (accuracy and
    Cohen's kappa as fractions; None where the paper gives none)."""

    source: str
    method: str
    accuracy: float
    kappa: Optional[float]
    citation: str
    rows: int

    def to_json(self) -> dict:
        return {"source": self.source, "method": self.method, "accuracy": self.accuracy, "kappa": self.kappa,
                "citation": self.citation, "rows": self.rows, "published": True}


CITATIONS: Dict[str, Citation] = {
    "kamalloo2023": Citation(
        "kamalloo2023",
        "Kamalloo, Dziri, Clarke and Rafiei. Evaluating Open-Domain Question Answering in the Era of Large "
        "Language Models. ACL 2023, aclanthology.org/2023.acl-long.307",
        "agreement of EM, BEM and GPT-4 with the human judgement on their 1,490 NQ301 answers"),
    "wang2023": Citation(
        "wang2023",
        "Wang, Cheng, Guo, Yue, Ding, Xu, Wang, Hu, Zhang and Zhang. Evaluating Open-QA Evaluation. NeurIPS "
        "2023 Datasets and Benchmarks, openreview.net/forum?id=UErNpveP6R",
        "no figure: the paper's tables could not be read here and its repository (github.com/wangcunxiang/"
        "QA-Eval) publishes none; its figures cover all of EVOUNA, not this sample"),
}

PUBLISHED: Tuple[PublishedFigure, ...] = (
    PublishedFigure("NQ301", "EM", 0.654, None, "kamalloo2023", 1490),
    PublishedFigure("NQ301", "BEM", 0.806, 0.615, "kamalloo2023", 1490),
    PublishedFigure("NQ301", "GPT-4", 0.848, 0.696, "kamalloo2023", 1490),
)
