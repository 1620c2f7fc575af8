"""CAP inside lm-evaluation-harness and lighteval: each harness's own entry point runs a 5-question
free-form QA task with a tiny local generator, and the per-sample CAP it logs equals the project's
scorer on the same generations.

The harnesses are installed from the registry into venvs the tests make (tests/support/harness_venv.py);
the first run installs them (minutes), later runs reuse them.
"""

import json
import logging

import numpy as np
import pytest

from capqa.harness.shared import harness_options, score_samples, shared_scorer
from capqa.verdicts.judge import resolve_verdict

from support.harness_venv import jsonl_file, run_in_harness
from support.lazy import lazy_module
from support.tolerances import MODEL_ATOL

# Imported on first use, so that collecting the tests stays fast.
torch = lazy_module("torch")

# Five real-looking open QA items, each with its list of gold answers (the layout of nq_open).
QA_ITEMS = [
    {"question": "what is the capital of france", "answer": ["Paris"]},
    {"question": "who wrote the play romeo and juliet", "answer": ["William Shakespeare", "Shakespeare"]},
    {"question": "how many legs does a spider have", "answer": ["eight", "8"]},
    {"question": "what gas do plants absorb from the air", "answer": ["carbon dioxide", "CO2"]},
    {"question": "what is the largest planet in the solar system", "answer": ["Jupiter"]},
]


@pytest.fixture(scope="module")
def qa_file(tmp_path_factory):
    return jsonl_file(tmp_path_factory.mktemp("harness") / "qa.jsonl", QA_ITEMS)


@pytest.fixture(scope="module")
def tiny_causal_model(models_dir):
    """A tiny GPT-2 (lighteval's transformers backend loads causal LMs only) that always writes
    "Paris": its last layer norm outputs a constant vector, and only that token's output row
    points along it. A random model tends to stop at once, and a blank answer never reaches CAP."""
    from transformers import GPT2Config, GPT2LMHeadModel

    from capqa.dev.offline_models import build_tokenizer

    folder = models_dir / "gpt2-paris"
    if not (folder / "config.json").exists():
        tokenizer = build_tokenizer()
        config = GPT2Config(vocab_size=len(tokenizer), n_positions=256, n_embd=32, n_layer=2, n_head=2,
                            bos_token_id=tokenizer.eos_token_id, eos_token_id=tokenizer.eos_token_id,
                            pad_token_id=tokenizer.pad_token_id, tie_word_embeddings=False)
        torch.manual_seed(0)
        model = GPT2LMHeadModel(config).eval()
        paris = tokenizer.encode("Paris", add_special_tokens=False)[0]
        with torch.no_grad():
            model.transformer.ln_f.weight.zero_()
            model.transformer.ln_f.bias.fill_(1.0)
            model.lm_head.weight.zero_()
            model.lm_head.weight[paris] = 1.0
        model.save_pretrained(folder)
        tokenizer.save_pretrained(folder)
    return str(folder)


@pytest.fixture(scope="module")
def cap_options(random_nli_model):
    # Machine-level options through the environment, as a user of the harness would give them.
    return {"nli_model": random_nli_model, "statement_model": "rules", "device": "cpu"}


def check_samples(samples, golds_of, cap_options, hashcodes):
    """Each logged sample's CAP is the project's scorer on its generation; correct follows the
    strict threshold; the hashcodes the run recorded are the scorer's one."""
    generations = [sample["generation"] for sample in samples]
    # A blank answer scores 0 without a model call: the run must reach the scorer.
    assert any(generation.strip() for generation in generations), generations
    expected = score_samples(generations, [golds_of(sample) for sample in samples],
                             [sample["question"] for sample in samples], verdict="strict", **cap_options)
    np.testing.assert_allclose([sample["cap"] for sample in samples], [record["cap"] for record in expected],
                               atol=MODEL_ATOL)
    threshold = resolve_verdict("strict").threshold
    assert [sample["correct"] for sample in samples] == [round(sample["cap"], 10) >= threshold
                                                        for sample in samples]
    # One hashcode for every sample: the scorer's, with the statements it made.
    _, scorer = shared_scorer(verdict="strict", **cap_options)
    assert hashcodes == [scorer.hashcode] * len(hashcodes) and hashcodes


@pytest.mark.slow
def test_lm_eval_simple_evaluate_runs_the_example_task(qa_file, tiny_seq2seq_model, cap_options, tmp_path):
    run_in_harness("lm-eval", "lm_eval_run.py", str(tmp_path), str(qa_file), tiny_seq2seq_model,
                   env={"CAP_HARNESS_OPTIONS": json.dumps(cap_options)})
    output = json.loads((tmp_path / "lm_eval_output.json").read_text())
    samples = output["samples"]
    assert len(samples) == len(QA_ITEMS)
    logged = [{"generation": sample["filtered_resps"][0], "question": sample["doc"]["question"],
               "answer": sample["doc"]["answer"], "cap": sample["cap"], "correct": sample["correct"]}
              for sample in samples]
    # The hashcode is no metric (a row of lm-eval's table, 493 characters wide): lm-eval's log has
    # it once, and neither the samples nor the results table carry it (issue 36, item 16).
    hashcodes = [line.rsplit(": ", 1)[1] for line in output["log"] if line.startswith("CAP hashcode")]
    assert len(hashcodes) == 1 and not any("cap_hashcode" in sample for sample in samples)
    assert set(output["results"]) >= {"cap,none", "correct,none"} and "cap_hashcode,none" not in output["results"]
    assert "hashcode" not in output["table"] and hashcodes[0] not in output["table"]
    check_samples(logged, lambda sample: sample["answer"], cap_options, hashcodes)
    # lm-eval's aggregation: the task's cap and accuracy are the means of the logged samples.
    assert output["results"]["cap,none"] == pytest.approx(np.mean([s["cap"] for s in logged]), abs=MODEL_ATOL)
    assert output["results"]["correct,none"] == pytest.approx(np.mean([s["correct"] for s in logged]))


@pytest.mark.slow
def test_lighteval_pipeline_runs_the_example_task(qa_file, tiny_causal_model, cap_options, tmp_path):
    run_in_harness("lighteval", "lighteval_run.py", str(tmp_path), str(qa_file), tiny_causal_model,
                   env={"CAP_HARNESS_OPTIONS": json.dumps(cap_options)})
    output = json.loads((tmp_path / "lighteval_output.json").read_text())
    samples = output["samples"]
    assert len(samples) == len(QA_ITEMS)
    logged = [{"generation": sample["generation"], "question": sample["specific"]["question"],
               "golds": sample["golds"], "cap": sample["metric"]["cap"], "correct": bool(sample["metric"]["correct"]),
               "cap_hashcode": sample["specific"].get("cap_hashcode")} for sample in samples]
    assert sorted(sample["golds"] for sample in logged) == sorted(item["answer"] for item in QA_ITEMS)
    check_samples(logged, lambda sample: sample["golds"], cap_options, [sample["cap_hashcode"] for sample in logged])
    # lighteval's corpus aggregation: the means of the sample values.
    task = output["results"]["cap_open_qa:0"]
    assert task["cap"] == pytest.approx(np.mean([s["cap"] for s in logged]), abs=MODEL_ATOL)
    assert task["correct"] == pytest.approx(np.mean([s["correct"] for s in logged]))


def test_one_scorer_per_process_and_options(random_nli_model, monkeypatch):
    monkeypatch.setenv("CAP_HARNESS_OPTIONS", json.dumps({"nli_model": random_nli_model, "device": "cpu"}))
    first = shared_scorer(verdict="strict")
    assert shared_scorer(verdict="strict")[1] is first[1]
    assert shared_scorer(verdict="lenient")[1] is not first[1]
    assert harness_options(verdict="strict")["nli_model"] == random_nli_model


def test_blank_generation_scores_zero_and_incorrect(random_nli_model):
    records = score_samples(["", "Paris"], [["Paris"], ["Paris"]], None, nli_model=random_nli_model,
                            device="cpu", verdict="strict")
    assert records[0]["cap"] == 0.0 and records[0]["correct"] is False
    assert 0.0 < records[1]["cap"] <= 1.0


def test_bad_harness_options_are_refused(monkeypatch):
    monkeypatch.setenv("CAP_HARNESS_OPTIONS", "[1, 2]")
    with pytest.raises(ValueError, match="CAP_HARNESS_OPTIONS"):
        harness_options()
    monkeypatch.setenv("CAP_HARNESS_OPTIONS", "{")
    with pytest.raises(ValueError, match="CAP_HARNESS_OPTIONS"):
        harness_options()
    monkeypatch.delenv("CAP_HARNESS_OPTIONS")
    with pytest.raises(ValueError, match="no gold answer"):
        score_samples(["x"], [[" "]], verdict="strict")
    with pytest.raises(ValueError, match="one of each per sample"):
        score_samples(["x", "y"], [["x"]], verdict="strict")


def test_lm_eval_process_results_scores_the_documents_golds(random_nli_model, monkeypatch, caplog):
    from capqa.harness.lm_evaluation_harness import make_process_results

    monkeypatch.setenv("CAP_HARNESS_OPTIONS", json.dumps({"nli_model": random_nli_model, "device": "cpu",
                                                          "statement_model": "rules"}))
    process_results = make_process_results(question_field="question", answers_field="answer", verdict="strict")
    doc = QA_ITEMS[1]
    with caplog.at_level(logging.INFO, logger="lm_eval.capqa"):
        record = process_results(doc, ["Shakespeare wrote it"])
        process_results(QA_ITEMS[0], ["Paris"])
    expected = score_samples(["Shakespeare wrote it"], [doc["answer"]], [doc["question"]], verdict="strict")[0]
    # Every key is a metric to lm-eval: the hashcode is logged, once, not returned.
    assert record == {key: value for key, value in expected.items() if key != "cap_hashcode"}
    assert set(record) == {"cap", "correct"}
    assert [entry.getMessage() for entry in caplog.records if entry.name == "lm_eval.capqa"] == [
        f"CAP hashcode (what produced the cap scores; quote it with them): {expected['cap_hashcode']}"]
    with pytest.raises(KeyError, match="no field 'answers'"):
        make_process_results(verdict="strict")(doc, ["x"])
# --- issue 35 items 6 and 11: what a harness passes is checked as the metric checks its input ------

@pytest.mark.parametrize("golds, error, message", [
    ({"text": ["Sofia"], "answer_start": [0]}, TypeError, r"`golds\[0\]` must be a string or a list of strings, got "
                                                          r"a dict \(SQuAD-style answers\? give their 'text' list\)"),
    (b"Sofia", TypeError, r"`golds\[0\]` must be a string, got bytes"),
    ([None], TypeError, r"`golds\[0\]\[0\]` must be a string, got NoneType"),
    (None, TypeError, r"`golds\[0\]` must be a string, got NoneType"),
    ([1989], TypeError, r"`golds\[0\]\[0\]` must be a string, got int"),
    ({"Sofia", "Plovdiv"}, TypeError, r"`golds\[0\]` is a set, which has no order"),
    ([["Sofia"]], TypeError, r"`golds\[0\]\[0\]` must be a string, got list"),
    ([], ValueError, r"`golds\[0\]` is an empty list"),
    (["\u200b", " "], ValueError, r"no gold answer"),
    ("Sofia\ud800", ValueError, r"lone surrogate"),
])
def test_harness_golds_are_refused_by_name_unless_they_are_text(golds, error, message):
    with pytest.raises(error, match=message):
        score_samples(["Sofia"], [golds], verdict="strict")


@pytest.mark.parametrize("generation, error, message", [
    (b"Sofia", TypeError, r"`predictions\[0\]` must be a string, got bytes"),
    (["Sofia"], TypeError, r"`predictions\[0\]` must be a string, got list"),
    (42, TypeError, r"`predictions\[0\]` must be a string, got int"),
    ("So\udc00fia", ValueError, r"`predictions\[0\]` has a lone surrogate"),
])
def test_harness_generations_are_refused_by_name_unless_they_are_text(generation, error, message):
    with pytest.raises(error, match=message):
        score_samples([generation], ["Sofia"], verdict="strict")


def test_a_generation_of_none_is_a_blank_answer_not_the_text_none(random_nli_model):
    options = {"nli_model": random_nli_model, "device": "cpu", "verdict": "strict"}
    none, blank = score_samples([None, ""], [["None"], ["None"]], None, **options)
    assert none == blank and none["cap"] == 0.0 and none["correct"] is False


def test_lm_eval_process_results_names_an_empty_generation_list_and_a_squad_gold(random_nli_model, monkeypatch):
    from capqa.harness.lm_evaluation_harness import make_process_results

    monkeypatch.setenv("CAP_HARNESS_OPTIONS", json.dumps({"nli_model": random_nli_model, "device": "cpu",
                                                          "statement_model": "rules"}))
    process_results = make_process_results(question_field="question", answers_field="answer", verdict="strict")
    with pytest.raises(ValueError, match=r"`results` \(the generations lm-eval passes to process_results\) is an "
                                         r"empty list"):
        process_results(QA_ITEMS[0], [])
    squad = {"question": "what is the capital of france", "answer": {"text": ["Paris"], "answer_start": [0]}}
    with pytest.raises(TypeError, match=r"`doc\['answer'\]` must be .*SQuAD-style answers\? give their 'text' list"):
        process_results(squad, ["Paris"])
    assert process_results(QA_ITEMS[0], [None])["cap"] == 0.0


def test_lighteval_metric_names_an_empty_final_text(random_nli_model):
    from types import SimpleNamespace

    from capqa.harness.lighteval_metric import CAPSampleScoring

    scoring = CAPSampleScoring(nli_model=random_nli_model, device="cpu", statement_model="rules")
    doc = SimpleNamespace(specific={"question": "what is the capital of france"}, get_golds=lambda: ["Paris"])
    for final_text in ([], None, "Paris"):
        with pytest.raises(ValueError, match=r"`model_response.final_text` must be a list of the model's generations"):
            scoring.compute(doc, SimpleNamespace(final_text=final_text))
    assert scoring.compute(doc, SimpleNamespace(final_text=["Paris"]))["cap"] > 0
    bad_golds = SimpleNamespace(specific=doc.specific, get_golds=lambda: [None])
    with pytest.raises(TypeError, match=r"`doc.get_golds\(\)\[0\]` must be a string, got NoneType"):
        scoring.compute(bad_golds, SimpleNamespace(final_text=["Paris"]))


def test_a_harness_writes_its_statements_through_the_openai_engine(random_nli_model, status_server, monkeypatch):
    """Issue 32: the engine is chosen by name from the harness options (here ``CAP_HARNESS_OPTIONS``),
    the statements come from the endpoint, and the hashcode names the engine and the served model."""
    from capqa.harness.lm_evaluation_harness import make_process_results

    server = status_server([])
    monkeypatch.setenv("CAP_HARNESS_OPTIONS", json.dumps({
        "nli_model": random_nli_model, "device": "cpu", "statement_engine": "openai",
        "statement_model": "harness-served-model", "statement_base_url": server.base_url}))
    record = make_process_results(question_field="question", answers_field="answer", verdict="strict")(
        {"question": "What is the capital of France?", "answer": ["Paris"]}, ["Paris"])
    assert set(record) == {"cap", "correct"} and server.requests >= 1
    _, scorer = shared_scorer()
    assert "statements=openai(model=harness-served-model," in scorer.hashcode
