"""CAP (Context-Aware Precision): answer correctness for open QA, as a Hugging Face `evaluate` metric.

On the Hub this file is published as `cap.py` in the metric Space `<namespace>/cap`.
The logic lives in the `capqa` package (pip install cap-eval); this file is the evaluate face.
"""

import datasets
import evaluate

# Indented on purpose: evaluate scans top-level imports and would tell Hub users to
# `pip install capqa`, a name that is not on PyPI; the distribution is cap-eval.
try:
    import capqa.common.constants
    import capqa.common.validation
    import capqa.metric.options
    import capqa.records.results
except ImportError as error:
    raise ImportError("The CAP metric needs the `capqa` package, distributed as cap-eval: "
                      "`pip install cap-eval`, then load the metric again.") from error

_CITATION = capqa.common.constants.CITATION

_DESCRIPTION = """\
CAP scores how correct a predicted answer is with respect to a gold answer to the same question.
Both answers are first turned into declarative statements with the question as context (by default
the offline rule-based converter, `statement_model="rules"`, while the paper's fine-tuned mT5 statement
model is not published; or a seq2seq model of your own); an NLI cross-encoder (default
`cross-encoder/nli-deberta-v3-large`) then scores both directions:

    D(a -> b) = P_entail(a -> b) + lambda * P_neutral(a -> b)
    CAP       = alpha * D(gold -> prediction) + (1 - alpha) * D(prediction -> gold)

with alpha = 0.85 and lambda = 0.30. CAP is in [0, 1]; higher is more correct. It is built to respect
the ordering of eight correctness classes: exact ~ equivalent ~ alternative_correct >=
overinclusive_valid > partial > overinclusive_invalid > invalid >= contradictory.
"""

_INPUTS_DESCRIPTION = """
Computes CAP for each (prediction, reference[s], question) example.
Args:
    predictions (`list` of `str`): predicted answers (or statements, when no questions are given).
        A blank prediction (empty, whitespace or invisible characters only) states nothing: it
        scores CAP 0, CAP+ 0, incorrect, relation "invalid", with no model call (logged).
    references (`list` of `str` or `list` of `list` of `str`): gold answers; with several gold
        answers per example, the best one counts (by CAP, or by CAP+ with variant="plus"; the first
        on ties), and every per-example field comes from that gold.
    questions (`list` of `str`, optional): the questions. Without them, predictions and references
        are taken to be statements already and go to the NLI model as they are.
    return_details (`bool`, optional, default False): add per-example statements, directional scores
        and the six NLI probabilities.
""" + capqa.records.results.fields_docstring() + """Give inputs either to compute() or to add()/add_batch() followed by compute(), not both.
"""

_EXAMPLES = """Examples:
    The rule-based statements and the default NLI model (downloaded from the Hub once):
    >>> cap = evaluate.load("cap-eval/cap", statement_model="rules")  # doctest: +SKIP
    >>> cap.compute(predictions=["Burgas"], references=["Sofia"], questions=["Name a city in Bulgaria."])  # doctest: +SKIP
    {'cap': 0.41, 'scores': [0.41], 'hashcode': 'cap-eval=...|nli_model=cross-encoder/nli-deberta-v3-large|...|statements=rules(version=...)|...'}

    With the rule-based statements and a local NLI folder (fully offline from a checkout, where the
    same module is "cap_metric.py"):
    >>> cap = evaluate.load("cap-eval/cap", statement_model="rules", nli_model="path/to/nli-folder")  # doctest: +SKIP
    >>> result = cap.compute(predictions=["212°F"], references=[["100°C", "212 degrees Fahrenheit"]],
    ...                      questions=["At what temperature does water begin to boil?"], return_details=True)  # doctest: +SKIP
    >>> sorted(result)[:3]  # doctest: +SKIP
    ['best_reference', 'cap', 'forward']
"""

_KWARGS_DESCRIPTION = _INPUTS_DESCRIPTION + capqa.metric.options.options_docstring() + _EXAMPLES


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Cap(evaluate.Metric):
    def __init__(self, **kwargs):
        # Options and the NLI model's config are checked now, so a mistake fails at load time;
        # models load on first use.
        self.options, evaluate_arguments = capqa.metric.options.MetricOptions.split_init_arguments(kwargs)
        self.options.check_nli_model()  # its config: labels, position limit, a Hub that does not answer
        self._scorer = None
        super().__init__(**evaluate_arguments)

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            homepage="https://huggingface.co/spaces/" + capqa.common.constants.metric_space_id(),
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features({
                "predictions": datasets.Value("string"),
                "references": datasets.List(datasets.Value("string")),
                # "" for every example means: no questions, the texts are statements.
                "questions": datasets.Value("string"),
            }),
            reference_urls=["https://huggingface.co/" + capqa.common.constants.DEFAULT_NLI_MODEL],
        )

    def add(self, *, prediction=None, reference=None, question=None, **kwargs):
        """Add one example (validated now, scored at ``compute``); ``predictions=``/``references=``/
        ``questions=`` name it too, as with evaluate's other metrics."""
        example = _one_example(prediction, reference, question, kwargs)
        return self.add_batch(**{name: None if value is None else [value] for name, value in example.items()})

    def add_batch(self, *, predictions=None, references=None, questions=None, **kwargs):
        """Add a batch of examples (validated now, scored at ``compute``)."""
        batch = capqa.metric.options.stored_batch(predictions, references, questions)
        return super().add_batch(**batch, **kwargs)

    def compute(self, *, predictions=None, references=None, questions=None, **kwargs):
        """Score the given examples, or those added with ``add``/``add_batch`` when none are given."""
        capqa.metric.options.check_compute_arguments(kwargs)
        if predictions is None and references is None and questions is None:
            return super().compute(**kwargs)  # gather what add_batch stored (also across processes)
        if self.writer is not None:
            raise ValueError("examples were already added with add()/add_batch(); call compute() without "
                             "`predictions`/`references`/`questions` to score them, or pass all inputs "
                             "to compute() and none to add_batch()")
        # Validated once, here; no examples gives an empty result, not an empty batch.
        batch = capqa.metric.options.stored_batch(predictions, references, questions)
        if not batch["predictions"]:
            return self._compute([], [], [], **kwargs)
        evaluate.Metric.add_batch(self, **batch)  # evaluate's own: the batch is checked already
        return super().compute(**kwargs)

    def _compute(self, predictions, references, questions, return_details=False):
        return_details = capqa.common.validation.check_bool(return_details, "return_details")
        if self._scorer is None:
            self._scorer = self.options.build_scorer()
        # The result carries the hashcode of what ran for it (statements "none" without questions).
        return self._scorer.score(predictions, references, capqa.metric.options.stored_questions(questions),
                                  return_details=return_details, check_input=False)  # checked when added


def _one_example(prediction, reference, question, plural):
    """``add``'s example from its singular names or their plural aliases, not both."""
    aliases = {"predictions": "prediction", "references": "reference", "questions": "question"}
    unknown = [name for name in plural if name not in aliases]
    if unknown:
        raise TypeError(f"add() got unexpected argument(s) {', '.join(unknown)}; it takes prediction, "
                        f"reference and question (or predictions, references, questions)")
    example = {"prediction": prediction, "reference": reference, "question": question}
    for name, value in plural.items():
        if example[aliases[name]] is not None:
            raise TypeError(f"add() got both `{aliases[name]}` and `{name}`; give one of them")
        example[aliases[name]] = value
    missing = [name for name in ("prediction", "reference") if example[name] is None]
    if missing:
        raise TypeError(f"add() needs {' and '.join(f'`{name}`' for name in missing)} (one example)")
    if isinstance(example["prediction"], (list, tuple)):
        raise TypeError("add() adds one example: `prediction` must be a string; use add_batch() for several")
    return {"predictions": example["prediction"], "references": example["reference"],
            "questions": example["question"]}
