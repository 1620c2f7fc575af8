"""Text that enters and leaves the Space: length caps, refused values, escaping.

Everything a visitor sends is checked here before it reaches the scorer, and everything the
page renders from a visitor (a label, a column name, a cell) is escaped here, so that no
uploaded file can put a link, a form or an image on the page.
"""

import html
import logging
import re
from typing import Any, Optional

import gradio as gr

from capqa.common.quoting import bounded_message
from capqa.common.validation import is_blank
from capqa.space.inputs import MAX_GOLD_ANSWERS, MAX_TEXT_CHARS

LOGGER = logging.getLogger(__name__)
# A refusal's line in the app's log quotes at most this much of the message.
LOGGED_REFUSAL_CHARS = 300

_SURROGATE = re.compile("[\ud800-\udfff]")
# Markdown marks that could make a link, an image, code, emphasis or a table cell out of user text.
_MARKDOWN_MARKS = re.compile(r"([\\`*_\[\]()!|])")


# Run in the browser as a button's click starts: the error messages of the last action close (each
# stays until then), and the click's inputs pass through unchanged.
CLOSE_ERRORS_JS = """(...inputs) => {
  document.querySelectorAll('.toast-close').forEach(button => button.click());
  return inputs;
}"""


def user_error(message: str) -> gr.Error:
    """A ``gr.Error`` whose text is shown as text (the page renders error pop-ups as HTML), and
    short: a message that quotes a huge input is cut in the middle (``bounded_message``).

    A refusal is an answer, not a failure: the app's log gets one line for it, without gradio's
    traceback (which stays for real failures, anything that is not a ``gr.Error``).
    """
    text = bounded_message(printable(message))
    LOGGER.info("refused: %s", bounded_message(" ".join(text.split()), LOGGED_REFUSAL_CHARS))
    # duration=None: the message stays until the next action closes it (CLOSE_ERRORS_JS); a
    # timed one vanished within 2 s when a second refusal followed.
    return gr.Error(html.escape(text, quote=False), duration=None, print_exception=False)


def printable(text: str) -> str:
    """``text`` with lone surrogates written as escapes, so it can always be sent as UTF-8."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def escape_markdown(value: Any) -> str:
    """User text safe to put in a Markdown component: no HTML, no Markdown marks."""
    return _MARKDOWN_MARKS.sub(r"\\\1", html.escape(printable(str(value)), quote=False))


def first_surrogate(text: str) -> Optional[int]:
    """Position (0-based) of the first lone surrogate in ``text``, or None."""
    found = _SURROGATE.search(text)
    return None if found is None else found.start()


def check_text_value(value: Any, name: str) -> Optional[str]:
    """The raw value of a text field: None, or a string that UTF-8 can carry.

    The page always sends strings; a raw API call can send a dict, a list or a lone surrogate,
    which gradio would turn into text and score.
    """
    if value is None:
        return None
    if not isinstance(value, str):
        raise user_error(f"{name} must be text, got {type(value).__name__}.")
    position = first_surrogate(value)
    if position is not None:
        raise user_error(f"{name} has a lone surrogate character (U+{ord(value[position]):04X}) at "
                         f"position {position + 1}; send valid Unicode text.")
    return value


def text_field(**textbox_options: Any) -> gr.Textbox:
    """A ``gr.Textbox`` that refuses non-string values and lone surrogates sent to the API.

    Its ``preprocess`` is wrapped on the instance: a subclass of a gradio component would make
    gradio write a ``.pyi`` stub beside this module.
    """
    textbox = gr.Textbox(**textbox_options)
    preprocess = textbox.preprocess

    def checked_preprocess(payload: Any) -> Optional[str]:
        return preprocess(check_text_value(payload, textbox.label or "The text"))

    textbox.preprocess = checked_preprocess
    return textbox


def name_missing_inputs(demo: gr.Blocks) -> gr.Blocks:
    """``demo`` whose endpoints, called over the API with fewer values than they take, say which
    inputs are missing: gradio's own error for that is a ValueError, which reaches the client as
    a bare "Error". Wrapped on the instance, as ``text_field`` wraps a textbox."""
    validate_inputs = demo.validate_inputs

    def named(block_fn: Any, inputs: list) -> None:
        if len(inputs) < len(block_fn.inputs):
            names = [getattr(block, "label", None) or type(block).__name__ for block in block_fn.inputs]
            raise user_error(f"The {block_fn.api_name or 'called'} endpoint takes {len(names)} inputs "
                             f"({', '.join(names)}); got {len(inputs)}, so {', '.join(names[len(inputs):])} "
                             "is missing.")
        validate_inputs(block_fn, inputs)

    demo.validate_inputs = named
    return demo


def required_text(value: Any, what: str) -> str:
    """``value`` stripped; refused when empty, only invisible characters (zero-width spaces,
    BOM, control characters) or longer than ``MAX_TEXT_CHARS``."""
    field = re.sub(r"^(a|an) ", "", what)
    name = field[0].upper() + field[1:]
    text = check_text_value(value, name) or ""
    text = text.strip()
    if not text:
        raise user_error(f"Please enter {what}.")
    if is_blank(text):
        raise user_error(f"Please enter {what}: the {field} field holds only invisible "
                         "characters (zero-width spaces, BOM or control characters).")
    if len(text) > MAX_TEXT_CHARS:
        raise user_error(f"{name} is {len(text):,} characters long; at most {MAX_TEXT_CHARS:,} are accepted.")
    return text


def parse_golds(text: Any) -> list:
    """The gold answers typed one per line; blank lines (invisible characters only) are skipped."""
    text = required_text(text, "a gold answer")
    golds = [line.strip() for line in text.splitlines() if not is_blank(line)]
    if len(golds) > MAX_GOLD_ANSWERS:
        raise user_error(f"There are {len(golds)} gold answers; at most {MAX_GOLD_ANSWERS} are accepted.")
    return golds
