"""Broken and unsuitable model folders fail at load with one clear error (issue 27, items 5, 6, 14, 16).

Every folder here is a real tiny model (capqa.dev.offline_models) broken the way a user's folder
breaks: a truncated download, a config edited by hand, a head of another shape, a tokenizer
without a pad token, the wrong kind of model. Each must fail when it loads, naming the model and
the cause, in the metric, the engine, the `score` command (one `error:` line) and the Space.
"""

import json
import os
import shutil

import numpy as np
import pytest

from capqa.cli import main as cli_main
from capqa.dev.offline_models import build_nli_model, build_tokenizer
from capqa.loading.pretrained import ModelLoadError, UnusableModel

from support.lazy import lazy_module
from support.tolerances import MODEL_ATOL

# Imported on first use, so that collecting the tests stays fast.
evaluate = lazy_module("evaluate")
torch = lazy_module("torch")
nli = lazy_module("capqa.engine.nli")

FOUR_LABELS = {0: "entailment", 1: "neutral", 2: "contradiction", 3: "other"}


@pytest.fixture(scope="module")
def broken(tmp_path_factory, random_nli_model):
    """A factory: a copy of the random tiny NLI folder, changed by ``change(folder)``."""
    root = tmp_path_factory.mktemp("broken-models")

    def make(name, change):
        folder = root / name
        if not folder.exists():
            shutil.copytree(random_nli_model, folder)
            change(folder)
        return str(folder)

    return make


def edit_json(name, **changes):
    def change(folder):
        data = json.loads((folder / name).read_text())
        for key, value in changes.items():
            if value is None:
                data.pop(key, None)
            else:
                data[key] = value
        (folder / name).write_text(json.dumps(data))
    return change


def write(name, content):
    def change(folder):
        (folder / name).write_bytes(content(folder / name) if callable(content) else content)
    return change


def edit_weights(edit):
    def change(folder):
        from safetensors.torch import load_file, save_file

        weights = load_file(folder / "model.safetensors")
        edit(weights)
        save_file(weights, folder / "model.safetensors", metadata={"format": "pt"})
    return change


def wider_head(weights):
    weights["classifier.weight"] = torch.zeros(4, weights["classifier.weight"].shape[1])
    weights["classifier.bias"] = torch.zeros(4)


def nan_head(weights):
    weights["classifier.bias"] = torch.full_like(weights["classifier.bias"], float("nan"))


# (folder name, how it is broken, what the error says)
BROKEN = [
    ("truncated-weights", write("model.safetensors", lambda path: path.read_bytes()[:len(path.read_bytes()) // 2]),
     r"not a complete model \(SafetensorError"),
    ("garbage-weights", write("model.safetensors", b"\x00garbage" * 40000), r"not a complete model \(SafetensorError"),
    ("empty-weights", write("model.safetensors", b""), r"not a complete model \(SafetensorError"),
    ("no-weights", lambda folder: (folder / "model.safetensors").unlink(), r"no file named model.safetensors"),
    ("pickle-garbage", lambda folder: ((folder / "model.safetensors").unlink(),
                                       (folder / "pytorch_model.bin").write_bytes(b"\x80garbage" * 40000)),
     r"not a complete model \("),
    ("wider-head", edit_weights(wider_head), r"classifier.weight is \[4, 32\] in the weights but \[3, 32\]"),
    ("no-head", edit_weights(lambda weights: [weights.pop(key) for key in ("classifier.weight", "classifier.bias")]),
     r"2 tensor\(s\) are missing \(classifier.bias, classifier.weight\) and would be random"),
    ("nan-weights", edit_weights(nan_head), r"gave non-finite probabilities \(NaN or inf\)"),
    ("config-not-json", write("config.json", b"{not json"), r"not a complete model \(OSError: .*not a valid JSON"),
    ("config-a-list", write("config.json", b"[1, 2]"), r"not a complete model \(TypeError"),
    ("config-empty", write("config.json", b"{}"), r"Should have a `model_type` key"),
    ("config-wrong-type", edit_json("config.json", hidden_size="wide"), r"not a complete model \(.*hidden_size"),
    ("config-zero-heads", edit_json("config.json", num_attention_heads=0), r"\(ZeroDivisionError"),
    ("config-unknown-type", edit_json("config.json", model_type="no-such-architecture"), r"no-such-architecture"),
    ("config-huge-width", edit_json("config.json", intermediate_size=10**6),
     r"describes a model of at least [\d,]+ parameters, but its weight files hold only [\d,]+ bytes"),
    ("config-huge-positions", edit_json("config.json", max_position_embeddings=10**7),
     r"describes a model of at least [\d,]+ parameters"),
    # 10**5 layers took minutes and gigabytes even on the meta device: refused from the config alone.
    ("config-many-layers", edit_json("config.json", num_hidden_layers=2000), r"describes a model of at least"),
    ("config-negative-eps", edit_json("config.json", layer_norm_eps=-1.0), r"gave non-finite probabilities"),
    ("config-smaller-vocab", edit_json("config.json", vocab_size=10),
     r"word_embeddings.weight is \[\d+, 32\] in the weights but \[10, 32\]"),
    ("tokenizer-not-json", write("tokenizer.json", b"{not json"), r"NLI tokenizer .*not a complete model"),
    ("tokenizer-wrong-shape", write("tokenizer.json", b'{"model": {"type": "nonesuch"}}'),
     r"NLI tokenizer .*not a complete model"),
    ("no-tokenizer-files", lambda folder: [(folder / name).unlink() for name in ("tokenizer.json",
                                                                                 "tokenizer_config.json")],
     r"turns ordinary text into unknown tokens only"),
    ("no-pad-token", edit_json("tokenizer_config.json", pad_token=None),
     r"the tokenizer of `nli_model` has no pad token"),
    ("fifo-config", lambda folder: ((folder / "config.json").unlink(), os.mkfifo(folder / "config.json")),
     r"'config.json' in the local folder is not a regular file"),  # reading it waited forever
    ("looping-link", lambda folder: os.symlink("loop", folder / "loop"), r"'loop' in the local folder is a broken link"),
]


@pytest.mark.parametrize("name, change, message", BROKEN, ids=[case[0] for case in BROKEN])
def test_a_broken_nli_folder_fails_at_load_with_one_clear_error(broken, name, change, message):
    folder = broken(name, change)
    with pytest.raises(ModelLoadError, match=message) as raised:
        nli.NLIScorer(folder, device="cpu")
    assert folder in str(raised.value) and "Instead, pass a local folder of an NLI classifier" in str(raised.value)
    assert raised.value.model == folder and raised.value.headline


@pytest.mark.parametrize("name, change, message", [BROKEN[0], BROKEN[5], BROKEN[-1]],
                         ids=[BROKEN[0][0], BROKEN[5][0], BROKEN[-1][0]])
def test_the_score_command_says_one_error_line(broken, name, change, message, tmp_path, capsys):
    rows = tmp_path / "rows.csv"
    rows.write_text("gold,answer\nSofia is a city.,Burgas is a city.\n")
    status = cli_main(["score", str(rows), "--out", str(tmp_path / "scored.csv"), "--question-column", "",
                       "--gold-column", "gold", "--device", "cpu", "--nli-model", broken(name, change)])
    err = capsys.readouterr().err
    assert status == 1 and "Traceback" not in err
    lines = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(lines) == 1 and "could not load the NLI" in lines[0]


def test_the_space_says_which_model_failed_and_why(broken):
    from capqa import space

    folder = broken("truncated-weights", BROKEN[0][1])
    settings = space.SpaceSettings(nli_model=folder, statement_model="rules", device="cpu")
    line, details = space.ModelLoader(settings).status()
    assert line.startswith("**Models not loaded.** Could not load the NLI model")
    assert "the local folder is not a complete model" in line and "SafetensorError" in details


# --- 27.5: a fourth label ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def four_label_model(tmp_path_factory):
    return str(build_nli_model(tmp_path_factory.mktemp("four") / "nli-four", id2label=FOUR_LABELS))


def test_a_model_with_a_fourth_label_is_refused_at_load_naming_nli_model_and_id2label(four_label_model,
                                                                                       metric_path, tmp_path):
    cache = tmp_path / "scores"
    with pytest.raises(ValueError, match=r"`nli_model` must be an NLI classifier with exactly the labels "
                                         r"entailment, neutral and contradiction; its config.id2label is "
                                         r"\{0: 'entailment', 1: 'neutral', 2: 'contradiction', 3: 'other'\} "
                                         r"\(not NLI labels: 'other'\)") as raised:
        evaluate.load(metric_path, nli_model=four_label_model, statement_model="rules", score_cache_dir=str(cache))
    assert isinstance(raised.value, UnusableModel) and raised.value.headline.startswith("`nli_model` must be")
    assert not cache.exists() or not any(cache.iterdir())  # no cache is opened for a refused model
    with pytest.raises(UnusableModel, match="not NLI labels: 'other'"):
        nli.NLIScorer(four_label_model, device="cpu")  # the command line and the Space build the engine directly


@pytest.mark.parametrize("id2label, problem", [
    ({0: "entailment", 1: "entailed", 2: "neutral"}, "missing: contradiction; labelled twice: entailment"),
    ({0: "entailment", 1: "neutral", 5: "contradiction"}, "its outputs must be numbered 0, 1, 2"),
    ({0: "entailment", 1: "not_entailment"}, "missing: neutral, contradiction; not NLI labels: 'not_entailment'"),
])
def test_labels_must_be_exactly_the_three_nli_classes(id2label, problem):
    from capqa.engine.model_checks import nli_label_indices

    with pytest.raises(ValueError, match=problem):
        nli_label_indices(id2label)


def test_a_multi_label_classifier_is_refused(broken, metric_path):
    folder = broken("multi-label", edit_json("config.json", problem_type="multi_label_classification"))
    with pytest.raises(UnusableModel, match="single-label NLI classifier"):
        evaluate.load(metric_path, nli_model=folder, statement_model="rules")


# --- 27.6: facts of the config, at evaluate.load ------------------------------------------------

@pytest.mark.parametrize("max_length", [513, 10**6])
def test_max_length_beyond_the_position_limit_fails_at_evaluate_load(random_nli_model, metric_path, max_length):
    with pytest.raises(ValueError, match=rf"`max_length` must be at most 512, the position limit of "
                                         rf".*\(config.max_position_embeddings\), got {max_length}"):
        evaluate.load(metric_path, nli_model=random_nli_model, statement_model="rules", max_length=max_length)


def test_a_seq2seq_model_as_nli_model_fails_at_evaluate_load(tiny_seq2seq_model, metric_path):
    with pytest.raises(UnusableModel, match=r"`nli_model` must be an NLI classifier .*'LABEL_0'"):
        evaluate.load(metric_path, nli_model=tiny_seq2seq_model, statement_model="rules")


def test_a_seq2seq_model_labelled_for_nli_is_refused_for_its_missing_head(tiny_seq2seq_model, tmp_path):
    folder = tmp_path / "t5-labelled"
    shutil.copytree(tiny_seq2seq_model, folder)
    edit_json("config.json", id2label={"0": "entailment", "1": "neutral", "2": "contradiction"},
              label2id={"entailment": 0, "neutral": 1, "contradiction": 2})(folder)
    with pytest.raises(UnusableModel, match=r"tensor\(s\) are missing \(classification_head"):
        nli.NLIScorer(str(folder), device="cpu")


def test_an_nli_model_as_statement_model_is_a_load_error(random_nli_model):
    from capqa.statements.generator import StatementGenerator

    # Refused from its config, before any weights load.
    with pytest.raises(ValueError, match=r"`statement_model` must be a seq2seq \(encoder-decoder\) model; "
                                         r".* is a 'deberta-v2' model"):
        StatementGenerator(random_nli_model, device="cpu")


def test_a_tokenizer_with_more_tokens_than_the_embeddings_is_refused(tmp_path):
    folder = build_nli_model(tmp_path / "nli", seed=1)
    bigger = build_tokenizer()
    bigger.add_tokens([f"word{i}" for i in range(100)])  # ids past the model's embeddings
    bigger.save_pretrained(folder)
    with pytest.raises(UnusableModel, match=r"has \d+ tokens but the model's embeddings hold \d+"):
        nli.NLIScorer(str(folder), device="cpu")


def test_a_statement_tokenizer_without_a_pad_token_is_refused(tiny_seq2seq_model, tmp_path):
    from capqa.statements.generator import StatementGenerator

    folder = tmp_path / "t5-no-pad"
    shutil.copytree(tiny_seq2seq_model, folder)
    edit_json("tokenizer_config.json", pad_token=None)(folder)
    with pytest.raises(UnusableModel, match="the tokenizer of `statement_model` has no pad token"):
        StatementGenerator(str(folder), device="cpu")


def test_a_sound_folder_still_loads_and_scores(random_nli_model):
    scorer = nli.NLIScorer(random_nli_model, device="cpu")
    probabilities = scorer.predict(["Sofia is a city."], ["Burgas is a city."])
    assert probabilities.shape == (1, 3) and abs(probabilities.sum() - 1) < 1e-6


def test_a_tokenizer_that_pads_on_the_left_scores_a_pair_the_same_in_any_batch(broken):
    """With padding_side="left", DeBERTa's absolute positions moved under a short pair whenever a
    longer one shared its batch: its probabilities changed by up to 0.99."""
    folder = broken("pads-left", edit_json("tokenizer_config.json", padding_side="left"))
    alone = nli.NLIScorer(folder, device="cpu").predict(["Paris is a city."], ["Paris is big."])
    batched = nli.NLIScorer(folder, device="cpu", batch_size=8).predict(
        ["Paris is a city.", "The quick brown fox jumps over the lazy dog near the river bank today."],
        ["Paris is big.", "A fox jumps over a dog."])
    np.testing.assert_allclose(batched[0], alone[0], atol=MODEL_ATOL)


@pytest.mark.parametrize("name", ["org/" + "a" * 5000, "/tmp/" + "b" * 300, "no\x00such", "two\nlines"])
def test_a_name_the_file_system_cannot_look_up_is_a_load_error_of_bounded_length(name, metric_path):
    with pytest.raises(ModelLoadError) as raised:
        evaluate.load(metric_path, nli_model=name, statement_model="rules")
    assert len(str(raised.value)) < 1500 and "Instead, pass a local folder" in str(raised.value)
