"""The figures of docs/scale.md: the FLOPs behind the GPU projection (against torch's own count),
the cost table's rendering, and the rules-against-the-paper's-statements table."""

import json

import pandas as pd
import pytest

from capqa.doctools.paper_agreement import (calibration_statements_line, calibration_statements_markdown,
                                            rules_vs_paper, rules_vs_paper_line, rules_vs_paper_markdown)

from support.lazy import lazy_module

# Imported on first use, so that collecting the tests stays fast.
torch = lazy_module("torch")
flop_counter = lazy_module("torch.utils.flop_counter")
cost = lazy_module("capqa.doctools.cost")
generator = lazy_module("capqa.statements.generator")


def test_the_projected_flops_are_the_flops_torch_counts(random_nli_model):
    """The formula behind the GPU rows, against torch's FLOP counter on the engine's own model
    (compact relative attention) and batches."""
    from capqa.engine.nli import NLIScorer

    nli = NLIScorer(random_nli_model, device="cpu", show_progress=False)
    pairs = [("The capital of France is Paris.", "Paris is the capital of France, a large city."),
             ("Sofia is a city in Bulgaria.", "Burgas is a city.")] * 20
    features, batches = nli.plan(sorted(set(pairs)) + [(p, h + " Indeed.") for p, h in pairs[:6]])
    lengths = [len(feature["input_ids"]) for feature in features]
    with torch.no_grad(), flop_counter.FlopCounterMode(display=False) as counter:
        for batch in batches:
            nli.model(**nli.tokenizer.pad([features[i] for i in batch], return_tensors="pt"))
    # The classifier head is left out of the formula: a few per cent of this tiny model, <1 % of "large".
    assert cost.forward_flops(nli.model.config, batches, lengths) == pytest.approx(counter.get_total_flops(), rel=0.05)


def test_the_cost_table_says_which_rows_are_measured_and_which_projected(tmp_path):
    record = {"measured": "2026-12-01", "rows": 100, "runs": 3, "batch_size": 32, "load_average": [2.0, 3.0],
              "model": "DeBERTa-v2 'large' config, random weights",
              "machine": {"cpu": "Some CPU (avx2)", "cores": 2, "memory_gib": 23.5, "torch": "2.13.0+cpu",
                          "torch_threads": 2, "device": "cpu"},
              "cpu": {"float32": {"answers_per_hour": 1000.0}, "int8": {"answers_per_hour": 2000.0}},
              "work": {"flops": 1000 * 60e9, "distinct_pairs": 1900, "mean_tokens": 48, "rows": 1000}}
    # 500 checked statements per CPU-second, 1.25 per row: 400 rows a second per core.
    pipeline = {"rows": 1000, "nli_pairs_per_second": 2000,
                "statements_alone": {"pairs": 1250, "checked_pairs_per_cpu_second": 500.0},
                "runs": [{"workers": 0, "speedup": 1.0}, {"workers": 1, "speedup": 1.5}, {"workers": 2, "speedup": 1.75}]}
    assert cost.statements_answers_per_hour(pipeline) == pytest.approx(3600 * 400)
    projection = cost.gpu_projection(record, pipeline)
    a100 = projection["NVIDIA A100 SXM (bf16)"]
    assert a100["nli_answers_per_hour"] == pytest.approx(3600 * cost.ASSUMED_UTILISATION * 312e12 / 60e9)
    # Eight workers make 11.5 M answers' statements an hour: the A100's NLI (5.6 M/h) sets the pace.
    assert a100["answers_per_hour"] == a100["nli_answers_per_hour"]
    assert a100["one_process_answers_per_hour"] == pytest.approx(1 / (1 / a100["nli_answers_per_hour"] + 1 / 1.44e6))
    path, pipeline_path = tmp_path / "cost.json", tmp_path / "pipeline.json"
    path.write_text(json.dumps(record))
    pipeline_path.write_text(json.dumps(pipeline))
    table = cost.cost_table_markdown(path, pipeline_path)
    assert "| this CPU (2 threads) | measured, float32, statements included | 1,000 | 1,000 h (42 days) |" in table
    assert "| this CPU (2 threads) | measured, int8, statements included | 2,000 | 500 h (21 days) |" in table
    assert table.count("**projected**") == len(projection)
    assert "60.0 GFLOPs per answer" in table and "No GPU was available" in table and "Some CPU" in table
    assert "1.44 M answers per hour per CPU core" in table and "1 worker 1.50x, 2 workers 1.75x" in table
    # The H100's NLI model (18 M/h) outruns eight workers (11.5 M/h): the table says the statements set the pace.
    assert "11.52 M (the statements still set the pace" in table


@pytest.fixture
def tiny_sample(tmp_path):
    """Three rows whose gold statements are the rules' own and whose predicted ones are not."""
    questions = ["What is the capital of France?", "Name a city in Bulgaria.", "Who wrote Hamlet?"]
    golds, answers = ["Paris", "Sofia", "Shakespeare"], ["Lyon", "Burgas", "Marlowe"]
    made = generator.StatementGenerator("rules", show_progress=False).generate(questions, golds)
    path = tmp_path / "sample.csv"
    pd.DataFrame({"question": questions, "gold_answer": golds, "answer": answers, "premise": made,
                  "hypothesis": ["Something else entirely."] * 3,
                  "label_semantic": ["invalid", "alternative_correct", "invalid"]}).to_csv(path, index=False)
    return path


def test_rules_against_the_papers_statements_per_class(tiny_sample):
    scores = rules_vs_paper(tiny_sample)
    gold, predicted = scores[scores["side"] == "gold"], scores[scores["side"] == "predicted"]
    assert gold["exact_match"].tolist() == [1.0, 1.0, 1.0] and gold["token_f1"].tolist() == [1.0, 1.0, 1.0]
    assert predicted["exact_match"].tolist() == [0.0, 0.0, 0.0]
    table = rules_vs_paper_markdown(scores=scores).splitlines()
    assert table[2].startswith("| **all** | 3 | 100.0 % | 1.000 | 0.0 % |")
    # Classes in the taxonomy's order, only those present.
    assert [line.split("|")[1].strip() for line in table[3:]] == ["alternative_correct", "invalid"]
    assert "3 CAP-Correctness sample rows" in rules_vs_paper_line(scores=scores).replace("\n  ", " ")
    # Both statements of a row: none of the three rows has both (the predicted ones all differ).
    both = calibration_statements_markdown(scores=scores).splitlines()
    assert both[2] == "| **all** | 3 | 0.0 % | 0.0 % | 100.0 % | 0.0 % |"
    line = calibration_statements_line(scores=scores).replace("\n", " ")
    assert "both statements of a row are that model's on 0.0 % of the 3 CAP-Correctness sample rows" in line
    assert "calibration_statements" in line and "77.70 %" in line
