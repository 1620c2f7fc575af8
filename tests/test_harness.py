"""CAP inside lm-evaluation-harness and lighteval: each harness's own entry point runs a 5-question
free-form QA task with a tiny local generator, and the per-sample CAP it logs equals the project's
scorer on the same generations.

The harnesses are installed from the registry into venvs the tests make (tests/harness_venv.py);
the first run installs them (minutes), later runs reuse them.
"""

import json

import numpy as np
import pytest
import torch

from capqa.harness.shared import harness_options, score_samples, shared_scorer
from capqa.verdicts.judge import resolve_verdict
from conftest import MODEL_ATOL
from harness_venv import jsonl_file, run_in_harness

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


def check_samples(samples, golds_of, cap_options):
    """Each logged sample's CAP is the project's scorer on its generation; correct follows the
    strict threshold; the hashcode is the same everywhere."""
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
    assert {sample["cap_hashcode"] for sample in samples} == {scorer.hashcode}


@pytest.mark.slow
def test_lm_eval_simple_evaluate_runs_the_example_task(qa_file, tiny_seq2seq_model, cap_options, tmp_path):
    run_in_harness("lm-eval", "lm_eval_run.py", str(tmp_path), str(qa_file), tiny_seq2seq_model,
                   env={"CAP_HARNESS_OPTIONS": json.dumps(cap_options)})
    output = json.loads((tmp_path / "lm_eval_output.json").read_text())
    samples = output["samples"]
    assert len(samples) == len(QA_ITEMS)
    logged = [{"generation": sample["filtered_resps"][0], "question": sample["doc"]["question"],
               "answer": sample["doc"]["answer"], "cap": sample["cap"], "correct": sample["correct"],
               "cap_hashcode": sample.get("cap_hashcode")} for sample in samples]
    check_samples(logged, lambda sample: sample["answer"], cap_options)
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
    check_samples(logged, lambda sample: sample["golds"], cap_options)
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


def test_lm_eval_process_results_scores_the_documents_golds(random_nli_model, monkeypatch):
    from capqa.harness.lm_evaluation_harness import make_process_results, single_value

    monkeypatch.setenv("CAP_HARNESS_OPTIONS", json.dumps({"nli_model": random_nli_model, "device": "cpu",
                                                          "statement_model": "rules"}))
    process_results = make_process_results(question_field="question", answers_field="answer", verdict="strict")
    doc = QA_ITEMS[1]
    record = process_results(doc, ["Shakespeare wrote it"])
    expected = score_samples(["Shakespeare wrote it"], [doc["answer"]], [doc["question"]], verdict="strict")[0]
    assert record == expected and set(record) >= {"cap", "correct"}
    with pytest.raises(KeyError, match="no field 'answers'"):
        make_process_results(verdict="strict")(doc, ["x"])
    assert single_value(["h", "h"]) == "h"
    with pytest.raises(ValueError, match="different CAP options"):
        single_value(["h", "g"])
