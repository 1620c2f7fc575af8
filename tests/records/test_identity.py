"""One record of what produced a score (``capqa.records.identity``): built from the loaded scorer, and the
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

from capqa.dev.offline_models import build_nli_model, build_tokenizer
from capqa.jobs.fingerprint import JobSpec, job_identity
from capqa.jobs.manifest import JobMismatchError
from capqa.jobs.scoring import score_table
from capqa.metric.options import OPTIONS, MetricOptions, option_names
from capqa.records.code import code_digest, engine_code_digest
from capqa.records.identity import CONTENT_HASH_DIGITS, folder_content_hash, hub_commit, model_source
from capqa.records.job import JobSettings

from support.data import REPO_ROOT, data_path
from support.hub import CACHED_COMMIT as COMMIT, fake_hub_cache
from support.lazy import lazy_module

# Imported on first use, so that collecting the tests stays fast.
torch = lazy_module("torch")
devices = lazy_module("capqa.loading.devices")

HASHCODE, JOB, CACHE = "hashcode", "job", "cache"
# The columns of data/cap_correctness_sample.csv scored as statements (no questions).
STATEMENTS = JobSettings(None, "premise", "hypothesis")
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
    """The three serialisations of the scorer's identity, as a job with or without questions: the
    job's fingerprint built as ``score_table`` builds it."""
    identity = scorer.identity_for(questions)
    job = job_identity(TABLE, scorer, JobSettings("question" if questions else None, "gold", "answer"))
    return {HASHCODE: identity.hashcode(), JOB: JobSpec.of(job),
            CACHE: scorer.nli.cache.identity if scorer.nli.cache is not None else identity.cache_key()}


def changed(before, after):
    return {name for name in (HASHCODE, JOB, CACHE) if before[name] != after[name]}


def bf16_changes():
    """bfloat16 changes what computes only where the CPU has bf16 units (else float32 runs)."""
    return ALL if devices.inference_dtype(torch.device("cpu"), "bfloat16") == torch.bfloat16 else NOTHING


# One change of each option, alone: the rows of the test below. What each serialisation must do
# comes from the option's declaration (``affects_scores``, ``affects_nli``), not from this table, so
# a new option fails here until it has a row, and then is held to what it declares.
CHANGES = {
    "nli_model": lambda models: {"nli_model": models["known"]},
    "precision": lambda models: {"precision": "bfloat16"},
    "quantize": lambda models: {"quantize": True},
    "max_length": lambda models: {"max_length": 256},
    "compact_attention": lambda models: {"compact_attention": False},
    "statement_model": lambda models: {"statement_model": models["t5"]},
    "statement_engine": lambda models: {"statement_engine": "seq2seq", "statement_model": models["t5"]},
    "alpha": lambda models: {"alpha": 0.5},
    "neutral_weight": lambda models: {"neutral_weight": 0.1},
    "variant": lambda models: {"variant": "plus"},
    "verdict": lambda models: {"verdict": "strict"},
    "verdict threshold": lambda models: {"verdict": 0.5},
    "batch_size": lambda models: {"batch_size": 3},
    "statement_workers": lambda models: {"statement_workers": 2},
    "max_tokens": lambda models: {"max_tokens": 400},
    "score_cache_dir": lambda models: {"score_cache_dir": models["cache_dir"]},
    "device": lambda models: {} if torch.cuda.is_available() else {"device": "auto"},
    "local_files_only": lambda models: {"local_files_only": True},
    "model_cache_dir": lambda models: {"model_cache_dir": models["cache_dir"]},
    "model_kwargs": lambda models: {"model_kwargs": {"attn_implementation": "eager"}},
    "tokenizer_kwargs": lambda models: {"tokenizer_kwargs": {"model_max_length": 1000}},
}
# Options whose change needs another base than a local folder, each with the test that holds it.
ELSEWHERE = {
    "nli_revision": "tests/loading/test_load_arguments.py::test_a_revision_reads_its_commit_from_the_given_cache",
    "statement_revision": "test_a_statement_models_revision_changes_its_part",
    "trust_remote_code": "tests/loading/test_load_arguments.py::"
                         "test_a_models_own_code_is_refused_by_name_unless_trusted_and_then_recorded",
    # The openai engine's own options (refused for the rules): where and how it asks, not what.
    **dict.fromkeys(("statement_base_url", "statement_api_key_env", "statement_timeout", "statement_concurrency",
                     "statement_max_retries"),
                    "tests/statements/test_openai_engine.py::test_where_and_how_the_engine_asks_leave_its_identity"),
}


def declared_changes(setting):
    """What changing ``setting`` must change, by its declaration."""
    if setting.name == "precision":  # bfloat16 runs only where the CPU has bf16 units
        return bf16_changes()
    if not setting.affects_scores:
        return NOTHING
    return ALL if setting.affects_nli else NOT_CACHE


def test_every_option_has_a_row():
    rows = {name.split()[0] for name in CHANGES}
    assert rows | set(ELSEWHERE) == set(option_names()) and not rows & set(ELSEWHERE)


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


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_each_serialisation_changes_exactly_when_it_should(models, base, name):
    options = {"nli_model": models["random"], "statement_model": "rules", "device": "cpu", **CHANGES[name](models)}
    after = serialisations(MetricOptions(**options).build_scorer())
    expected = declared_changes(next(setting for setting in OPTIONS if setting.name == name.split()[0]))
    assert changed(base, after) == expected, (name, after[HASHCODE])


def test_a_statement_models_revision_changes_its_part(random_nli_model, tiny_seq2seq_model, tmp_path):
    second = "fedcba9876543210fedcba9876543210fedcba98"
    cache = fake_hub_cache(tmp_path / "hub", tiny_seq2seq_model, "org/t5-tiny")
    fake_hub_cache(cache, tiny_seq2seq_model, "org/t5-tiny", commit=second, ref="v2")
    scorers = [MetricOptions(nli_model=random_nli_model, statement_model="org/t5-tiny", statement_revision=revision,
                             model_cache_dir=str(cache), local_files_only=True, device="cpu").build_scorer()
               for revision in ("main", "v2")]
    first, then = (serialisations(scorer) for scorer in scorers)
    assert changed(first, then) == NOT_CACHE
    assert [dict(scorer.identity.statements.details)["revision"] for scorer in scorers] == [COMMIT, second]


def test_questions_or_none_change_the_statements_part_only(models, base, base_scorer):
    without = serialisations(base_scorer, questions=False)
    assert changed(base, without) == NOT_CACHE
    assert "statements=none" in without[HASHCODE].split("|")
    # The statement model that would have run is not named when none ran.
    t5 = MetricOptions(nli_model=models["random"], statement_model=models["t5"], device="cpu").build_scorer()
    assert serialisations(t5, questions=False) == without


def test_new_versions_change_all_three(base_scorer):
    identity = base_scorer.identity
    for field in ("transformers", "torch"):
        newer = dataclasses.replace(identity, versions=dataclasses.replace(identity.versions, **{field: "99.0"}))
        assert newer.hashcode() != identity.hashcode() and newer.compared() != identity.compared()
        assert newer.cache_key() != identity.cache_key()
    newer_engine = dataclasses.replace(identity, nli=dataclasses.replace(identity.nli, code="0" * 16))
    assert newer_engine.compared() != identity.compared() and newer_engine.cache_key() != identity.cache_key()


def test_other_code_changes_the_hashcode_but_keeps_the_cache(base_scorer):
    """Another version or other sources of the package (the rules, the formula) change what is
    compared, but not the probabilities of a pair: the cache keeps its entries; a commit alone
    (the same sources) changes only what people read."""
    identity = base_scorer.identity
    for field in ("cap_eval", "code"):
        newer = dataclasses.replace(identity, versions=dataclasses.replace(identity.versions, **{field: "99.0"}))
        assert newer.hashcode() != identity.hashcode() and newer.compared() != identity.compared()
        assert newer.cache_key() == identity.cache_key()
    committed = dataclasses.replace(identity, versions=dataclasses.replace(identity.versions, commit="0123456789ab"))
    assert committed.hashcode() != identity.hashcode() and "commit=0123456789ab|" in committed.hashcode()
    assert committed == identity and committed.compared() == identity.compared()


def test_the_attention_is_recorded_as_installed_not_as_asked(bert_nli_model):
    asked = [MetricOptions(nli_model=bert_nli_model, statement_model="rules", device="cpu",
                           compact_attention=compact).build_scorer() for compact in (True, False)]
    assert [scorer.nli.identity.compact_attention for scorer in asked] == [False, False]
    assert asked[0].hashcode == asked[1].hashcode


def test_the_record_reads_what_loaded(models, base_scorer):
    from capqa.statements.check_version import CHECK_VERSION
    from capqa.statements.rules.version import RULES_VERSION, engine_identity

    scorer = MetricOptions(nli_model=models["random"], statement_model=models["t5"], device="cpu",
                           quantize=True, max_length=128).build_scorer()
    record = scorer.identity
    # As the installed distributions state them, not as the identity code reads them.
    versions = dict(record.versions.items())
    assert [versions[name] for name in ("cap-eval", "transformers", "torch")] == [
        version(name) for name in ("cap-eval", "transformers", "torch")]
    assert versions["code"] == code_digest() and record.nli.code == engine_code_digest()
    assert (record.nli.model, record.nli.dtype, record.nli.quantization, record.nli.max_length) == (
        "nli-random", "float32", "int8-dynamic", 128)
    assert record.nli.revision == "sha256:" + folder_content_hash(models["random"])
    # Besides the engine: the check (the details' issue codes) and, for a model, the converter
    # version whose statements stand in for the ones its guard refuses.
    assert dict(record.statements.details) == {"name": "t5-tiny", "dtype": "float32", "load": "none",
                                               "revision": "sha256:" + folder_content_hash(models["t5"]),
                                               "check": CHECK_VERSION, "fallback": f"rules:{RULES_VERSION}"}
    assert dict(base_scorer.identity.statements.details) == {**engine_identity(), "check": CHECK_VERSION}
    # The cache needs no alpha, statements or verdict: only what decides NLI probabilities.
    assert set(record.cache_key()) == {"transformers", "torch", "nli_model", "nli_revision", "nli_dtype",
                                       "quantization", "max_length", "compact_attention", "nli_code", "nli_load"}


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
    from support.jobs import InterruptedScorer

    model = build_nli_model(tmp_path / "nli", seed=1)
    rows = pd.read_csv(data_path("cap_correctness_sample.csv"), dtype=str, keep_default_na=False).head(12)
    out = tmp_path / "scored.csv"
    first = MetricOptions(nli_model=str(model), device="cpu").build_scorer()
    with pytest.raises(KeyboardInterrupt):
        score_table(rows, InterruptedScorer(first, calls=1), out, STATEMENTS, chunk_size=4)
    build_nli_model(model, seed=2)
    rebuilt = MetricOptions(nli_model=str(model), device="cpu").build_scorer()
    with pytest.raises(JobMismatchError, match=r"changed since: nli_revision \('sha256:"):
        score_table(rows, rebuilt, out, STATEMENTS, chunk_size=4)
    # The same folder, unchanged, resumes.
    build_nli_model(model, seed=1)
    again = MetricOptions(nli_model=str(model), device="cpu").build_scorer()
    assert score_table(rows, again, out, STATEMENTS, chunk_size=4).added == 8


def test_resuming_with_another_statement_engine_is_refused(random_nli_model, tiny_seq2seq_model, tmp_path):
    """Issue 22: a job interrupted after rule statements, resumed with a T5 statement model, must
    not hold rows of both engines."""
    from support.jobs import InterruptedScorer

    rows = pd.DataFrame({"question": [f"Name a city in country {i}." for i in range(6)], "gold": ["Sofia"] * 6,
                         "answer": ["Burgas"] * 6})
    out = tmp_path / "scored.csv"
    rules = MetricOptions(nli_model=random_nli_model, statement_model="rules", device="cpu").build_scorer()
    with pytest.raises(KeyboardInterrupt):
        score_table(rows, InterruptedScorer(rules, calls=1), out, JobSettings("question", "gold", "answer"),
                    chunk_size=3)
    t5 = MetricOptions(nli_model=random_nli_model, statement_model=tiny_seq2seq_model, device="cpu").build_scorer()
    with pytest.raises(JobMismatchError, match=r"changed since: statements \('rules\(version="):
        score_table(rows, t5, out, JobSettings("question", "gold", "answer"), chunk_size=3)


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
