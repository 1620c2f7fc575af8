"""CAP inside inspect-ai, RAGAS and DeepEval: each framework's own entry point runs 5 answered
questions, and the per-sample CAP, verdict and relation it records equal the project's scorer on
the same answers. Also the parts they share: async scoring in batches, and the blank-answer policy.

The frameworks are installed from the registry into venvs the tests make (tests/support/harness_venv.py);
the first run installs them (a minute each), later runs reuse them.
"""

import asyncio
import json
import logging
import re

import numpy as np
import pytest

from capqa.harness import batching, shared
from capqa.harness.batching import ScoringQueue, shared_queue
from capqa.harness.shared import score_samples, shared_scorer
from capqa.records.results import BLANK_EXPLANATION
from capqa.verdicts.judge import resolve_verdict

from support.harness_venv import jsonl_file, run_in_harness
from support.models import KNOWN_PROBABILITIES
from support.tolerances import MODEL_ATOL

# Five questions with their gold answers and the answer scored: right, right in other words,
# wrong, blank (a zero-width space and a space: it states nothing), wrong.
ANSWERED = [
    {"question": "what is the capital of france", "answer": ["Paris"], "response": "Paris"},
    {"question": "who wrote the play romeo and juliet", "answer": ["William Shakespeare", "Shakespeare"],
     "response": "It was written by Shakespeare."},
    {"question": "how many legs does a spider have", "answer": ["eight", "8"], "response": "six"},
    {"question": "what gas do plants absorb from the air", "answer": ["carbon dioxide", "CO2"],
     "response": "\u200b "},
    {"question": "what is the largest planet in the solar system", "answer": ["Jupiter", "the planet Jupiter"],
     "response": "Saturn"},
]
BLANK_ROW = 3
# The known model's CAP for every pair: D = P(entailment) + 0.3 P(neutral) in both directions.
KNOWN_CAP = KNOWN_PROBABILITIES["entailment"] + 0.3 * KNOWN_PROBABILITIES["neutral"]


@pytest.fixture(scope="module")
def answered_file(tmp_path_factory):
    return jsonl_file(tmp_path_factory.mktemp("frameworks") / "answered.jsonl", ANSWERED)


@pytest.fixture(scope="module")
def cap_options(random_nli_model):
    return {"nli_model": random_nli_model, "statement_model": "rules", "device": "cpu"}


def expected(cap_options, verdict, every_gold=True):
    """The project's records for ANSWERED (all gold answers, or only the first as RAGAS and
    DeepEval take), with the relation."""
    golds = [row["answer"] if every_gold else row["answer"][:1] for row in ANSWERED]
    return score_samples([row["response"] for row in ANSWERED], golds, [row["question"] for row in ANSWERED],
                         relations=True, verdict=verdict, **cap_options)


def environment(cap_options, **more):
    return {"CAP_HARNESS_OPTIONS": json.dumps(cap_options), **more}


def test_every_gold_answer_changes_a_score_here(cap_options):
    # Otherwise the framework tests below could not tell one gold from all of them.
    every, first = expected(cap_options, None), expected(cap_options, None, every_gold=False)
    assert any(a["cap"] > b["cap"] + 1e-3 for a, b in zip(every, first))


@pytest.mark.slow
def test_inspect_eval_scores_a_task_with_the_cap_scorer(answered_file, cap_options, tmp_path):
    run_in_harness("inspect-ai", "inspect_run.py", str(tmp_path), str(answered_file), json.dumps("lenient"),
                   env=environment(cap_options))
    output = json.loads((tmp_path / "inspect_output.json").read_text())
    assert output["status"] == "success", output["error"]
    assert output["scorer"] == "cap" and len(output["samples"]) == len(ANSWERED)
    records = {row["question"]: record for row, record in zip(ANSWERED, expected(cap_options, "lenient"))}
    hashcode = shared_scorer(verdict="lenient", **cap_options)[1].hashcode  # scored with questions
    caps, correct = [], []
    for sample in output["samples"]:
        row = next(row for row in ANSWERED if row["question"] == sample["question"])
        record, score = records[row["question"]], sample["score"]["cap"]
        assert sample["completion"] == row["response"] and sample["targets"] == row["answer"]
        assert score["value"]["cap"] == pytest.approx(record["cap"], abs=MODEL_ATOL)
        assert score["value"]["correct"] == ("C" if record["correct"] else "I")
        assert (score["explanation"], score["metadata"]) == (record["explanation"],
                                                             {"hashcode": hashcode, "relation": record["relation"]})
        assert score["answer"] == row["response"]
        assert score["reason"] == ("no_response" if row is ANSWERED[BLANK_ROW] else None)
        caps.append(score["value"]["cap"])
        correct.append(score["value"]["correct"] == "C")
    assert 0 < sum(correct) < len(correct)  # both verdicts occur
    metrics = output["metrics"]
    assert set(metrics) == {"cap", "correct"}
    assert metrics["cap"]["mean"] == pytest.approx(np.mean(caps))
    assert metrics["cap"]["stderr"] == pytest.approx(np.std(caps, ddof=1) / np.sqrt(len(caps)))
    assert metrics["correct"]["accuracy"] == pytest.approx(np.mean(correct))
    assert sum(output["batch_sizes"]) == len(ANSWERED)  # every sample scored once


@pytest.mark.slow
def test_ragas_evaluate_scores_a_dataset_without_an_llm(answered_file, cap_options, tmp_path, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    run_in_harness("ragas", "ragas_run.py", str(tmp_path), str(answered_file),
                   env=environment(cap_options, RAGAS_DO_NOT_TRACK="true"))
    output = json.loads((tmp_path / "ragas_output.json").read_text())
    records = expected(cap_options, "strict", every_gold=False)
    hashcode = shared_scorer(verdict="strict", **cap_options)[1].hashcode  # scored with questions
    assert [row["response"] for row in output["rows"]] == [row["response"] for row in ANSWERED]
    np.testing.assert_allclose([row["cap"] for row in output["rows"]], [r["cap"] for r in records], atol=MODEL_ATOL)
    assert output["relations"] == [{"reason": r["explanation"], "relation": r["relation"], "hashcode": hashcode,
                                    "correct": r["correct"]} for r in records]
    assert output["relations"][BLANK_ROW]["reason"] == BLANK_EXPLANATION
    # Called directly, the reference may list every gold answer.
    every_gold = expected(cap_options, "strict")
    for name in ("ascore", "abatch_score"):
        np.testing.assert_allclose([r["value"] for r in output[name]], [r["cap"] for r in every_gold], atol=MODEL_ATOL)
        assert [r["reason"] for r in output[name]] == [r["explanation"] for r in every_gold]


@pytest.mark.slow
def test_deepeval_evaluate_and_assert_test_judge_with_cap(answered_file, cap_options, known_nli_model, tmp_path,
                                                          monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    run_in_harness("deepeval", "deepeval_run.py", str(tmp_path), str(answered_file), known_nli_model,
                   env=environment(cap_options, DEEPEVAL_TELEMETRY_OPT_OUT="1", DEEPEVAL_HOME=str(tmp_path / "home")))
    output = json.loads((tmp_path / "deepeval_output.json").read_text())
    records = expected(cap_options, "strict", every_gold=False)
    strict = resolve_verdict("strict").threshold
    hashcode = shared_scorer(verdict="strict", **cap_options)[1].hashcode  # scored with questions
    by_answer = {test["actual_output"]: test for test in output["evaluated"]}
    for row, record in zip(ANSWERED, records):
        (data,) = by_answer[row["response"]]["metrics"]
        assert (data["name"], data["threshold"], data["evaluation_model"]) == ("CAP", strict, hashcode)
        assert data["score"] == pytest.approx(record["cap"], abs=MODEL_ATOL)
        assert (data["success"], data["reason"], data["error"]) == (record["correct"], record["explanation"], None)
    assert sum(output["batch_sizes"]) == len(ANSWERED)  # every case scored once, the copies' in one queue
    outcomes = output["assert_test"]
    assert outcomes["answered_lenient"] is None and outcomes["answered_threshold_0.7"] is None
    assert f"CAP (score: {KNOWN_CAP:.3f}" in outcomes["answered_strict"]
    assert f"threshold: {strict}" in outcomes["answered_strict"]
    assert "CAP (score: 0.0" in outcomes["blank_lenient"] and BLANK_EXPLANATION in outcomes["blank_lenient"]
    measured = output["measure"]
    assert measured["score"] == pytest.approx(KNOWN_CAP, abs=MODEL_ATOL)
    assert (measured["success"], measured["threshold"]) == (False, strict)


def test_concurrent_requests_are_scored_in_one_batch_off_the_event_loop(cap_options, caplog):
    queue = shared_queue(verdict="strict", **cap_options)
    assert shared_queue(verdict="strict", **cap_options) is queue
    assert shared_queue(verdict="lenient", **cap_options) is not queue
    shared_scorer(verdict="strict", **cap_options)  # loaded before, as the adapters do

    async def score_all():
        # The loop's own thread holds the scoring lock until every request waits in the queue: if
        # scoring ran on the loop, or one request at a time, this could not finish.
        shared.SCORING_LOCK.acquire()
        tasks = [asyncio.ensure_future(queue.score(row["response"], row["answer"], row["question"]))
                 for row in ANSWERED]
        while len(queue._pending) < len(ANSWERED):
            await asyncio.sleep(0)
        shared.SCORING_LOCK.release()
        return await asyncio.gather(*tasks)

    with caplog.at_level(logging.DEBUG, logger="capqa.harness.batching"):
        records = asyncio.run(score_all())
    assert [r.getMessage() for r in caplog.records if r.name == "capqa.harness.batching"] == [
        f"scoring a batch of {len(ANSWERED)} queued samples"]
    for record, single in zip(records, expected(cap_options, "strict")):
        assert record["cap"] == pytest.approx(single["cap"], abs=MODEL_ATOL)
        assert {k: v for k, v in record.items() if k != "cap"} == {k: v for k, v in single.items() if k != "cap"}


def test_a_bad_sample_fails_alone_and_statements_need_no_question(cap_options):
    queue = ScoringQueue(**cap_options)

    async def score_both():
        return await asyncio.gather(queue.score("Paris", [" "], "what is the capital of france"),
                                    queue.score("Paris is the capital.", "The capital is Paris."),
                                    return_exceptions=True)

    bad, good = asyncio.run(score_both())
    assert isinstance(bad, ValueError) and "no gold answer" in str(bad)
    single = score_samples(["Paris is the capital."], ["The capital is Paris."], None, relations=True, **cap_options)
    assert good["cap"] == pytest.approx(single[0]["cap"], abs=MODEL_ATOL)
    with pytest.raises(TypeError, match="`gold answers` must be a string"):
        asyncio.run(queue.score("Paris", None))
    with pytest.raises(TypeError, match="`answer` must be a string"):
        asyncio.run(queue.score(b"Paris", "Paris"))
    # A model that gave no answer (None) gave a blank one: CAP 0, as everywhere.
    assert asyncio.run(queue.score(None, "Paris"))["cap"] == 0.0
    # A blank answer scores 0; a blank question is an error that names it.
    with pytest.raises(ValueError, match="`question` is an empty string"):
        asyncio.run(queue.score("Paris", "Paris", "\u200b"))
    with pytest.raises(ValueError, match=r"`questions\[1\]` is an empty string"):
        score_samples(["Paris", "Paris"], ["Paris", "Paris"], ["what is the capital of france", " "], **cap_options)


@pytest.mark.parametrize("bad_sample, message", [
    (("Paris", "Sofia\ud800", "what is the capital of france"), "lone surrogate"),
    (("Paris", "\u200b", "what is the capital of france"), "no gold answer"),
    (("Paris", ["\u200b", " "], "what is the capital of france"), "no gold answer"),
    (("Paris", {"text": ["Paris"], "answer_start": [0]}, "what is the capital of france"), "SQuAD-style"),
    (("Paris", b"Paris", "what is the capital of france"), "got bytes"),
    (("Paris", [None], "what is the capital of france"), r"`gold answers\[0\]` must be a string, got NoneType"),
    (("Pa\udc00ris", "Paris", "what is the capital of france"), "lone surrogate"),
    (("Paris", "Paris", "what is \ud800 france"), "lone surrogate"),
])
def test_one_bad_sample_in_a_batch_fails_alone(cap_options, bad_sample, message):
    """Issue 35 item 12: the bad sample's error was given to every sample of its batch."""
    queue = ScoringQueue(**cap_options)
    shared_scorer(**cap_options)

    async def score_all():
        shared.SCORING_LOCK.acquire()  # every request waits in the queue, then they are scored as one batch
        rows = [(row["response"], row["answer"], row["question"]) for row in ANSWERED]
        tasks = [asyncio.ensure_future(queue.score(*sample)) for sample in [*rows[:3], bad_sample, *rows[3:]]]
        while len(queue._pending) < len(ANSWERED):
            await asyncio.sleep(0)
        await asyncio.sleep(0)  # the bad sample too, had it joined the batch
        shared.SCORING_LOCK.release()
        return await asyncio.gather(*tasks, return_exceptions=True)

    records = asyncio.run(score_all())
    assert isinstance(records[3], (TypeError, ValueError)) and re.search(message, str(records[3])), records[3]
    good = records[:3] + records[4:]
    for record, single in zip(good, expected(cap_options, None)):
        assert record["cap"] == pytest.approx(single["cap"], abs=MODEL_ATOL)


def test_a_sample_that_fails_inside_a_batch_fails_alone(cap_options, monkeypatch, caplog):
    """A sample may pass every check and still fail in scoring: its batch is scored again one by one."""
    real_score_samples = batching.score_samples

    def failing_on_one(predictions, *args, **kwargs):
        if "the one that fails" in predictions:
            raise ValueError("this sample cannot be scored")
        return real_score_samples(predictions, *args, **kwargs)

    monkeypatch.setattr(batching, "score_samples", failing_on_one)
    queue = ScoringQueue(**cap_options)
    shared_scorer(**cap_options)

    async def score_all():
        shared.SCORING_LOCK.acquire()
        tasks = [asyncio.ensure_future(queue.score(row["response"], row["answer"], row["question"]))
                 for row in ANSWERED] + [asyncio.ensure_future(queue.score("the one that fails", "Paris", "q?"))]
        while len(queue._pending) < len(tasks):
            await asyncio.sleep(0)
        shared.SCORING_LOCK.release()
        return await asyncio.gather(*tasks, return_exceptions=True)

    with caplog.at_level(logging.WARNING, logger="capqa.harness.batching"):
        records = asyncio.run(score_all())
    assert isinstance(records[-1], ValueError) and "cannot be scored" in str(records[-1])
    for record, single in zip(records[:-1], expected(cap_options, None)):
        assert record["cap"] == pytest.approx(single["cap"], abs=MODEL_ATOL)
    assert "a batch of 6 queued samples failed (ValueError: this sample cannot be scored); scoring each alone" in (
        caplog.text)


@pytest.mark.parametrize("blank", ["", "   \n", "\u200b", "\ufeff\u200d "])
def test_a_blank_prediction_scores_zero_without_a_model_call(blank, cap_options, caplog, monkeypatch):
    _, scorer = shared_scorer(verdict="graded", variant="plus", **cap_options)
    calls = []
    real_predict = scorer.nli.predict
    monkeypatch.setattr(scorer.nli, "predict",
                        lambda *args, **kwargs: calls.append(args) or real_predict(*args, **kwargs))
    with caplog.at_level(logging.WARNING, logger="capqa.metric.scorer"):
        record, = score_samples([blank], [["Paris"]], ["what is the capital of france"], relations=True,
                                verdict="graded", variant="plus", **cap_options)
    assert calls == []
    assert {k: record[k] for k in ("cap", "cap_plus", "correct", "credit", "relation", "explanation")} == {
        "cap": 0.0, "cap_plus": 0.0, "correct": False, "credit": 0.0, "relation": "invalid",
        "explanation": BLANK_EXPLANATION}
    assert [r.getMessage() for r in caplog.records if "blank" in r.getMessage()] == [
        "1 of 1 predictions are blank (no visible text): each scores CAP 0, CAP+ 0, incorrect, "
        "relation 'invalid', without a model call"]


def test_the_deepeval_threshold_defaults_to_the_shipped_strict_verdict():
    from capqa.harness.deepeval_metric import verdict_of

    assert verdict_of(None, None, "cap") == "strict"
    assert verdict_of(0.6, None, "cap") == 0.6
    assert verdict_of(resolve_verdict("lenient").threshold, "lenient", "cap") == "lenient"
    with pytest.raises(ValueError, match="not both"):
        verdict_of(0.5, "strict", "cap")
