"""CAP (Context-Aware Precision): answer correctness for open QA, as a Hugging Face `evaluate` metric.

On the Hub this file is published as `cap.py` in the metric Space `<namespace>/cap`.
The logic lives in the `capqa` package (pip install cap-eval); this file is the evaluate face.
"""

import datasets
import evaluate

import capqa.constants
import capqa.metric_options
import capqa.scorer
import capqa.validation
import capqa.verdicts.judge

_CITATION = capqa.constants.CITATION

_DESCRIPTION = """\
CAP scores how correct a predicted answer is with respect to a gold answer to the same question.
Both answers are first turned into declarative statements with the question as context (a fine-tuned
mT5 statement model, or `statement_model="rules"` for an offline rule-based converter); an NLI
cross-encoder (default `cross-encoder/nli-deberta-v3-large`) then scores both directions:

    D(a -> b) = P_entail(a -> b) + lambda * P_neutral(a -> b)
    CAP       = alpha * D(gold -> prediction) + (1 - alpha) * D(prediction -> gold)

with alpha = 0.85 and lambda = 0.30. CAP is in [0, 1]; higher is more correct. It is built to respect
the ordering of eight correctness classes: exact ~ equivalent ~ alternative_correct >=
overinclusive_valid > partial > overinclusive_invalid > invalid >= contradictory.
"""

_KWARGS_DESCRIPTION = """
Computes CAP for each (prediction, reference[s], question) example.
Args:
    predictions (`list` of `str`): predicted answers (or statements, when no questions are given).
    references (`list` of `str` or `list` of `list` of `str`): gold answers; with several gold
        answers per example, the highest CAP counts.
    questions (`list` of `str`, optional): the questions. Without them, predictions and references
        are taken to be statements already and go to the NLI model as they are.
    return_details (`bool`, optional, default False): add per-example statements, directional scores
        and the six NLI probabilities.
Returns:
    cap (`float`): mean CAP over the examples (None for no examples).
    scores (`list` of `float`): CAP per example.
    With return_details: premises (gold statements), hypotheses (predicted statements),
    best_reference (index of the gold that counted), forward (D(gold -> prediction)),
    reverse (D(prediction -> gold)), p_entailment_forward, p_neutral_forward,
    p_contradiction_forward, p_entailment_reverse, p_neutral_reverse, p_contradiction_reverse, and
    relation: the most likely correctness class with its probability, the five-group reading and a
    one-sentence explanation (a classifier over the six probabilities, BLEU and ROUGE-L).
    With variant="plus": cap_plus (`list` of `float` in [0, 1]): CAP+ per example, a calibrated
    combination that orders answers better than CAP on CAP-Correctness; mean_cap_plus, its mean.
Init options (evaluate.load("cap_metric.py", **options)):
    nli_model, nli_revision, statement_model ("rules", a Hub id or a local folder), statement_revision,
    alpha (0.85), neutral_weight (0.30), batch_size (32), max_tokens (None), device ("auto"),
    max_length (512), score_cache_dir (None: a folder where NLI probabilities are cached, so that
    re-scoring is nearly free; not evaluate's `cache_dir`, which holds its own Arrow files),
    quantize (False: CPU dynamic int8 quantisation of the NLI model, faster, slightly different scores),
    precision ("auto": bf16 on CUDA, float32 on CPU; "bfloat16" is ~2x faster on CPUs with AMX at
    ~1e-3 of probability; "float32"; "float16" on GPUs),
    variant ("cap", or "plus" to add CAP+; its parameters were fitted for the default NLI model),
    verdict (None; "strict", "lenient", "graded", a threshold in [0, 1] or {class: credit}: adds per-example
    `correct` (bool) and `accuracy`, their mean; with partial credit also `credit` and `mean_credit`).
Examples:
    With the published models (needs the Hugging Face Hub or a filled cache):
    >>> cap = evaluate.load("cap_metric.py")  # doctest: +SKIP
    >>> cap.compute(predictions=["Burgas"], references=["Sofia"], questions=["Name a city in Bulgaria."])  # doctest: +SKIP
    {'cap': 0.41, 'scores': [0.41]}

    Fully offline, with the rule-based statements and a local NLI folder:
    >>> cap = evaluate.load("cap_metric.py", statement_model="rules", nli_model="path/to/nli-folder")  # doctest: +SKIP
    >>> result = cap.compute(predictions=["212°F"], references=[["100°C", "212 degrees Fahrenheit"]],
    ...                      questions=["At what temperature does water begin to boil?"], return_details=True)  # doctest: +SKIP
    >>> sorted(result)[:3]  # doctest: +SKIP
    ['best_reference', 'cap', 'forward']
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Cap(evaluate.Metric):
    def __init__(self, nli_model=None, nli_revision=None, statement_model=None, statement_revision=None,
                 alpha=capqa.constants.ALPHA, neutral_weight=capqa.constants.NEUTRAL_WEIGHT, batch_size=32,
                 max_tokens=None, device="auto", max_length=capqa.constants.NLI_MAX_LENGTH,
                 score_cache_dir=None, quantize=False, precision="auto", variant="cap", verdict=None,
                 **kwargs):
        # Options are checked now, so a typo fails at load time; models load on first use.
        self.options = capqa.metric_options.MetricOptions(
            nli_model=nli_model, nli_revision=nli_revision, statement_model=statement_model,
            statement_revision=statement_revision, alpha=alpha, neutral_weight=neutral_weight,
            batch_size=batch_size, max_tokens=max_tokens, device=device, max_length=max_length,
            score_cache_dir=score_cache_dir, quantize=quantize, precision=precision,
            variant=variant, verdict=verdict)
        self._scorer = None
        super().__init__(**kwargs)

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            homepage="https://huggingface.co/spaces/" + capqa.constants.metric_space_id(),
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features({
                "predictions": datasets.Value("string"),
                "references": datasets.List(datasets.Value("string")),
                # "" for every example means: no questions, the texts are statements.
                "questions": datasets.Value("string"),
            }),
            reference_urls=["https://huggingface.co/" + capqa.constants.DEFAULT_NLI_MODEL],
        )

    def add_batch(self, *, predictions=None, references=None, questions=None, **kwargs):
        """Add a batch of examples (validated now, scored at ``compute``)."""
        batch = capqa.metric_options.stored_batch(predictions, references, questions)
        return super().add_batch(**batch, **kwargs)

    def compute(self, *, predictions=None, references=None, questions=None, **kwargs):
        """Score the given examples, or those added with ``add_batch`` when none are given."""
        if predictions is None and references is None and questions is None:
            return super().compute(**kwargs)  # gather what add_batch stored (also across processes)
        batch = capqa.metric_options.stored_batch(predictions, references, questions)
        if not batch["predictions"]:
            return capqa.scorer.empty_result(kwargs.get("return_details", False), self.options.variant,
                                             capqa.verdicts.judge.resolve_verdict(self.options.verdict,
                                                                                  self.options.variant))
        # Already validated: store it directly, then let evaluate finalise and call _compute.
        evaluate.Metric.add_batch(self, **batch)
        return super().compute(**kwargs)

    def _compute(self, predictions, references, questions, return_details=False):
        return_details = capqa.validation.check_bool(return_details, "return_details")
        if self._scorer is None:
            self._scorer = self.options.build_scorer()
        return self._scorer.score(predictions, references, capqa.metric_options.stored_questions(questions),
                                  return_details=return_details)
