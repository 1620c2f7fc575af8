"""The default NLI model loads the paper's pinned commit in every entry point, and the compact
attention option reaches the engine from the metric and the command line."""

import pandas as pd
import pytest

from capqa.cli import main as cli_main
from capqa.common.constants import DEFAULT_NLI_MODEL, DEFAULT_NLI_REVISION
from capqa.metric.options import MetricOptions

from support.lazy import lazy_module

# Imported on first use, so that collecting the tests stays fast.
evaluate = lazy_module("evaluate")
nli = lazy_module("capqa.engine.nli")


@pytest.fixture
def recorded_loads(monkeypatch, random_nli_model):
    """Every ``from_pretrained`` call of the NLI engine as (class, name, revision); the Hub is out
    of reach, so the local random model stands in for the weights."""
    from transformers import AutoConfig, AutoModelForSequenceClassification, AutoTokenizer

    calls = []
    for loader in (AutoConfig, AutoTokenizer, AutoModelForSequenceClassification):
        stock = loader.from_pretrained

        def recording(name, *args, revision=None, _stock=stock, _loader=loader, **kwargs):
            calls.append((_loader.__name__, str(name), revision))
            return _stock(random_nli_model if str(name) == DEFAULT_NLI_MODEL else name, *args, **kwargs)

        monkeypatch.setattr(loader, "from_pretrained", recording)
    return calls


def default_model_loads(calls):
    return {(loader, revision) for loader, name, revision in calls if name == DEFAULT_NLI_MODEL}


PINNED = {("AutoTokenizer", DEFAULT_NLI_REVISION), ("AutoModelForSequenceClassification", DEFAULT_NLI_REVISION)}


def test_the_engine_alone_loads_the_pinned_commit(recorded_loads):
    scorer = nli.NLIScorer(device="cpu")
    assert scorer.revision == DEFAULT_NLI_REVISION
    assert default_model_loads(recorded_loads) == PINNED


def test_another_model_never_gets_the_pinned_commit(recorded_loads, random_nli_model):
    """The pinned commit is the default model's: any other model loads the revision given, or
    its own default (None: a local folder's files, a Hub id's main)."""
    for revision in (None, "v2"):
        recorded_loads.clear()
        assert nli.NLIScorer(random_nli_model, revision=revision, device="cpu").revision == revision
        loads = {(loader, asked) for loader, name, asked in recorded_loads if name == random_nli_model}
        assert {load for load in loads if load[0] != "AutoConfig"} == {
            ("AutoTokenizer", revision), ("AutoModelForSequenceClassification", revision)}


def test_an_explicit_revision_is_what_loads(recorded_loads):
    nli.NLIScorer(revision="main", device="cpu")
    assert default_model_loads(recorded_loads) == {("AutoTokenizer", "main"), ("AutoModelForSequenceClassification", "main")}


def test_the_metric_and_the_space_options_load_the_pinned_commit(recorded_loads, metric_path):
    # The Space builds its scorer from MetricOptions, like the metric module does.
    MetricOptions(device="cpu").build_scorer()
    assert default_model_loads(recorded_loads) == PINNED
    recorded_loads.clear()
    evaluate.load(metric_path, device="cpu", statement_model="rules").compute(
        predictions=["Burgas is a city in Bulgaria."], references=["Sofia is a city in Bulgaria."])
    # The metric reads the config at load time (labels, position limit): of the pinned commit too.
    assert default_model_loads(recorded_loads) == PINNED | {("AutoConfig", DEFAULT_NLI_REVISION)}


def test_the_hashcode_names_the_default_model_and_its_pinned_commit(recorded_loads):
    scorer = MetricOptions(device="cpu", statement_model="rules").build_scorer()
    parts = scorer.hashcode.split("|")
    assert f"nli_model={DEFAULT_NLI_MODEL}" in parts and f"nli_revision={DEFAULT_NLI_REVISION}" in parts
    # The model CAP+, the relation and the verdict thresholds were fitted on.
    assert scorer.nli.identity.is_fitted_model


def test_the_command_line_loads_the_pinned_commit(recorded_loads, tmp_path):
    rows = tmp_path / "rows.csv"
    pd.DataFrame({"gold": ["Sofia is a city in Bulgaria."], "answer": ["Burgas is a city in Bulgaria."]}).to_csv(rows, index=False)
    assert cli_main(["score", str(rows), "--out", str(tmp_path / "scored.csv"), "--question-column", "",
                     "--gold-column", "gold", "--device", "cpu"]) == 0
    assert default_model_loads(recorded_loads) == PINNED


def test_compact_attention_is_an_option_of_the_metric_and_the_command_line(random_nli_model, tmp_path, monkeypatch):
    built = []
    stock_init = nli.NLIScorer.__init__

    def recording_init(self, *args, **kwargs):
        stock_init(self, *args, **kwargs)
        built.append(self.compact_attention)

    monkeypatch.setattr(nli.NLIScorer, "__init__", recording_init)
    assert MetricOptions(nli_model=random_nli_model, device="cpu").compact_attention is True
    MetricOptions(nli_model=random_nli_model, device="cpu", compact_attention=False).build_scorer()
    rows = tmp_path / "rows.csv"
    pd.DataFrame({"gold": ["Sofia is a city in Bulgaria."], "answer": ["Burgas is a city in Bulgaria."]}).to_csv(rows, index=False)
    for flag in ("--no-compact-attention", "--compact-attention"):
        assert cli_main(["score", str(rows), "--out", str(tmp_path / f"{flag}.csv"), "--question-column", "",
                         "--gold-column", "gold", "--nli-model", random_nli_model, "--device", "cpu", flag]) == 0
    assert built == [False, False, True]
    with pytest.raises(TypeError, match="`compact_attention` must be True or False"):
        MetricOptions(nli_model=random_nli_model, device="cpu", compact_attention="no")
