"""One record of what produced a score (``capqa.identity``): built from the loaded scorer, and the
hashcode, the job fingerprint and the score-cache key derived from it, each changing exactly when
an option changes what it covers (issue 22, point 1; issue 27, item 4)."""

import dataclasses
import json
import os
import shutil
import subprocess
import sys
from importlib.metadata import version

import pandas as pd
import pytest
import torch

from capqa.dev.offline_models import build_nli_model, build_tokenizer
from capqa.engine.devices import inference_dtype
from capqa.identity import CONTENT_HASH_DIGITS, folder_content_hash, hub_commit, model_source
from capqa.jobs.fingerprint import scoring_job
from capqa.jobs.output import JobMismatchError
from capqa.metric_options import MetricOptions
from capqa.score_file import job_settings, score_table
from capqa.jobs.scoring import TableColumns
from conftest import REPO_ROOT, data_path

HASHCODE, JOB, CACHE = "hashcode", "job", "cache"
ALL, NOT_CACHE, NOTHING = {HASHCODE, JOB, CACHE}, {HASHCODE, JOB}, set()
TABLE = pd.DataFrame({"question": ["Name a city in Bulgaria."], "gold": ["Sofia"], "answer": ["Burgas"]})


@pytest.fixture(scope="module")
def bert_nli_model(models_dir):
    """An NLI classifier that is no DeBERTa: the compact attention cannot install on it."""
    from transformers import BertConfig, BertForSequenceClassification

    folder = models_dir / "nli-bert"
    if not folder.exists():
        tokenizer = build_tokenizer()
        labels = {0: "contradiction", 1: "entailment", 2: "neutral"}
        config = BertConfig(vocab_size=len(tokenizer), hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
                            intermediate_size=32, id2label=labels, label2id={v: k for k, v in labels.items()},
                            pad_token_id=tokenizer.pad_token_id)
        BertForSequenceClassification(config).save_pretrained(folder)
        tokenizer.save_pretrained(folder)
    return str(folder)


def serialisations(scorer, questions=True):
    """The three serialisations of the scorer's identity, as a job with or without questions."""
    identity = scorer.identity_for(questions)
    columns = TableColumns("question" if questions else None, "gold", "answer")
    return {HASHCODE: identity.hashcode(), JOB: scoring_job(TABLE, identity, job_settings(columns, True)),
            CACHE: scorer.nli.cache.identity if scorer.nli.cache is not None else identity.cache_key()}


def changed(before, after):
    return {name for name in (HASHCODE, JOB, CACHE) if before[name] != after[name]}


def bf16_changes():
    """bfloat16 changes what computes only where the CPU has bf16 units (else float32 runs)."""
    return ALL if inference_dtype(torch.device("cpu"), "bfloat16") == torch.bfloat16 else NOTHING


# Each option that can change a score, changed alone; and the options that change only speed.
ROWS = [
    ("nli_model", lambda models: {"nli_model": models["known"]}, ALL),
    ("precision", lambda models: {"precision": "bfloat16"}, None),
    ("quantize", lambda models: {"quantize": True}, ALL),
    ("max_length", lambda models: {"max_length": 256}, ALL),
    ("compact_attention", lambda models: {"compact_attention": False}, ALL),
    ("statement_model", lambda models: {"statement_model": models["t5"]}, NOT_CACHE),
    ("alpha", lambda models: {"alpha": 0.5}, NOT_CACHE),
    ("neutral_weight", lambda models: {"neutral_weight": 0.1}, NOT_CACHE),
    ("variant", lambda models: {"variant": "plus"}, NOT_CACHE),
    ("verdict", lambda models: {"verdict": "strict"}, NOT_CACHE),
    ("verdict threshold", lambda models: {"verdict": 0.5}, NOT_CACHE),
    ("batch_size", lambda models: {"batch_size": 3}, NOTHING),
    ("max_tokens", lambda models: {"max_tokens": 400}, NOTHING),
    ("score_cache_dir", lambda models: {"score_cache_dir": models["cache_dir"]}, NOTHING),
    ("device", lambda models: {"device": "auto"} if not torch.cuda.is_available() else {}, NOTHING),
]


@pytest.fixture(scope="module")
def models(random_nli_model, known_nli_model, tiny_seq2seq_model, tmp_path_factory):
    return {"random": random_nli_model, "known": known_nli_model, "t5": tiny_seq2seq_model,
            "cache_dir": str(tmp_path_factory.mktemp("identity-cache"))}


@pytest.fixture(scope="module")
def base_scorer(models):
    return MetricOptions(nli_model=models["random"], statement_model="rules", device="cpu").build_scorer()


@pytest.fixture(scope="module")
def base(base_scorer):
    return serialisations(base_scorer)


@pytest.mark.parametrize("name, change, expected", ROWS, ids=[row[0] for row in ROWS])
def test_each_serialisation_changes_exactly_when_it_should(models, base, name, change, expected):
    options = {"nli_model": models["random"], "statement_model": "rules", "device": "cpu", **change(models)}
    after = serialisations(MetricOptions(**options).build_scorer())
    assert changed(base, after) == (bf16_changes() if expected is None else expected), (name, after[HASHCODE])


def test_questions_or_none_change_the_statements_part_only(models, base, base_scorer):
    without = serialisations(base_scorer, questions=False)
    assert changed(base, without) == NOT_CACHE
    assert "statements=none" in without[HASHCODE].split("|")
    # The statement model that would have run is not named when none ran.
    t5 = MetricOptions(nli_model=models["random"], statement_model=models["t5"], device="cpu").build_scorer()
    assert serialisations(t5, questions=False) == without


def test_new_versions_change_all_three(base_scorer):
    identity = base_scorer.identity
    for field in ("cap_eval", "transformers", "torch"):
        newer = dataclasses.replace(identity, versions=dataclasses.replace(identity.versions, **{field: "99.0"}))
        assert newer.hashcode() != identity.hashcode() and newer.job_settings() != identity.job_settings()
        assert newer.cache_key() != identity.cache_key()


def test_the_attention_is_recorded_as_installed_not_as_asked(bert_nli_model):
    asked = [MetricOptions(nli_model=bert_nli_model, statement_model="rules", device="cpu",
                           compact_attention=compact).build_scorer() for compact in (True, False)]
    assert [scorer.nli.identity.compact_attention for scorer in asked] == [False, False]
    assert asked[0].hashcode == asked[1].hashcode


def test_the_record_reads_what_loaded(models, base_scorer):
    from capqa.statements.rules.version import engine_identity

    scorer = MetricOptions(nli_model=models["random"], statement_model=models["t5"], device="cpu",
                           quantize=True, max_length=128).build_scorer()
    record = scorer.identity
    # As the installed distributions state them, not as the identity code reads them.
    assert record.versions.items() == tuple((name, version(name)) for name in ("cap-eval", "transformers", "torch"))
    assert (record.nli.model, record.nli.dtype, record.nli.quantization, record.nli.max_length) == (
        "nli-random", "float32", "int8-dynamic", 128)
    assert record.nli.revision == "sha256:" + folder_content_hash(models["random"])
    assert dict(record.statements.details) == {"name": "t5-tiny", "dtype": "float32",
                                               "revision": "sha256:" + folder_content_hash(models["t5"])}
    assert dict(base_scorer.identity.statements.details) == engine_identity()
    # The cache needs no alpha, statements or verdict: only what decides NLI probabilities.
    assert set(record.cache_key()) == {"cap-eval", "transformers", "torch", "nli_model", "nli_revision", "nli_dtype",
                                       "quantization", "max_length", "compact_attention"}


# --- A local folder: its name and a hash of its files, never its path ---------------------------

def test_a_local_folder_is_known_by_its_files_not_its_path(random_nli_model, tmp_path):
    copy = shutil.copytree(random_nli_model, tmp_path / "elsewhere" / "nli-random")
    assert model_source(copy) == model_source(random_nli_model)
    source = model_source(random_nli_model)
    assert source.name == "nli-random" and len(source.revision) == len("sha256:") + CONTENT_HASH_DIGITS
    # Rebuilt in place with other weights: another model, though the path is the same.
    build_nli_model(copy, seed=7)
    assert model_source(copy).revision != source.revision
    # The tokenizer decides the tokens as much as the weights decide the probabilities.
    rebuilt = model_source(copy).revision
    tokenizer_file = copy / "tokenizer.json"
    tokenizer_file.write_text(tokenizer_file.read_text().replace('"<unk>"', '"<UNK>"'))
    assert model_source(copy).revision != rebuilt


def test_resuming_after_the_model_folder_was_rebuilt_in_place_is_refused(tmp_path):
    """Issue 27, item 4: an interrupted job, its local NLI folder rebuilt with other weights at the
    same path, then rerun: the rows of the first model must not be mixed with the second's."""
    from test_score_file import InterruptedScorer

    model = build_nli_model(tmp_path / "nli", seed=1)
    rows = pd.read_csv(data_path("cap_correctness_sample.csv"), dtype=str, keep_default_na=False).head(12)
    out = tmp_path / "scored.csv"
    first = MetricOptions(nli_model=str(model), device="cpu").build_scorer()
    with pytest.raises(KeyboardInterrupt):
        score_table(rows, InterruptedScorer(first, calls=1), out, "", "premise", "hypothesis", chunk_size=4)
    build_nli_model(model, seed=2)
    rebuilt = MetricOptions(nli_model=str(model), device="cpu").build_scorer()
    with pytest.raises(JobMismatchError, match=r"changed since: nli_revision \('sha256:"):
        score_table(rows, rebuilt, out, "", "premise", "hypothesis", chunk_size=4)
    # The same folder, unchanged, resumes.
    build_nli_model(model, seed=1)
    again = MetricOptions(nli_model=str(model), device="cpu").build_scorer()
    assert score_table(rows, again, out, "", "premise", "hypothesis", chunk_size=4) == 8


def test_resuming_with_another_statement_engine_is_refused(random_nli_model, tiny_seq2seq_model, tmp_path):
    """Issue 22: a job interrupted after rule statements, resumed with a T5 statement model, must
    not hold rows of both engines."""
    from test_score_file import InterruptedScorer

    rows = pd.DataFrame({"question": [f"Name a city in country {i}." for i in range(6)], "gold": ["Sofia"] * 6,
                         "answer": ["Burgas"] * 6})
    out = tmp_path / "scored.csv"
    rules = MetricOptions(nli_model=random_nli_model, statement_model="rules", device="cpu").build_scorer()
    with pytest.raises(KeyboardInterrupt):
        score_table(rows, InterruptedScorer(rules, calls=1), out, "question", "gold", "answer", chunk_size=3)
    t5 = MetricOptions(nli_model=random_nli_model, statement_model=tiny_seq2seq_model, device="cpu").build_scorer()
    with pytest.raises(JobMismatchError, match=r"changed since: statements \('rules\(version="):
        score_table(rows, t5, out, "question", "gold", "answer", chunk_size=3)


def test_a_model_that_fails_to_load_leaves_no_job_behind(random_nli_model, tmp_path, monkeypatch):
    """The job is the loaded scorer's, so nothing is written before the models load: the
    corrected rerun is a first run (issue 22's failed first run, for load failures)."""
    from capqa.cli import main as cli_main

    monkeypatch.setenv("CAPQA_TRACEBACK", "1")
    rows = tmp_path / "rows.csv"
    TABLE.to_csv(rows, index=False)
    out = tmp_path / "scored.csv"
    command = ["score", str(rows), "--out", str(out), "--gold-column", "gold", "--statement-model", "rules",
               "--device", "cpu", "--nli-model"]
    with pytest.raises(OSError, match="there is no such local folder"):
        cli_main([*command, str(tmp_path / "no-such-model")])
    assert sorted(path.name for path in tmp_path.iterdir()) == ["rows.csv"]
    assert cli_main([*command, random_nli_model]) == 0


# --- A Hub id: the commit the Hugging Face cache resolved ---------------------------------------

COMMIT = "0123456789abcdef0123456789abcdef01234567"


def fake_hub_cache(root, model_folder, repo_id="org/nli-tiny"):
    """A Hugging Face cache holding ``model_folder`` as ``repo_id`` at COMMIT, main pointing at it."""
    repo = root / f"models--{repo_id.replace('/', '--')}"
    shutil.copytree(model_folder, repo / "snapshots" / COMMIT)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(COMMIT)
    return root


def test_a_hub_id_is_known_by_the_commit_it_loaded(random_nli_model, tmp_path, monkeypatch):
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(fake_hub_cache(tmp_path / "hub", random_nli_model)))
    assert hub_commit("org/nli-tiny") == COMMIT and hub_commit("org/nli-tiny", "main") == COMMIT
    assert hub_commit("org/nli-tiny", "v2") == "v2(unresolved)"
    assert hub_commit("org/not-cached") == "main(unresolved)"
    assert hub_commit("org/anything", COMMIT) == COMMIT  # a commit needs no resolving


@pytest.mark.slow  # a child process that imports torch and transformers
def test_a_model_loaded_from_the_hub_cache_records_its_commit(random_nli_model, tmp_path):
    """The real load path, offline from a Hugging Face cache (in a child: the cache folder is
    read when huggingface_hub is imported)."""
    cache = fake_hub_cache(tmp_path / "hub", random_nli_model)
    code = ("from capqa.engine.nli import NLIScorer; import json; "
            "print(json.dumps(NLIScorer('org/nli-tiny', device='cpu').identity.__dict__))")
    environment = dict(os.environ, HF_HUB_CACHE=str(cache), HF_HUB_OFFLINE="1", PYTHONPATH=str(REPO_ROOT))
    child = subprocess.run([sys.executable, "-c", code], env=environment, capture_output=True, text=True)
    assert child.returncode == 0, child.stderr
    identity = json.loads(child.stdout.strip().splitlines()[-1])
    assert (identity["model"], identity["revision"]) == ("org/nli-tiny", COMMIT)
