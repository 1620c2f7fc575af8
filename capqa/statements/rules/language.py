"""Whether a question or an answer is not English: the rule converter reads English only.

The converter parses with an English model and builds English sentences; given a German or
Bulgarian question it would wrap it in an English template. ``not_english(question, answer)``
says when a text is in another language, so that the converter passes it through unconverted
(the statement is the answer as given) and ``statement_issues`` marks it ``not_english``.

A text is not English when most of its letters are of another script than Latin, or when Google's
Compact Language Detector 2 (``pycld2``: its tables ship in the wheel, deterministic, Apache-2.0,
microseconds a text) reliably names another language. Short texts are where identifiers guess, so
the detector decides only what a word count allows: a name or title ("Goethe", "Paris", "La
Marseillaise") is never called another language, nor is a text with a distinctly English word
("the", "of", "what", "n't", ...) or one in quotation marks. A question needs two distinct words
written in lower case (or its first word), an answer to an English question five, so that a foreign title,
motto or list of names stays the converter's; an answer to an English question that holds code's marks (brackets,
``=``, ``;``, an identifier with ``_``) is code, never another language. The detector reads the text with and without its
capitalised words, which in a short question are mostly names ("Risky Business est-il sorti avant
Top Gun ?"). Linear in the text, of which the first ``MAX_CHARS`` characters are read.

pycld2 is a dependency of the package; where it is not installed (an environment made before it
was added) the gate still passes through texts of another script, but cannot tell a Latin-script
language from English: that is logged once, and the rules' identity records ``pycld2=absent``
(``detector_version``), so statements made without it are told apart in the hashcode.
"""

import importlib
import importlib.metadata
import logging
import re
import threading
from typing import List, Optional

from capqa.statements.rules.morphology import lemmas_of

try:  # imported by name, since it may be absent (see the module's description): the script test still runs
    pycld2 = importlib.import_module("pycld2")
except ImportError:
    pycld2 = None

logger = logging.getLogger(__name__)
_warned_absent = threading.Event()

MAX_CHARS = 2000
# A question of two words of its own is long enough ("Wer schrieb Faust?"); an answer needs five,
# since short answers to English questions are often foreign names, titles and mottos.
QUESTION_WORDS = 2
ANSWER_WORDS = 5
# A text whose own words are mostly English words is English: of 17 short questions in 11
# languages none has more than 3 in 8 ("Quel est le plus grand pays du monde ?": est, grand, pays).
ENGLISH_SHARE = 0.6
# Letters of another script: at least this many, and more than half of all letters.
QUESTION_SCRIPT_LETTERS = 2
ANSWER_SCRIPT_LETTERS = 12
# Words that are English and rarely a word of another language written in Latin letters.
ENGLISH_WORDS = frozenset(
    "the of and to is was what who whom whose which when where why how does did do with from that this for are were "
    "you your have has been they their his her she he it its as if or not can will would should there many much be "
    "my me we our than into about get".split())
_WORD = re.compile(r"[^\W\d_]+")
_CONTRACTION = re.compile(r"\w[nN]['’][tT]\b")
# Code's marks: an answer with two or more of them is code (``min(xs, key=len)``, ``SELECT *``),
# whose identifiers a language detector reads as words of some language.
_CODE_MARK = re.compile(r"[(){}\[\]=;<>*`]|\w_\w")
CODE_MARKS = 2
_QUOTED = re.compile(r'"[^"\n]{0,400}"|“[^”\n]{0,400}”|«[^»\n]{0,400}»|„[^“”\n]{0,400}[“”]')


def not_english(question: str, answer: str) -> Optional[str]:
    """The language (an ISO code, or ``"other script"``) of ``question``, or of ``answer`` when
    the question reads as English, if either is not English; ``None`` when both are English or too
    short to tell."""
    language = language_of(question, QUESTION_WORDS, QUESTION_SCRIPT_LETTERS)
    if language or len(_CODE_MARK.findall(answer[:MAX_CHARS])) >= CODE_MARKS:  # code is no language
        return language
    return language_of(answer, ANSWER_WORDS, ANSWER_SCRIPT_LETTERS)


def language_of(text: str, min_words: int, min_script_letters: int) -> Optional[str]:
    """The language of ``text`` when it is not English (see the module's description); ``None``
    for English or for a text too short to tell."""
    text = _QUOTED.sub(" ", text[:MAX_CHARS])
    words = _WORD.findall(text)
    if not words:
        return None
    other_script = sum(not _latin(letter) for word in words for letter in word)
    letters = sum(map(len, words))
    if other_script >= min_script_letters and other_script * 2 > letters:
        return _detected(words, best_effort=True) or "other script"
    if _CONTRACTION.search(text) or any(word.lower() in ENGLISH_WORDS for word in words):
        return None
    own = [word for index, word in enumerate(words) if index == 0 or word[0].islower()]
    if len({word.lower() for word in own}) < min_words:  # a list of names repeats its few words
        return None
    if english_share(own) >= ENGLISH_SHARE:  # "Reverse a string in Python", which CLD2 calls Latin
        return None
    return _detected(words) or (_detected(own) if len(own) < len(words) else None)


def english_share(words: List[str]) -> float:
    """The share of ``words`` that English's lexicon knows (lemminflect's, which the converter
    inflects with): a short task written in English words is English, however CLD2 reads it."""
    return sum(1 for word in words if lemmas_of(word)) / len(words)


def _latin(letter: str) -> bool:
    """Basic Latin to Latin Extended-B, and Latin Extended Additional (Vietnamese)."""
    return letter < "\u0250" or "\u1e00" <= letter <= "\u1eff"


def detector_version() -> str:
    """The installed pycld2's version, or ``"absent"``: part of the rule converter's identity."""
    return importlib.metadata.version("pycld2") if pycld2 is not None else "absent"


def _detected(words: List[str], best_effort: bool = False) -> Optional[str]:
    """CLD2's language for the words (letters only, so no input it refuses), when it is reliable
    and not English; ``None`` without pycld2 (said once per process)."""
    if pycld2 is None:
        if not _warned_absent.is_set():
            _warned_absent.set()
            logger.warning("pycld2 is not installed: a question or answer in another language written in Latin "
                           "letters is not recognised and gets an English statement (pip install 'pycld2>=0.42,<1')")
        return None
    reliable, _, details = pycld2.detect(" ".join(words), bestEffort=best_effort)
    code = details[0][1]
    if not (reliable or best_effort) or code in ("en", "un"):
        return None
    return code
