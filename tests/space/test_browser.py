"""The Space's page in a real browser: Debian's chromium driven by Playwright.

Two ``python app.py`` (conftest's ``space_apps``, shared with test_app.py): one with a tiny random
NLI model and rule-based statements, one without models (Hub offline). The tests click through the page as a
person would. Screenshots of each tab go to ``tests/screenshots/`` (or ``$CAP_SCREENSHOT_DIR``),
which git ignores. Needs /usr/bin/chromium (``make browser`` installs it); Playwright downloads
nothing. Marked ``browser``: ``pytest -m "not browser"`` skips them.
"""

import os
import re
import shutil
import time
from pathlib import Path

import pandas as pd
import pytest
from playwright.sync_api import expect, sync_playwright

from support.data import REPO_ROOT
from support.lazy import lazy_module
from support.space import SPACE_VERDICT

# Imported on first use, so that collecting the tests stays fast.
space = lazy_module("capqa.space")

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update"]
STEP_TIMEOUT_MS = 90_000
# The width of a common laptop screen, where the page must be readable, and of a desktop one.
VIEWPORT = {"width": 1366, "height": 900}
VIEWPORTS = (VIEWPORT, {"width": 1920, "height": 1080})
SCREENSHOTS = Path(os.environ.get("CAP_SCREENSHOT_DIR") or REPO_ROOT / "tests" / "screenshots")
HOSTILE_LINK = "https://example.com/from-an-upload"
# The served app with models gives verdicts under this policy: correct and credit columns.
VERDICT = SPACE_VERDICT
TABS = {"Score an answer": "score_an_answer", "Score a file": "score_a_file", "Benchmark": "benchmark",
        "About": "about"}
# Every word of every visible table cell (gradio's grids and Markdown tables): (problem, word or
# cell text). A word split over two lines has line boxes at two heights; a cut cell is narrower
# than what it holds; break-all would split any word.
WORDS_CUT_JS = """() => {
  const problems = [];
  const cells = document.querySelectorAll('[role=gridcell], [role=columnheader], .prose td, .prose th');
  for (const cell of cells) {
    if (!cell.offsetParent || !cell.innerText.trim()) continue;
    if (cell.scrollWidth > cell.clientWidth + 1) problems.push(['cut', cell.innerText.slice(0, 60)]);
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (getComputedStyle(node.parentElement).wordBreak === 'break-all') problems.push(['break-all', node.data]);
      // In prose a line may end after a word's own hyphen ("OpenAI-" / "compatible"), as in print;
      // in code (an id, a value) it may not.
      const pieces = node.parentElement.closest('code') ? /\\S+/g : /[^\\s-]+-*/g;
      for (const word of node.data.matchAll(pieces)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = new Set(Array.from(range.getClientRects()).filter(r => r.width > 0).map(r => Math.round(r.top)));
        if (lines.size > 1) problems.push(['split', word[0]]);
      }
    }
  }
  return problems;
}"""

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists() and shutil.which("chromium") is None,
                                 reason="chromium is not installed: run `make browser`")]


@pytest.fixture(scope="module")
def app_urls(space_apps):
    return space_apps[1]


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def _open(browser, url, viewport=VIEWPORT):
    context = browser.new_context(viewport=viewport)
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


def _words_cut(page):
    return page.evaluate(WORDS_CUT_JS)


# True once no component shows gradio's "processing" overlay (its status tracker is hidden).
IDLE_JS = """() => Array.from(document.querySelectorAll('[data-testid=status-tracker]'))
    .every(tracker => tracker.classList.contains('hide') || !tracker.offsetParent)"""


def _show_tab(page, tab):
    """Open ``tab`` and wait for what it shows, and until nothing on it is processing."""
    page.get_by_role("tab", name=tab).click()
    if tab == "Benchmark":
        page.locator("#benchmark-table").get_by_text("77.70", exact=True).filter(visible=True).first.wait_for()
        page.locator("#benchmark-heatmap img").wait_for()
        page.locator("#verdict-table table").first.wait_for()
    elif tab == "About":
        page.get_by_text("The correctness taxonomy").wait_for()
    page.wait_for_timeout(300)  # the tab's own events start
    page.wait_for_function(IDLE_JS)


def _upload(page, path):
    page.get_by_role("tab", name="Score a file").click()
    page.locator("#file-upload input[type=file]").set_input_files(str(path))
    expect(page.get_by_label("Gold answer column")).to_have_value("gold_answer", timeout=STEP_TIMEOUT_MS)


def test_no_value_is_shown_before_scoring(page):
    for element in ("#cap-value", "#cap-plus-value", "#forward-value", "#reverse-value"):
        box = page.locator(element).get_by_role("textbox")
        expect(box).to_have_value("")
        expect(box).to_have_attribute("placeholder", "not scored yet")


def _examples_csv(folder):
    csv = folder / "answers.csv"
    pd.DataFrame([{"question": q, "gold_answer": g, "answer": a, "label": name}
                  for name, q, g, a in space.EXAMPLES]).to_csv(csv, index=False)
    return csv


def _heatmap_px_per_pt(page):
    """Screen pixels per point of the class-pair heatmap as the page shows it (figures are sent
    at 100 dpi)."""
    natural, shown = page.locator("#benchmark-heatmap img").evaluate(
        "image => [image.naturalWidth, image.getBoundingClientRect().width]")
    return shown / (natural / 100 * 72)


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda viewport: f"{viewport['width']}px")
def test_every_tab_before_and_after_scoring(browser, app_urls, tmp_path, viewport):
    """Each tab before and after scoring, at 1366 and 1920 px: screenshots, and no table cell
    that cuts or splits a word."""
    width = viewport["width"]
    context, page, outside = _open(browser, app_urls[0], viewport)
    try:
        page.locator("#model-status").get_by_text("Models ready").wait_for()
        # Before scoring: no empty result boxes (a "1 2 3" table, a download box, empty plots).
        expect(page.locator("#probabilities")).to_be_hidden()
        for tab, name in TABS.items():
            _show_tab(page, tab)
            if tab == "Score a file":
                expect(page.locator("#file-results")).to_be_hidden()
                expect(page.locator("#file-table")).to_be_hidden()
            assert _words_cut(page) == [], f"{tab} at {width} px, before scoring"
            _screenshot(page, f"{name}-before-{width}")
        _score_an_example(page)
        _score_the_examples_file(page, tmp_path)
        for tab, name in TABS.items():
            _show_tab(page, tab)
            assert _words_cut(page) == [], f"{tab} at {width} px, after scoring"
            _screenshot(page, f"{name}-after-{width}")
        # The Benchmark table's last column is on screen, and the heatmap's numbers are legible.
        _show_tab(page, "Benchmark")
        last = page.locator("#benchmark-table [role=columnheader]").filter(has_text="comparable pairs").first
        box, table = last.bounding_box(), page.locator("#benchmark-table").bounding_box()
        assert box["x"] + box["width"] <= table["x"] + table["width"] <= width
        from capqa.space.benchmark import HEATMAP_CELL_FONT_PT

        assert HEATMAP_CELL_FONT_PT * _heatmap_px_per_pt(page) >= 11, f"heatmap numbers too small at {width} px"
    finally:
        context.close()
    assert not outside, f"the page requested outside resources: {outside[:5]}"


def _score_an_example(page):
    """Click an example, press Score, read the values shown."""
    page.get_by_role("tab", name="Score an answer").click()
    label, question, gold, answer = space.EXAMPLES[2]
    page.get_by_text(f"{label}: {answer}", exact=True).click()
    expect(page.get_by_label("Question", exact=True)).to_have_value(question, timeout=STEP_TIMEOUT_MS)
    expect(page.get_by_label("Predicted answer", exact=True)).to_have_value(answer, timeout=STEP_TIMEOUT_MS)
    page.locator("#score-button").click()
    page.locator("#reading").get_by_text("Gold ⇒ prediction").wait_for()
    page.locator("#reading").get_by_text(f"Verdict ({VERDICT} policy)").wait_for()
    for element in ("#cap-value", "#cap-plus-value"):
        assert 0.0 <= float(page.locator(element).get_by_role("textbox").input_value()) <= 1.0
    page.locator("#probabilities img, #probabilities canvas, #probabilities svg").first.wait_for()


def _score_the_examples_file(page, folder):
    """Upload a small CSV, the columns are chosen; read the scored table, the verdict, the download."""
    _upload(page, _examples_csv(folder))
    expect(page.get_by_label("Label column (optional)")).to_have_value("label", timeout=STEP_TIMEOUT_MS)
    page.locator("#file-button").click()
    summary = page.locator("#file-summary")
    summary.get_by_text(f"{len(space.EXAMPLES)} rows").wait_for()
    summary.get_by_text(f"Verdict ({VERDICT} policy): accuracy").wait_for()
    table = page.locator("#file-table")
    expect(table).to_be_visible()  # shown by the step after scoring
    table.locator("[role=columnheader]").filter(visible=True).first.wait_for()
    headers = [text.strip() for text in table.locator("[role=columnheader]").filter(visible=True).all_inner_texts()]
    assert headers[:4] == ["cap", "cap_plus", "correct", "credit"], headers
    # The texts are in view, not pushed off-screen: question, gold answer and answer cells.
    for text in ("Name a city in Bulgaria.", "Sofia", "Burgas"):
        cell = table.get_by_text(text, exact=True).filter(visible=True).first
        cell.wait_for()
        box = cell.bounding_box()
        assert box and box["x"] + min(box["width"], 50) <= page.viewport_size["width"], f"{text!r} is off-screen"
    page.get_by_text("Monotonicity of CAP on this file").wait_for()
    expect(page.locator("#file-report-plot")).to_be_visible()
    # The download names no server folder.
    link = page.locator("#file-download a[download]")
    href = link.get_attribute("href")
    assert "/cap-download/" in href and href.endswith("/answers-cap.csv") and "/tmp" not in href, href


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
        # The Score buttons are disabled: the status line is the one place that says why, and
        # no output box is marked as failed.
        expect(page.locator("#score-button")).to_be_disabled()
        page.locator("#score-button").click(force=True)
        page.get_by_role("tab", name="Score a file").click()
        expect(page.locator("#file-button")).to_be_disabled()
        page.locator("#file-button").click(force=True)
        page.wait_for_timeout(1000)
        assert page.get_by_text("Error", exact=True).count() == 0
        expect(page.locator("#file-results")).to_be_hidden()
        page.get_by_role("tab", name="Score an answer").click()
        _screenshot(page, "no_models")
    finally:
        context.close()
    assert not outside, f"the page requested outside resources: {outside[:5]}"


# Issue 36's walk-through: a file job and a compare, before, during and after, at both widths.
# A box that clips what it holds (overflow other than visible) shows nothing of it outside its
# own rectangle: the element must have a size, and lie inside every such box above it.
ON_TOP_JS = """element => {
  const box = element.getBoundingClientRect();
  if (box.width < 1 || box.height < 1) return false;
  for (let up = element.parentElement; up; up = up.parentElement) {
    const style = getComputedStyle(up);
    if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
    const clip = up.getBoundingClientRect();
    if (box.top < clip.top - 1 || box.bottom > clip.bottom + 1 || box.left < clip.left - 1
        || box.right > clip.right + 1) return false;
  }
  return true;
}"""
JOB_ROWS = 120


def _hold(app_root):
    return app_root / "ready" / "hold"


def _job_csv(folder, rows=JOB_ROWS):
    csv = folder / "job.csv"
    examples = space.EXAMPLES
    pd.DataFrame([{"question": f"{examples[i % len(examples)][1]} ({i})", "gold_answer": examples[i % len(examples)][2],
                   "answer": examples[i % len(examples)][3]} for i in range(rows)]).to_csv(csv, index=False)
    return csv


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda viewport: f"{viewport['width']}px")
def test_a_file_job_shows_its_progress_then_a_summary_that_fits(browser, space_apps, tmp_path, viewport):
    """Items 1 and 10: while the job runs (held between chunks, tests/support/held_app.py), the
    progress text is on screen in a box of real height; after, the summary table has a header
    that names its columns and the hashcode stays inside the page."""
    app_root, urls = space_apps
    width = viewport["width"]
    context, page, outside = _open(browser, urls[0], viewport)
    hold = _hold(app_root)
    try:
        page.locator("#model-status").get_by_text("Models ready").wait_for()
        _upload(page, _job_csv(tmp_path))
        _screenshot(page, f"file_job-before-{width}")
        hold.touch()
        page.locator("#file-button").click()
        progress = page.locator("#file-summary").get_by_text(re.compile(r"\d+/%d" % JOB_ROWS)).first
        progress.wait_for()
        summary_height = page.locator("#file-summary").evaluate("element => element.getBoundingClientRect().height")
        assert summary_height >= 20, summary_height
        progress.scroll_into_view_if_needed()
        _screenshot(page, f"file_job-during-{width}")
        assert progress.evaluate(ON_TOP_JS), "the progress text is clipped"
        assert "Scoring rows" in page.locator("#file-summary").inner_text()
        hold.unlink()
        page.locator("#file-summary").get_by_text(f"{JOB_ROWS} rows").first.wait_for()
        page.wait_for_function(IDLE_JS)
        headers = page.locator("#file-summary table th").all_inner_texts()
        assert headers and all(text.strip() for text in headers), headers
        code = page.locator("#file-summary pre").first
        right, overflow = code.evaluate("element => [element.getBoundingClientRect().right, "
                                        "element.scrollWidth - element.clientWidth]")
        assert right <= width and overflow <= 1, (right, overflow)
        _screenshot(page, f"file_job-after-{width}")
    finally:
        hold.unlink(missing_ok=True)
        context.close()
    assert not outside, f"the page requested outside resources: {outside[:5]}"


def test_cancel_stops_a_running_file_job_and_says_how_to_resume(browser, space_apps, tmp_path):
    """Item 3: the Cancel button beside Score file stops a running job before its next chunk; the
    page says so where the summary goes, shows no results, and the next Score file resumes."""
    app_root, urls = space_apps
    context, page, outside = _open(browser, urls[0], VIEWPORTS[0])
    hold = _hold(app_root)
    try:
        page.locator("#model-status").get_by_text("Models ready").wait_for()
        _upload(page, _job_csv(tmp_path))
        hold.touch()
        page.locator("#file-button").click()
        page.locator("#file-summary").get_by_text(re.compile(r"\d+/%d" % JOB_ROWS)).first.wait_for()
        page.locator("#file-cancel").click()
        hold.unlink()
        page.locator("#file-summary").get_by_text("Cancelled.").wait_for()
        page.wait_for_function(IDLE_JS)
        _screenshot(page, "file_job-cancelled-1366")
        assert "press Score file again" in page.locator("#file-summary").inner_text()
        expect(page.locator("#file-results")).to_be_hidden()
        page.locator("#file-button").click()
        page.locator("#file-summary").get_by_text("kept from the cancelled run").wait_for()
        expect(page.locator("#file-results")).to_be_visible()
        _screenshot(page, "file_job-resumed-1366")
    finally:
        hold.unlink(missing_ok=True)
        context.close()
    assert not outside, f"the page requested outside resources: {outside[:5]}"


def test_closing_the_page_stops_its_file_job(browser, space_apps, tmp_path):
    """Item 3: the server ran a job to its end after its page was closed. Now the page's unload
    cancels it: the job (held between chunks) sees its switch set, and the same file sent again
    resumes from the rows the stopped job kept (the queue runs one file job at a time, so the
    second waits for the first to end)."""
    import gradio_client

    app_root, urls = space_apps
    context, page, outside = _open(browser, urls[0], VIEWPORTS[0])
    hold = _hold(app_root)
    cancelled = hold.with_name(hold.name + ".cancelled")
    csv = _job_csv(tmp_path, rows=48)
    try:
        page.locator("#model-status").get_by_text("Models ready").wait_for()
        _upload(page, csv)
        hold.touch()
        page.locator("#file-button").click()
        page.locator("#file-summary").get_by_text(re.compile(r"\d+/48")).first.wait_for()
        context.close()
        while not cancelled.exists():  # however long the server takes to see the page go
            time.sleep(0.05)
    finally:
        hold.unlink(missing_ok=True)
        cancelled.unlink(missing_ok=True)
    summary = gradio_client.Client(urls[0], verbose=False).predict(
        gradio_client.handle_file(str(csv)), "question", "gold_answer", "answer", space.NO_LABEL, "",
        api_name="/score_file")[0]
    assert "Scored **48 rows**" in summary and "(16 of them kept from the cancelled run)" in summary
    assert not outside, f"the page requested outside resources: {outside[:5]}"


def _replace_upload(page, path):
    """Another file in the upload box: the shown one cleared first, as a person does."""
    page.locator("#file-upload").get_by_role("button", name=re.compile("clear|remove", re.I)).first.click()
    _upload(page, path)


def _toasts(page):
    return [text.strip() for text in page.locator(".toast-body").filter(visible=True).all_inner_texts()]


def test_a_second_refusal_stays_on_screen_until_the_next_action(page, tmp_path):
    """Item 2: the second of two refused files joined the first message and was gone within 2 s."""
    rows = [{"question": q, "gold_answer": g, "answer": a} for _, q, g, a in space.EXAMPLES]
    first, second = tmp_path / "first.csv", tmp_path / "second.csv"
    pd.DataFrame(rows).assign(correct="x").to_csv(first, index=False)  # a column the verdict would write
    rows[3]["gold_answer"] = " "
    pd.DataFrame(rows).to_csv(second, index=False)
    _upload(page, first)
    page.locator("#file-button").click()
    page.locator(".toast-body").first.wait_for()
    _replace_upload(page, second)
    page.locator("#file-button").click()
    page.locator(".toast-body").get_by_text("Column 'gold_answer' is empty").wait_for()
    page.wait_for_timeout(4000)  # a timed message was gone after 2 s
    toasts = _toasts(page)
    assert len(toasts) == 1 and "Column 'gold_answer' is empty in row" in toasts[0], toasts
    _screenshot(page, "file_refusal_stays")
    # The next action closes it.
    _replace_upload(page, _examples_csv(tmp_path))
    page.locator("#file-button").click()
    page.locator("#file-summary").get_by_text(f"{len(space.EXAMPLES)} rows").first.wait_for()
    # Closed by the click, then gone once its closing animation ends: waited for, not sampled.
    expect(page.locator(".toast-body").filter(visible=True)).to_have_count(0)


def _scored_csv(folder, name, shift):
    """A scored file as `score` writes one, without its summary."""
    path = folder / name
    pd.DataFrame([{"question": q, "gold_answer": g, "answer": a, "cap": min(1.0, 0.1 * i + shift)}
                  for i, (_, q, g, a) in enumerate(space.EXAMPLES)]).to_csv(path, index=False)
    return path


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda viewport: f"{viewport['width']}px")
def test_compare_says_what_the_page_has_and_labels_every_column(browser, app_urls, tmp_path, viewport):
    """Item 11: no empty plot box before a comparison; a refusal in the page's words (the
    checkbox, the summary not uploaded), which stays; the Pairs table's every column named; no
    literal backticks in the Note."""
    width = viewport["width"]
    context, page, outside = _open(browser, app_urls[0], viewport)
    try:
        page.get_by_role("tab", name="Compare systems").click()
        expect(page.locator("#compare-plot")).to_be_hidden()
        _screenshot(page, f"compare-before-{width}")
        files = [_scored_csv(tmp_path, "system_a.csv", 0.0), _scored_csv(tmp_path, "system_b.csv", 0.05)]
        page.locator("#compare-upload input[type=file]").set_input_files([str(path) for path in files])
        page.wait_for_timeout(1000)
        page.locator("#compare-button").click()
        message = page.locator(".toast-body").get_by_text("was not uploaded beside it")
        message.wait_for()
        page.wait_for_timeout(3000)
        expect(message).to_be_visible()
        text = message.inner_text()
        assert "Allow mixed or unknown settings" in text and "--allow-mixed-settings" not in text, text
        assert "before summaries existed" not in text
        expect(page.locator("#compare-plot")).to_be_hidden()
        _screenshot(page, f"compare-refused-{width}")
        page.get_by_label("Allow mixed or unknown settings").check()
        page.locator("#compare-button").click()
        report = page.locator("#compare-report")
        report.get_by_text("Pairs: difference").wait_for()
        page.wait_for_function(IDLE_JS)
        # The refusal closes as the click starts (CLOSE_ERRORS_JS); gradio removes it after its
        # closing animation, which a loaded machine can finish after the report is drawn (a
        # fresh-clone run saw it still there): wait for it to go, however long that takes.
        expect(page.locator(".toast-body").filter(visible=True)).to_have_count(0, timeout=STEP_TIMEOUT_MS)
        expect(page.locator("#compare-plot")).to_be_visible()
        pairs = report.locator("table").nth(1)
        headers = pairs.locator("th").all_inner_texts()
        assert headers and all(header.strip() for header in headers), headers
        shown = report.inner_text()
        assert "`" not in shown and "--allow-mixed-settings" not in shown, shown[-400:]
        assert _words_cut(page) == []
        _screenshot(page, f"compare-after-{width}")
    finally:
        context.close()
    assert not outside, f"the page requested outside resources: {outside[:5]}"


def test_the_title_renders_in_one_font(page):
    """Item 13: "CAP" in the title showed a small A: 26 glyphs of DejaVu Sans Bold and 6 of a
    partial Source Sans Pro. Every heading's glyphs come from one font, asked of the browser."""
    session = page.context.new_cdp_session(page)
    session.send("DOM.enable")
    session.send("CSS.enable")
    root = session.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    for selector in ("h1", "h3", "button[role=tab]"):
        for node in session.send("DOM.querySelectorAll", {"nodeId": root, "selector": selector})["nodeIds"][:3]:
            fonts = session.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
            families = {font["familyName"] for font in fonts}
            assert len(families) <= 1, (selector, fonts)
    _screenshot(page, "title_font")
