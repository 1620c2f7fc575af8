"""The metric's options, declared once with their constraints (issue 30, item 3): every option
refuses a value outside them, by name and saying what it takes, in Python and on the command line;
the tests are generated from the declarations, so a new option is tested without a new test."""

import re

import pytest

from capqa.metric.options import OPTIONS, MetricOptions

# Texts a flag might be given by mistake; each option is tried with the first one it refuses.
WRONG_TEXTS = ("", "maybe", "-1", "[1]", "{not json", "no such thing")


def _wrong_text(setting):
    for text in WRONG_TEXTS:
        try:
            setting.parse(text)
        except ValueError:
            return text
    return None


@pytest.mark.parametrize("setting", OPTIONS, ids=[setting.name for setting in OPTIONS])
def test_every_option_refuses_a_value_outside_its_constraints(setting):
    value = setting.invalid_value()
    with pytest.raises((ValueError, TypeError)) as refused:
        MetricOptions(**{setting.name: value})
    message = str(refused.value)
    assert message.startswith(f"`{setting.name}` must be {setting.expected()}, got "), message
    # Refused at the boundary, as the value it is: both kinds of caller catch it.
    assert isinstance(refused.value, ValueError) and isinstance(refused.value, TypeError)


@pytest.mark.parametrize("setting", [setting for setting in OPTIONS if not setting.is_flag],
                         ids=[setting.name for setting in OPTIONS if not setting.is_flag])
def test_every_flag_refuses_a_text_outside_its_constraints(setting, capsys):
    from capqa.cli.score import build_parser

    text = _wrong_text(setting)
    assert text is not None, f"{setting.name} takes every text tried; add one it refuses to WRONG_TEXTS"
    with pytest.raises(SystemExit):
        build_parser().parse_args(["in.csv", "--out", "out.csv", f"{setting.flag}={text}"])
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 2 and f"error: argument {setting.flag}: " in lines[0], lines
    assert setting.expected(as_text=True) in lines[0] or f"`{setting.name}`" in lines[0], lines


def test_an_option_keeps_the_value_it_takes_in_canonical_form(random_nli_model, tmp_path):
    from pathlib import Path

    options = MetricOptions(alpha=1, neutral_weight=0, nli_model=Path(random_nli_model), verdict={"exact": 1},
                            device="cpu", score_cache_dir=tmp_path / "cache")
    assert (options.alpha, options.neutral_weight) == (1.0, 0.0) and type(options.alpha) is float
    assert options.nli_model == random_nli_model and options.score_cache_dir == str(tmp_path / "cache")
    assert options.verdict["exact"] == 1.0 and options.verdict["contradictory"] == 0.0  # the classes completed


@pytest.mark.parametrize("text", ["none", "None", " NONE "])
def test_verdict_none_is_accepted_by_the_python_api_as_the_options_table_says(text):
    """The options table says "None ('none') adds no verdict", and the CLI took `--verdict none`;
    the Python API refused "none" as an unknown policy."""
    assert MetricOptions(verdict=text).verdict is None


def test_the_deep_checks_of_a_value_keep_their_own_words():
    with pytest.raises(ValueError, match=re.escape("`verdict` maps unknown classes ['right']")):
        MetricOptions(verdict={"right": 1})
    with pytest.raises(ValueError, match="`score_cache_dir` must be a folder, but .* is a file"):
        MetricOptions(score_cache_dir=__file__)


def test_the_main_objects_say_what_they_are_without_the_machines_paths(random_nli_model, tiny_seq2seq_model,
                                                                       tmp_path):
    """A ``__repr__`` as bert_score's scorer has: short, what computes, local folders by name only."""
    import shutil

    nli = shutil.copytree(random_nli_model, tmp_path / "private-server-folder" / "nli-random")
    t5 = shutil.copytree(tiny_seq2seq_model, tmp_path / "private-server-folder" / "t5-tiny")
    options = MetricOptions(nli_model=str(nli), statement_model=str(t5), device="cpu", verdict="strict",
                            score_cache_dir=str(tmp_path / "private-server-folder" / "cache"))
    assert repr(options) == ("MetricOptions(nli_model=<folder 'nli-random'>, statement_model=<folder 't5-tiny'>, "
                             "device='cpu', score_cache_dir=<folder 'cache'>, verdict='strict')")
    assert repr(MetricOptions()) == "MetricOptions()"  # the default model at its pinned commit is the default
    scorer = options.build_scorer()
    shown = {"scorer": repr(scorer), "nli": repr(scorer.nli), "statements": repr(scorer.statements)}
    assert scorer.statements.model is None  # a repr loads nothing
    shown["identity"] = repr(scorer.identity)
    for name, text in shown.items():
        assert "private-server-folder" not in text and str(tmp_path) not in text, (name, text)
    assert shown["nli"].startswith("NLIScorer(model='nli-random', revision='sha256:") and "device='cpu'" in shown["nli"]
    assert shown["statements"].startswith("StatementGenerator(model='t5-tiny'")
    assert shown["scorer"].startswith(f"CAPScorer(nli={shown['nli']}, statements=StatementGenerator(model='t5-tiny'")
    assert "verdict=strict(score=cap,threshold=" in shown["scorer"] and "alpha=0.85" in shown["scorer"]
    assert shown["identity"] == f"ScorerIdentity({scorer.hashcode!r})"
    assert repr(MetricOptions(statement_model="rules", device="cpu", nli_model=str(nli)).build_scorer().statements) \
        .startswith("StatementGenerator(rules(version=")
