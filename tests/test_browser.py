"""The Space's page in a real browser: Debian's chromium driven by Playwright.

Two ``python app.py`` for the module, started together: one with a tiny random NLI model and
rule-based statements, one without models (Hub offline). The tests click through the page as a
person would. Screenshots of each tab go to ``tests/screenshots/`` (or ``$CAP_SCREENSHOT_DIR``),
which git ignores. Needs /usr/bin/chromium (``make browser`` installs it); Playwright downloads
nothing. Marked ``browser``: ``pytest -m "not browser"`` skips them.
"""

import os
import re
import shutil
from pathlib import Path

import pandas as pd
import pytest
from playwright.sync_api import expect, sync_playwright
from space_server import REPO_ROOT, serve_apps

from capqa import space

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update"]
STEP_TIMEOUT_MS = 90_000
# The width of a common laptop screen: the page must be readable there.
VIEWPORT = {"width": 1366, "height": 900}
SCREENSHOTS = Path(os.environ.get("CAP_SCREENSHOT_DIR") or REPO_ROOT / "tests" / "screenshots")
HOSTILE_LINK = "https://example.com/from-an-upload"

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists() and shutil.which("chromium") is None,
                                 reason="chromium is not installed: run `make browser`")]


@pytest.fixture(scope="module")
def app_urls(tmp_path_factory, random_nli_model):
    root = tmp_path_factory.mktemp("space-browser")
    ready = {"CAP_NLI_MODEL": random_nli_model, "CAP_STATEMENT_MODEL": "rules", "CAP_DEVICE": "cpu"}
    with serve_apps((root / "ready", ready), (root / "offline", {})) as urls:
        yield urls


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def _open(browser, url):
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.set_default_timeout(STEP_TIMEOUT_MS)
    outside = []
    # Nothing may leave the machine: every request must go to the app itself.
    page.on("request", lambda request: None if request.url.startswith((url, "data:", "blob:"))
            else outside.append(request.url))
    page.goto(url)
    return context, page, outside


@pytest.fixture
def page(browser, app_urls):
    context, page, outside = _open(browser, app_urls[0])
    page.locator("#model-status").get_by_text("Models ready").wait_for()
    yield page
    context.close()
    assert not outside, f"the page requested outside resources: {outside[:5]}"


def _screenshot(page, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=path, full_page=True)
    return path


def _upload(page, path):
    page.get_by_role("tab", name="Score a file").click()
    page.locator("#file-upload input[type=file]").set_input_files(str(path))
    expect(page.get_by_label("Gold answer column")).to_have_value("gold_answer", timeout=STEP_TIMEOUT_MS)


def test_no_value_is_shown_before_scoring(page):
    for element in ("#cap-value", "#cap-plus-value", "#forward-value", "#reverse-value"):
        box = page.locator(element).get_by_role("textbox")
        expect(box).to_have_value("")
        expect(box).to_have_attribute("placeholder", "not scored yet")


def test_every_tab_works_in_a_real_browser(page, tmp_path):
    # Score an answer: click an example, press Score, read the CAP value shown.
    label, question, gold, answer = space.EXAMPLES[2]
    page.get_by_text(f"{label}: {answer}", exact=True).click()
    expect(page.get_by_label("Question")).to_have_value(question, timeout=STEP_TIMEOUT_MS)
    expect(page.get_by_label("Predicted answer")).to_have_value(answer, timeout=STEP_TIMEOUT_MS)
    page.locator("#score-button").click()
    page.locator("#reading").get_by_text("Gold ⇒ prediction").wait_for()
    for element in ("#cap-value", "#cap-plus-value"):
        assert 0.0 <= float(page.locator(element).get_by_role("textbox").input_value()) <= 1.0
    shots = [_screenshot(page, "score_an_answer")]

    # Score a file: upload a small CSV, the columns are chosen, read the scored table.
    csv = tmp_path / "answers.csv"
    pd.DataFrame([{"question": q, "gold_answer": g, "answer": a, "label": name}
                  for name, q, g, a in space.EXAMPLES]).to_csv(csv, index=False)
    _upload(page, csv)
    expect(page.get_by_label("Label column (optional)")).to_have_value("label", timeout=STEP_TIMEOUT_MS)
    page.locator("#file-button").click()
    page.locator("#file-summary").get_by_text(f"{len(space.EXAMPLES)} rows").wait_for()
    table = page.locator("#file-table")
    # The texts are in view, not pushed off-screen: question, gold answer and answer cells.
    for text in ("Name a city in Bulgaria.", "Sofia", "Burgas"):
        cell = table.get_by_text(text, exact=True).filter(visible=True).first
        cell.wait_for()
        box = cell.bounding_box()
        assert box and box["x"] + min(box["width"], 50) <= VIEWPORT["width"], f"{text!r} is off-screen"
    page.get_by_text("Monotonicity of CAP on this file").wait_for()
    shots.append(_screenshot(page, "score_a_file"))

    # Benchmark: the paper's table, no model involved, with COMET as reported.
    page.get_by_role("tab", name="Benchmark").click()
    benchmark = page.locator("#benchmark-table")
    benchmark.get_by_text("77.70", exact=True).filter(visible=True).first.wait_for()
    benchmark.get_by_text(space.COMET_NAME, exact=True).filter(visible=True).first.wait_for()
    benchmark.get_by_text("61.10", exact=True).filter(visible=True).first.wait_for()
    page.get_by_text("7,826 rows").wait_for()
    page.locator("#verdict-setting").get_by_text("CAP_VERDICT").wait_for()
    shots.append(_screenshot(page, "benchmark"))

    page.get_by_role("tab", name="About").click()
    page.get_by_text("The correctness taxonomy").wait_for()
    shots.append(_screenshot(page, "about"))
    assert all(shot.stat().st_size > 0 for shot in shots)


def test_an_error_leaves_the_previous_result_alone(page):
    _, question, gold, answer = space.EXAMPLES[0]
    page.get_by_label("Question").fill(question)
    page.get_by_label("Gold answer(s), one per line").fill(gold)
    page.get_by_label("Predicted answer").fill(answer)
    page.locator("#score-button").click()
    reading = page.locator("#reading")
    reading.get_by_text("Gold ⇒ prediction").wait_for()
    page.get_by_label("Question").fill("")
    page.locator("#score-button").click()
    page.get_by_text("Please enter a question.").first.wait_for()
    # The refused input did not mark the shown result as failed: no "Error" over it.
    expect(reading.get_by_text("Gold ⇒ prediction")).to_be_visible()
    assert page.locator("#reading, #cap-value, #probabilities").get_by_text("Error", exact=True).count() == 0
    assert not page.get_by_text(re.compile("Traceback")).count()
    _screenshot(page, "error_after_a_result")


def test_html_in_an_uploaded_file_is_shown_as_text(page, tmp_path):
    rows = [{"question": q, "gold_answer": g, "answer": a, "label": name} for name, q, g, a in space.EXAMPLES]
    rows[1]["label"] = f'<a href="{HOSTILE_LINK}">click me</a>'
    csv = tmp_path / "hostile.csv"
    pd.DataFrame(rows).to_csv(csv, index=False)
    _upload(page, csv)
    page.locator("#file-button").click()
    page.get_by_text("unknown classes").first.wait_for()
    assert page.locator(f'a[href="{HOSTILE_LINK}"]').count() == 0
    assert page.get_by_text("click me</a>").count() >= 1  # shown, as the text it is
    _screenshot(page, "escaped_upload_error")
    # The refused file is checked before scoring: its outputs are not marked as failed.
    assert page.locator("#file-summary, #file-table").get_by_text("Error", exact=True).count() == 0
    # The same text as an answer is scored, and the table shows it as text too.
    rows[1]["label"], rows[1]["answer"] = space.EXAMPLES[1][0], rows[1]["label"]
    pd.DataFrame(rows).to_csv(csv, index=False)
    page.reload()  # a fresh, empty upload box
    page.locator("#model-status").get_by_text("Models ready").wait_for()
    _upload(page, csv)
    page.locator("#file-button").click()
    page.locator("#file-summary").get_by_text(f"{len(rows)} rows").wait_for()
    page.locator("#file-table").get_by_text("click me</a>").filter(visible=True).first.wait_for()
    assert page.locator(f'a[href="{HOSTILE_LINK}"]').count() == 0


def test_without_models_the_status_is_one_line_with_details_on_demand(browser, app_urls):
    context, page, outside = _open(browser, app_urls[1])
    try:
        status = page.locator("#model-status")
        status.get_by_text("Models not loaded").wait_for()
        line = status.inner_text().strip()
        assert "\n" not in line and "CAP_NLI_MODEL" in line and "Traceback" not in line
        details = page.locator("#model-details-text")
        expect(details).to_be_hidden()
        page.get_by_text("Why the models are not loaded").click()
        expect(details).to_be_visible()
        assert details.inner_text().strip()
        _screenshot(page, "no_models")
    finally:
        context.close()
    assert not outside, f"the page requested outside resources: {outside[:5]}"
