"""Statement-model training and evaluation, end to end on a tiny T5 built offline (no network)."""

import json
import shutil

import pandas as pd
import pytest

from capqa.cli.eval_statements import main as evaluate_main
from capqa.cli.train_statements import main as train_main
from capqa.common.constants import CITATION, STATEMENT_BASE_MODEL, STATEMENT_TEMPLATE
from capqa.statements.data import load_statement_rows
from capqa.statements.evaluation import evaluate_statements
from capqa.statements.training import CHECKPOINTS, LOSS_PLOT, TRAINING_SUMMARY, train_statement_model

from support.data import REPO_ROOT, data_path
from support.lazy import lazy_module
from support.models import KNOWN_PROBABILITIES

# Imported on first use, so that collecting the tests stays fast.
evaluate = lazy_module("evaluate")
huggingface_hub = lazy_module("huggingface_hub")
capqa_statements_generator = lazy_module("capqa.statements.generator")

# Enough optimiser steps at a high rate for a 2-layer T5 to learn something in seconds.
TINY_SETTINGS = dict(epochs=1, batch_size=8, learning_rate=3e-3, seed=0, device="cpu", show_progress=False)


@pytest.fixture(scope="module")
def sample_csv():
    return data_path("cap_statements_sample.csv")


@pytest.fixture(scope="module")
def trained(tiny_seq2seq_model, sample_csv, tmp_path_factory):
    """The tiny T5 fine-tuned for 4 steps on 32 rows of the shared sample."""
    rows = load_statement_rows(sample_csv, limit=32)
    folder = tmp_path_factory.mktemp("trained") / "statement-model"
    summary = train_statement_model(rows, folder, base_model=tiny_seq2seq_model, **TINY_SETTINGS)
    return folder, summary


def test_training_lowers_the_loss_and_saves_a_model_folder(trained):
    folder, summary = trained
    assert summary["steps"] == 4 and summary["rows"] == 32 and len(summary["step_losses"]) == 4
    assert summary["loss_after"] < summary["loss_before"] - 0.3
    assert summary["max_length"] == 512  # the paper's training length
    for name in ("config.json", "model.safetensors", "tokenizer.json", TRAINING_SUMMARY, LOSS_PLOT):
        assert (folder / name).is_file(), name
    assert json.loads((folder / TRAINING_SUMMARY).read_text())["loss_after"] == summary["loss_after"]


def test_the_trained_folder_generates_one_statement_per_input(trained, sample_csv):
    rows = load_statement_rows(sample_csv, limit=5)
    generator = capqa_statements_generator.StatementGenerator(model=str(trained[0]), device="cpu", max_new_tokens=24)
    statements = generator.generate([row["question"] for row in rows], [row["answer"] for row in rows])
    assert len(statements) == 5 and all(isinstance(text, str) and text.strip() for text in statements)


def test_the_trained_folder_loads_through_the_metric(trained, known_nli_model, metric_path):
    cap = evaluate.load(metric_path, statement_model=str(trained[0]), nli_model=known_nli_model, device="cpu")
    result = cap.compute(predictions=["in 1989"], references=[["1989"]],
                         questions=["When did the Berlin Wall fall?"], return_details=True)
    # The NLI model gives the same probabilities for every pair, so CAP follows from the formula.
    expected = KNOWN_PROBABILITIES["entailment"] + 0.3 * KNOWN_PROBABILITIES["neutral"]
    assert result["scores"] == pytest.approx([expected])
    # One statement per input came from the trained model: the gold's (premise) and the prediction's.
    assert len(result["premises"]) == len(result["hypotheses"]) == 1
    assert all(isinstance(text, str) and text.strip() for text in result["premises"] + result["hypotheses"])


def test_training_with_the_same_seed_repeats_exactly(tiny_seq2seq_model, sample_csv, tmp_path):
    rows = load_statement_rows(sample_csv, limit=4)
    settings = {**TINY_SETTINGS, "batch_size": 2}
    first = train_statement_model(rows, tmp_path / "a", base_model=tiny_seq2seq_model, **settings)
    second = train_statement_model(rows, tmp_path / "b", base_model=tiny_seq2seq_model, **settings)
    assert first["step_losses"] == second["step_losses"] and len(first["step_losses"]) == 2


def test_an_interrupted_training_resumes_from_its_checkpoint(tiny_seq2seq_model, sample_csv, tmp_path):
    rows = load_statement_rows(sample_csv, limit=16)
    settings = {**TINY_SETTINGS, "batch_size": 4, "save_steps": 1}
    folder = tmp_path / "model"
    whole = train_statement_model(rows, folder, base_model=tiny_seq2seq_model, **settings)
    checkpoints = folder / CHECKPOINTS
    assert sorted(path.name for path in checkpoints.iterdir()) == ["checkpoint-3", "checkpoint-4"]
    # As if the run had been killed during its last step: only step 3's checkpoint is there.
    shutil.rmtree(checkpoints / "checkpoint-4")
    resumed = train_statement_model(rows, folder, base_model=tiny_seq2seq_model, resume=True, **settings)
    assert resumed["resumed_from_step"] == 3 and resumed["steps"] == 4 and len(resumed["step_losses"]) == 4
    # Weights, optimiser, scheduler and data order restored: the same losses as the uninterrupted run.
    assert resumed["step_losses"] == pytest.approx(whole["step_losses"], abs=1e-5)


def test_evaluation_during_training_and_no_local_path_in_the_summary(tiny_seq2seq_model, sample_csv, tmp_path):
    rows = load_statement_rows(sample_csv, limit=8)
    summary = train_statement_model(rows, tmp_path / "m", base_model=tiny_seq2seq_model, eval_rows=rows[:4],
                                    **{**TINY_SETTINGS, "batch_size": 4, "save_steps": 1})
    assert len(summary["eval_losses"]) == 2 and all(loss > 0 for loss in summary["eval_losses"])
    written = (tmp_path / "m" / TRAINING_SUMMARY).read_text()
    assert tiny_seq2seq_model not in written and str(tmp_path) not in written
    assert summary["base_model"] == "local folder 't5-tiny'"


def test_commands_train_then_evaluate(tiny_seq2seq_model, sample_csv, tmp_path, capsys):
    model = tmp_path / "model"
    assert train_main(["--output-dir", str(model), "--base-model", tiny_seq2seq_model, "--csv", str(sample_csv),
                       "--limit", "16", "--epochs", "1", "--device", "cpu", "--learning-rate", "3e-3"]) == 0
    assert "trained 2 steps on 16 rows" in capsys.readouterr().out
    scores_json, predictions_csv = tmp_path / "scores.json", tmp_path / "generated.csv"
    assert evaluate_main(["--model", str(model), "--csv", str(sample_csv), "--limit", "4", "--num-beams", "1",
                          "--device", "cpu", "--output-json", str(scores_json),
                          "--predictions-csv", str(predictions_csv)]) == 0
    scores = json.loads(scores_json.read_text())
    assert scores["rows"] == 4
    assert 0 <= scores["exact_match"] <= 1 and 0 <= scores["token_f1"] <= 1
    assert 0 <= scores["bleu"] <= 100 and 0 <= scores["chrf"] <= 100
    generated = pd.read_csv(predictions_csv, keep_default_na=False)
    assert len(generated) == 4 and (generated.generated.str.len() > 0).all()


@pytest.fixture(scope="module")
def rules_evaluation(sample_csv):
    return evaluate_statements("rules", load_statement_rows(sample_csv))


def test_evaluating_the_rule_converter_on_the_shared_sample(rules_evaluation):
    scores, predictions = rules_evaluation
    assert len(predictions) == scores["rows"] == 610 and all(text.endswith(".") for text in predictions)
    assert scores["exact_match"] >= 0.75 and scores["bleu"] > 80 and scores["chrf"] > 90
    by_type = scores["by_question_type"]
    assert set(by_type) == {"short_question", "sentence_to_complete", "blank_spaces_task"}
    assert by_type["short_question"]["exact_match"] >= 0.50
    assert sum(group["rows"] for group in by_type.values()) == 610


def test_rows_load_from_a_dataset_folder_through_datasets(sample_csv, tmp_path):
    """The Hub path (``datasets.load_dataset``) on a local dataset folder with a train split."""
    folder = tmp_path / "CAP-Statements"
    folder.mkdir()
    pd.read_csv(sample_csv, keep_default_na=False).head(3).to_csv(folder / "train.csv", index=False)
    rows = load_statement_rows(dataset=str(folder), split="train")
    assert [row["statement"] for row in rows] == list(pd.read_csv(sample_csv).statement.head(3))


def test_bad_inputs_are_rejected(sample_csv, tmp_path, tiny_seq2seq_model):
    incomplete = tmp_path / "incomplete.csv"
    incomplete.write_text("question,answer\nWhat?,x\n")
    with pytest.raises(ValueError, match="'statement'"):
        load_statement_rows(incomplete)
    with pytest.raises(ValueError, match="`limit`"):
        load_statement_rows(sample_csv, limit=0)
    rows = load_statement_rows(sample_csv, limit=2)
    with pytest.raises(ValueError, match="`learning_rate`"):
        train_statement_model(rows, tmp_path / "m", base_model=tiny_seq2seq_model, learning_rate=-1.0)
    with pytest.raises(SystemExit):
        train_main(["--output-dir", str(tmp_path / "m"), "--csv", str(tmp_path / "missing.csv")])


MODEL_CARD = REPO_ROOT / "statement_model_card" / "README.md"


def test_model_card_metadata_parses_and_names_the_hub_fields():
    data = huggingface_hub.ModelCard.load(MODEL_CARD).data
    assert data.license == "apache-2.0" and "en" in data.language
    assert data.base_model == STATEMENT_BASE_MODEL
    assert data.datasets == ["cap-eval/CAP-Statements"]
    assert data.pipeline_tag == "text2text-generation" and data.library_name == "transformers"
    assert {"exact_match", "sacrebleu", "chrf"} <= set(data.metrics)


def test_model_card_text_states_the_paper_settings_and_figures(monkeypatch):
    from capqa.common.constants import statement_model_id

    monkeypatch.delenv("CAP_HUB_NAMESPACE", raising=False)
    text = huggingface_hub.ModelCard.load(MODEL_CARD).text
    for section in ("## Intended use", "## How to use", "## Training data", "## Training procedure",
                    "## Evaluation", "## Limitations", "## Citation"):
        assert section in text, section
    assert statement_model_id() in text and STATEMENT_TEMPLATE in text
    assert "1,353" in text and "90%" in text and "4 beams" in text and "512 tokens" in text
    assert CITATION.strip() in text
