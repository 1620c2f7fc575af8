"""The Space's page in a real browser: Debian's chromium driven by Playwright.

One ``python app.py`` (tiny random NLI model, rule-based statements) for the module. The test
clicks through the four tabs as a person would and saves a screenshot of each under its tmp
folder. It needs /usr/bin/chromium (``make browser`` installs it); Playwright downloads nothing.
"""

import re
import shutil
from pathlib import Path

import pandas as pd
import pytest
from playwright.sync_api import expect, sync_playwright
from space_server import serve_apps

from capqa import space

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update"]
STEP_TIMEOUT_MS = 90_000

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists() and shutil.which("chromium") is None,
                                 reason="chromium is not installed: run `make browser`")]


@pytest.fixture(scope="module")
def app_url(tmp_path_factory, random_nli_model):
    root = tmp_path_factory.mktemp("space-browser")
    ready = {"CAP_NLI_MODEL": random_nli_model, "CAP_STATEMENT_MODEL": "rules", "CAP_DEVICE": "cpu"}
    with serve_apps((root / "ready", ready)) as urls:
        yield urls[0]


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, app_url):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(STEP_TIMEOUT_MS)
    outside = []
    # Nothing may leave the machine: every request must go to the app itself.
    page.on("request", lambda request: None if request.url.startswith((app_url, "data:", "blob:"))
            else outside.append(request.url))
    page.goto(app_url)
    page.locator("#model-status").get_by_text("Models ready").wait_for()
    yield page
    context.close()
    assert not outside, f"the page requested outside resources: {outside[:5]}"


def test_every_tab_works_in_a_real_browser(page, tmp_path):
    # Score an answer: click an example, press Score, read the CAP value shown.
    label, question, gold, answer = space.EXAMPLES[2]
    page.get_by_text(f"{label}: {answer}", exact=True).click()
    expect(page.get_by_label("Question")).to_have_value(question, timeout=STEP_TIMEOUT_MS)
    expect(page.get_by_label("Predicted answer")).to_have_value(answer, timeout=STEP_TIMEOUT_MS)
    page.locator("#score-button").click()
    page.locator("#reading").get_by_text("Gold ⇒ prediction").wait_for()
    shown = float(page.locator("#cap-value input").input_value())
    assert 0.0 <= shown <= 1.0
    page.screenshot(path=tmp_path / "score_an_answer.png", full_page=True)

    # Score a file: upload a small CSV, the columns are chosen, read the scored table.
    csv = tmp_path / "answers.csv"
    pd.DataFrame([{"question": q, "gold_answer": g, "answer": a, "label": name}
                  for name, q, g, a in space.EXAMPLES]).to_csv(csv, index=False)
    page.get_by_role("tab", name="Score a file").click()
    page.locator("#file-upload input[type=file]").set_input_files(str(csv))
    # The upload preselects the columns by name.
    expect(page.get_by_label("Gold answer column")).to_have_value("gold_answer", timeout=STEP_TIMEOUT_MS)
    expect(page.get_by_label("Label column (optional)")).to_have_value("label", timeout=STEP_TIMEOUT_MS)
    page.locator("#file-button").click()
    page.locator("#file-summary").get_by_text(f"{len(space.EXAMPLES)} rows").wait_for()
    table = page.locator("#file-table")
    table.get_by_text("Name a city in Bulgaria.").filter(visible=True).first.wait_for()
    page.get_by_text("Monotonicity of CAP on this file").wait_for()
    page.screenshot(path=tmp_path / "score_a_file.png", full_page=True)

    # Benchmark: the paper's table, no model involved.
    page.get_by_role("tab", name="Benchmark").click()
    page.locator("#benchmark-table").get_by_text("77.70", exact=True).filter(visible=True).first.wait_for()
    page.get_by_text("7,826 rows").wait_for()
    page.screenshot(path=tmp_path / "benchmark.png", full_page=True)

    page.get_by_role("tab", name="About").click()
    page.get_by_text("The correctness taxonomy").wait_for()
    page.screenshot(path=tmp_path / "about.png", full_page=True)
    assert len(list(tmp_path.glob("*.png"))) == 4


def test_a_bad_input_shows_a_message_not_a_traceback(page):
    page.get_by_label("Gold answer(s), one per line").fill("Sofia")
    page.get_by_label("Predicted answer").fill("Burgas")
    page.locator("#score-button").click()
    page.get_by_text("Please enter a question.").first.wait_for()
    assert not page.get_by_text(re.compile("Traceback")).count()

