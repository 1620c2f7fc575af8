"""The openai statement engine against a real OpenAI-compatible server: ``transformers serve`` on
127.0.0.1 with a tiny causal LM these tests build (tests/support/llm_server.py), through the
official openai client; nothing of either is replaced. The tiny model's random weights write
nonsense, which is what the guard must catch."""

import threading

import pytest

from capqa.common.constraints import InvalidOptionError
from capqa.metric.options import OPTIONS, MetricOptions
from capqa.statements import openai_engine
from capqa.statements.statement_cache import STATEMENT_DATABASE

from support.lazy import lazy_module

generator = lazy_module("capqa.statements.generator")
offline_models = lazy_module("capqa.dev.offline_models")

QUESTION = "What is the capital of France?"
PAIRS = [(QUESTION, "Paris"), (QUESTION, "Lyon"), ("Name a city in Bulgaria.", "Sofia"),
         ("When did the Berlin Wall fall?", "in 1989")]


def statement_generator(server, cache_dir, **settings):
    settings = {"statement_base_url": server.base_url, "statement_max_retries": 0, **settings}
    return generator.StatementGenerator(server.model, engine="openai", settings=settings, cache_dir=str(cache_dir))


@pytest.fixture(scope="module")
def llm_server(tmp_path_factory):
    pytest.importorskip("openai", reason="the openai engine's extra: pip install 'cap-eval[llm]' (make setup does)")
    from support.llm_server import start_server

    folder = tmp_path_factory.mktemp("llm")
    server = start_server(offline_models.build_causal_lm(folder / "tiny-lm"), folder)
    yield server
    server.stop()


@pytest.mark.slow
def test_statements_are_requested_once_and_a_second_run_asks_nothing(llm_server, tmp_path):
    questions, answers = zip(*(PAIRS + PAIRS[:2]))  # repeated pairs are asked once
    before = llm_server.requests()
    first = statement_generator(llm_server, tmp_path)
    made = first.make(questions, answers)
    assert llm_server.requests() - before == len(PAIRS) == first.usage()["calls"]
    assert first.usage()["prompt_tokens"] > 0 and first.usage()["completion_tokens"] > 0
    assert (tmp_path / STATEMENT_DATABASE).is_file()

    second = statement_generator(llm_server, tmp_path)
    again = second.make(questions, answers)
    assert llm_server.requests() - before == len(PAIRS)  # the second run made no request
    assert second.usage()["calls"] == 0 and second.usage()["cached"] == len(PAIRS)
    assert again == made


@pytest.mark.slow
def test_the_guard_replaces_nonsense_by_the_rules_statement_and_says_so(llm_server, tmp_path):
    engine = statement_generator(llm_server, tmp_path)
    questions, answers = zip(*PAIRS)
    written = engine.engine.write(list(PAIRS))
    made = engine.make(questions, answers)
    rules = generator.StatementGenerator("rules").generate(questions, answers)
    refused = [engine.engine.guard(pair, statement) for pair, statement in zip(PAIRS, written)]
    assert any(refused), f"the random model's statements all passed the guard: {written}"
    for reason, raw, statement, rule, by, fallback in zip(refused, written, made.statements, rules, made.engines,
                                                          made.fallback):
        assert (statement, by, fallback) == ((rule, "rules", True) if reason else (raw, "openai", False))


@pytest.mark.slow
def test_concurrency_holds_its_bound(llm_server, tmp_path):
    engine = statement_generator(llm_server, tmp_path, statement_concurrency=2)
    pairs = [(f"What is {n} plus {n}?", str(2 * n)) for n in range(6)]
    engine.make(*zip(*pairs))
    assert engine.usage()["calls"] == 6
    assert 1 <= engine.usage()["max_in_flight"] <= 2


@pytest.mark.slow
def test_the_scorer_records_the_engine_per_example_and_in_the_hashcode(llm_server, tmp_path, random_nli_model):
    options = MetricOptions(nli_model=str(random_nli_model), device="cpu", statement_engine="openai",
                            statement_model=llm_server.model, statement_base_url=llm_server.base_url,
                            score_cache_dir=str(tmp_path))
    result = options.build_scorer().score(["Paris", "Lyon"], ["Paris", "Paris"], [QUESTION, QUESTION],
                                          return_details=True)
    assert all(engine in ("openai", "rules") or engine.startswith("gold:") for engine in result["statement_engine"])
    assert "|statements=openai(model=" in result["hashcode"]
    assert f"prompt={openai_engine.PROMPT_VERSION}:{openai_engine.prompt_hash()}" in result["hashcode"]


@pytest.mark.slow
def test_a_server_killed_mid_run_gives_one_line_naming_the_option_and_keeps_what_was_written(tmp_path):
    pytest.importorskip("openai", reason="the openai engine's extra: pip install 'cap-eval[llm]'")
    from support.llm_server import start_server

    server = start_server(offline_models.build_causal_lm(tmp_path / "tiny-lm"), tmp_path)
    engine = statement_generator(server, tmp_path / "cache", statement_concurrency=1)
    pairs = [(f"What is {n} times three?", str(3 * n)) for n in range(40)]

    def kill_after_two_answers():
        # The client's own count, not the server's log: uvicorn logs a request when its response starts, before
        # the client has read it, so a log of 2 could leave 1 answered (a fresh-clone CI run saw exactly that).
        while engine.usage()["calls"] < 2 and server.process.poll() is None:
            threading.Event().wait(0.01)
        server.stop()

    killer = threading.Thread(target=kill_after_two_answers)
    killer.start()
    try:
        with pytest.raises(openai_engine.StatementEngineError) as raised:
            engine.make(*zip(*pairs))
    finally:
        killer.join()
        server.stop()
    message = str(raised.value)
    assert "\n" not in message and "cannot be reached" in message and "`statement_base_url`" in message
    answered = engine.usage()["calls"]
    assert 2 <= answered < len(pairs)
    # What was answered before the server died is cached: asking for it again needs no server.
    resumed = statement_generator(server, tmp_path / "cache")
    cached = resumed.engine.cache.get(pairs)
    assert len(cached) == answered
    resumed.make(*zip(*cached))
    assert resumed.usage()["calls"] == 0


@pytest.mark.slow
def test_a_timeout_names_statement_timeout(llm_server, tmp_path):
    engine = statement_generator(llm_server, tmp_path, statement_timeout=0.001)
    with pytest.raises(openai_engine.StatementEngineError, match=r"within 0\.001 s .*raise `statement_timeout`"):
        engine.make([QUESTION], ["Marseille"])


def test_an_unreachable_server_names_statement_base_url(tmp_path):
    pytest.importorskip("openai", reason="the openai engine's extra: pip install 'cap-eval[llm]'")
    from support.space_server import free_port

    engine = generator.StatementGenerator("some-model", engine="openai", cache_dir=str(tmp_path), settings={
        "statement_base_url": f"http://127.0.0.1:{free_port()}/v1", "statement_max_retries": 0})
    with pytest.raises(openai_engine.StatementEngineError, match="cannot be reached.*`statement_base_url`"):
        engine.generate([QUESTION], ["Paris"])


def test_the_identity_changes_with_model_and_prompt_version_never_with_the_key(monkeypatch):
    def identity(model="served-model"):
        return str(generator.StatementGenerator(model, engine="openai").identity)

    monkeypatch.setenv("OPENAI_API_KEY", "sk-first-secret")
    first = identity()
    monkeypatch.setenv("OPENAI_API_KEY", "sk-second-secret")
    assert identity() == first and "secret" not in first
    assert identity("other-model") != first
    monkeypatch.setattr(openai_engine, "PROMPT_VERSION", "999")
    assert identity() != first and "prompt=999:" in identity()


def test_where_and_how_the_engine_asks_leave_its_identity():
    """The openai engine's own options are declared affects_scores=False: none is in the hashcode."""
    base = generator.StatementGenerator("served-model", engine="openai").identity
    for name, value in {"statement_base_url": "http://127.0.0.1:9/v1", "statement_api_key_env": "MY_KEY",
                        "statement_timeout": 5.0, "statement_concurrency": 1, "statement_max_retries": 0}.items():
        setting = next(setting for setting in OPTIONS if setting.name == name)
        assert not setting.affects_scores
        assert generator.StatementGenerator("served-model", engine="openai", settings={name: value}).identity == base


def test_engine_options_are_refused_for_another_engine_and_the_model_is_required():
    with pytest.raises(InvalidOptionError, match="`statement_base_url` is an option of the openai statement engine"):
        MetricOptions(device="cpu", statement_model="rules", statement_base_url="http://127.0.0.1:1/v1")
    with pytest.raises(InvalidOptionError, match="needs `statement_model`"):
        MetricOptions(device="cpu", statement_engine="openai")
    with pytest.raises(InvalidOptionError, match="`statement_engine` must be one of 'rules', 'seq2seq', 'openai'"):
        MetricOptions(device="cpu", statement_engine="gpt")


@pytest.mark.slow
def test_score_asks_the_endpoint_once_and_reports_the_calls_and_tokens(llm_server, tmp_path, random_nli_model,
                                                                        capsys, monkeypatch):
    import json

    from capqa.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "rows.csv").write_text("question,gold_answer,answer\nWhat is the capital of Italy?,Rome,Rome\n"
                                       "What is the capital of Italy?,Rome,Milan\n", encoding="utf-8")
    command = ["score", "rows.csv", "--out", "out.csv", "--nli-model",
               str(random_nli_model), "--device", "cpu", "--statement-engine", "openai", "--statement-model",
               llm_server.model, "--statement-base-url", llm_server.base_url, "--score-cache-dir", "cache"]
    before = llm_server.requests()
    assert main(command) == 0
    printed = capsys.readouterr().out
    usage = json.loads((tmp_path / "out.csv.summary.json").read_text())["statement_usage"]
    assert llm_server.requests() - before == usage["calls"] == 2  # (question, Rome) for gold and answer, and Milan
    assert f"statements: {usage['calls']} calls" in printed and "completion tokens" in printed
    (tmp_path / "out.csv").unlink()
    assert main(command) == 0  # the same file again, scored afresh: every statement from the cache
    assert llm_server.requests() - before == 2
    assert json.loads((tmp_path / "out.csv.summary.json").read_text())["statement_usage"]["calls"] == 0


def endpoint_generator(server, cache_dir, **settings):
    return generator.StatementGenerator("served-model", engine="openai", cache_dir=str(cache_dir), settings={
        "statement_base_url": server.base_url, **settings})


def test_a_refused_key_names_the_variable_to_set_and_never_shows_the_key(status_server, tmp_path, monkeypatch):
    monkeypatch.setenv("MY_ENDPOINT_KEY", "sk-wrong-secret")
    server = status_server([401])
    engine = endpoint_generator(server, tmp_path, statement_api_key_env="MY_ENDPOINT_KEY")
    with pytest.raises(openai_engine.StatementEngineError) as raised:
        engine.generate([QUESTION], ["Paris"])
    message = str(raised.value)
    assert "refused the API key (401)" in message and "MY_ENDPOINT_KEY" in message
    assert "`statement_api_key_env`" in message and "secret" not in message and "\n" not in message
    assert server.keys == ["Bearer sk-wrong-secret"] and server.requests == 1  # sent, and never retried


def test_a_model_the_endpoint_lacks_names_statement_model(status_server, tmp_path):
    server = status_server([404])
    engine = endpoint_generator(server, tmp_path)
    with pytest.raises(openai_engine.StatementEngineError,
                       match=r"has no model 'served-model' \(404\): set `statement_model`.*/v1/models"):
        engine.generate([QUESTION], ["Paris"])
    assert server.requests == 1


@pytest.mark.parametrize("busy", [429, 503])
def test_a_busy_endpoint_is_asked_again_and_the_statement_arrives(status_server, tmp_path, busy):
    server = status_server([busy, busy])
    engine = endpoint_generator(server, tmp_path, statement_max_retries=2)
    assert engine.generate([QUESTION], ["Paris"]) == ["The capital of France is Paris."]
    assert server.requests == 3 and engine.usage()["calls"] == 1


def test_retries_that_run_out_name_the_status_and_keep_what_was_answered(status_server, tmp_path):
    server = status_server([500, 500])
    engine = endpoint_generator(server, tmp_path, statement_max_retries=1, statement_concurrency=1)
    with pytest.raises(openai_engine.StatementEngineError,
                       match=r"answered 500 for model 'served-model' \(after 1 retries\).*`statement_base_url`"):
        engine.generate([QUESTION], ["Paris"])
    assert server.requests == 2  # the request and its one retry
    assert endpoint_generator(server, tmp_path).generate([QUESTION], ["Paris"]) == ["The capital of France is Paris."]
    asked = server.requests
    assert endpoint_generator(server, tmp_path).generate([QUESTION], ["Paris"]) == ["The capital of France is Paris."]
    assert server.requests == asked  # the statement that came is in the cache
