"""What model loading takes besides a name, as sentence-transformers' CrossEncoder passes it (issue 30,
item 3): ``local_files_only``, ``model_cache_dir``, ``trust_remote_code`` (refused by name unless
set), and ``model_kwargs`` / ``tokenizer_kwargs`` passed straight to ``from_pretrained`` for the NLI
and the statement model, those that change scores recorded in the hashcode."""

import json
import os
import subprocess
import sys

import pytest

from capqa.loading.pretrained import ModelLoadError
from capqa.metric.options import MetricOptions

from support.data import REPO_ROOT
from support.hub import CACHED_COMMIT, fake_hub_cache
from support.models import build_remote_code_model

EAGER = {"attn_implementation": "eager"}
LONGER = {"model_max_length": 1000}


def test_model_and_tokenizer_kwargs_reach_both_models_and_the_hashcode(random_nli_model, tiny_seq2seq_model):
    plain = MetricOptions(nli_model=random_nli_model, statement_model=tiny_seq2seq_model, device="cpu").build_scorer()
    scorer = MetricOptions(nli_model=random_nli_model, statement_model=tiny_seq2seq_model, device="cpu",
                           model_kwargs=EAGER, tokenizer_kwargs=LONGER).build_scorer()
    assert scorer.nli.model.config._attn_implementation == "eager" and scorer.nli.tokenizer.model_max_length == 1000
    statements = scorer.statements
    statements.identity  # loads the statement model, which loads on first use
    assert statements.model.config._attn_implementation == "eager"
    assert statements.engine.tokenizer.model_max_length == 1000
    load = 'model_kwargs={"attn_implementation":"eager"},tokenizer_kwargs={"model_max_length":1000}'
    assert scorer.nli.identity.load == load and dict(statements.identity.details)["load"] == load
    assert f"nli_load={load}" in scorer.hashcode.split("|")
    assert plain.nli.identity.load == "none" and "nli_load=none" in plain.hashcode.split("|")
    # Both models' parts of the record move; the cache key too (the NLI model's part).
    assert scorer.identity.cache_key() != plain.identity.cache_key()
    assert scorer.identity.statements != plain.identity.statements


@pytest.mark.parametrize("kwargs, says", [
    ({"trust_remote_code": True}, "set the option `trust_remote_code` itself"),
    ({"token": "hf_secret"}, "a token must not be"),
    ({"revision": "v2"}, "set `nli_revision` or `statement_revision`"),
    ({"torch_dtype": "float16"}, "set `precision`"),
    ({"cache_dir": "/tmp"}, "set `model_cache_dir`"),
])
@pytest.mark.parametrize("option", ["model_kwargs", "tokenizer_kwargs"])
def test_kwargs_that_an_option_sets_are_refused_naming_it(option, kwargs, says):
    with pytest.raises(ValueError, match=f"`{option}` may not set '{next(iter(kwargs))}': .*{says}") as refused:
        MetricOptions(**{option: kwargs})
    assert "hf_secret" not in str(refused.value)


def test_local_files_only_reads_the_cache_and_never_asks_the_hub(random_nli_model, tmp_path, monkeypatch):
    from capqa.loading import pretrained

    def no_probe():
        raise AssertionError("local_files_only must not ask the Hub")

    monkeypatch.setattr(pretrained, "hub_reachable", no_probe)
    cache = fake_hub_cache(tmp_path / "hub", random_nli_model)
    scorer = MetricOptions(nli_model="org/nli-tiny", model_cache_dir=str(cache), local_files_only=True,
                           statement_model="rules", device="cpu").build_scorer()
    assert (scorer.nli.identity.model, scorer.nli.identity.revision) == ("org/nli-tiny", CACHED_COMMIT)
    with pytest.raises(ModelLoadError, match="local_files_only is set and the Hugging Face cache holds no copy"):
        MetricOptions(nli_model="org/not-cached", model_cache_dir=str(cache), local_files_only=True).check_nli_model()


def test_a_revision_reads_its_commit_from_the_given_cache(random_nli_model, known_nli_model, tmp_path):
    """``nli_revision`` changes what loads: another commit of the same Hub id, from ``model_cache_dir``."""
    second = "fedcba9876543210fedcba9876543210fedcba98"
    cache = fake_hub_cache(tmp_path / "hub", random_nli_model)
    fake_hub_cache(cache, known_nli_model, commit=second, ref="v2")
    common = dict(nli_model="org/nli-tiny", model_cache_dir=str(cache), local_files_only=True,
                  statement_model="rules", device="cpu")
    main, v2 = (MetricOptions(**common, nli_revision=revision).build_scorer() for revision in ("main", "v2"))
    assert (main.nli.identity.revision, v2.nli.identity.revision) == (CACHED_COMMIT, second)
    assert main.identity.cache_key() != v2.identity.cache_key()


_REMOTE_CODE_CHILD = """
import json, sys
from capqa.metric.options import MetricOptions
folder, trust = sys.argv[1], sys.argv[2] == "trust"
try:
    options = MetricOptions(nli_model=folder, statement_model="rules", device="cpu", trust_remote_code=trust)
    scorer = options.build_scorer()
except OSError as error:
    print(json.dumps({"refused": str(error)}))
else:
    print(json.dumps({"hashcode": scorer.hashcode, "class": type(scorer.nli.model).__module__}))
"""


@pytest.mark.slow  # child processes that import torch and transformers (a model's own code must load fresh)
def test_a_models_own_code_is_refused_by_name_unless_trusted_and_then_recorded(random_nli_model, tmp_path):
    """transformers asks on the terminal before it runs a model's own code, and runs it on a "y"
    read from stdin: the loader always passes trust_remote_code, so only the option lets it run."""
    folder = build_remote_code_model(tmp_path / "nli-own-code", random_nli_model)
    environment = dict(os.environ, PYTHONPATH=str(REPO_ROOT), HF_MODULES_CACHE=str(tmp_path / "modules"),
                       HF_HUB_OFFLINE="1")

    def run(trust):
        child = subprocess.run([sys.executable, "-c", _REMOTE_CODE_CHILD, str(folder), trust], input="y\n" * 20,
                               env=environment, capture_output=True, text=True, timeout=300)
        assert child.returncode == 0, child.stderr
        return json.loads(child.stdout.strip().splitlines()[-1])

    refused = run("no")
    assert "refused" in refused, refused  # a "y" on stdin does not run the model's code
    assert "ships its own Python code" in refused["refused"] and "trust_remote_code=True" in refused["refused"]
    assert "--trust-remote-code" in refused["refused"]
    trusted = run("trust")
    assert trusted["class"].startswith("transformers_modules"), trusted
    assert "nli_load=remote_code" in trusted["hashcode"].split("|")
