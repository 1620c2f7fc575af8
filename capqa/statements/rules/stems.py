"""Sentences to complete: a stem that is no question, and the answer that finishes it.

Exam questions (ARC, OpenBookQA, MMLU) are often the opening of a sentence, and the answer its
end. The stem and the answer are parsed together (``stem + " " + answer``), and the joined parse
says whether the answer goes on where the stem stops:

- the answer opens with a verb: "Condensation over night" + "can lead to slippery grass",
  "Scales" + "help users know ...", "... then that fox" + "ceases to exist";
- the answer is the object a verb of the stem awaits: "... in soil add" + "fungi";
- the stem is a modifier without a main clause (a subordinate clause, a prepositional or
  infinitive phrase, or anything ending in a comma) and the answer is a clause: "When being
  pursued by a lion" + "a giraffe will dash", "On a cloudy day" + "the sun is obscured".

In any of these the statement is the stem followed by the answer; never "X is can ...".

``subordinate_stem``: a wh-word followed by a subject with no inversion and no question mark
("When rocks are exposed to wind, the rocks" + "erode") opens a subordinate clause, not a
question, once something shows the sentence goes on (a comma, an answer that continues it, an
open end, a participle after the wh-word). Search queries ("when was the last time X won",
"who sang X") are inverted or have the wh-word as their subject, and stay questions.
"""

import re
from typing import List, Optional, Sequence, Tuple

from capqa.statements.rules.analysis import Frame, agrees_as_verb, render
from capqa.statements.rules.blanks import complete
from capqa.statements.rules.lexicon import (AUXILIARIES, DEMONSTRATIVES, FINITE_TAGS, NOMINAL_SUBJECT_DEPS,
                                            strip_trailing)
from capqa.statements.rules.morphology import lemmas_of
from capqa.statements.rules.parser import Parse, Word, parse
from capqa.statements.rules.sentences import is_clause
from capqa.statements.rules.subjects import subtree_edges

_OPEN_END_TAGS = frozenset(("IN", "DT", "TO", "CC", "MD", "VBZ", "VBD", "VBP", "VBN", "PRP$", "POS"))
_SUBORDINATORS = frozenset("when whenever where while after before if because since until once although though "
                           "unless as".split())
_OBJECT_DEPS = frozenset(("dobj", "attr", "acomp", "oprd", "dative", "xcomp", "ccomp"))
_SUBORDINATE_WH = frozenset(("when", "where", "whenever"))
# An answer that says the stem's verb again after a pronoun: "It can summon ..." to "Shining a light ... can".
_PRONOUN_RESTATING = re.compile(r"^(?:it|they|he|she)\s++(?P<verb>[\w'’]+)\s++(?P<rest>\S.*)$", re.IGNORECASE)
_MIN_STEM_SUBJECT_WORDS = 2
_COMPLEMENTIZERS = frozenset("because that if whether since so although though while when".split())


def ends_open(words: Parse) -> bool:
    """Whether a sentence stops where a phrase must follow ("... arising out of", "... is the",
    "... in soil add"): a word that needs a complement, or a base verb that is no infinitive's."""
    content = [word for word in words if word.tag not in (".", ",", ":")]
    if not content:
        return False
    last = content[-1]
    if last.tag in _OPEN_END_TAGS or last.lower in ("more", "less", "fewer"):
        return True
    return last.tag == "VB" and len(content) > 1 and content[-2].tag not in ("TO", "MD")


def opens_relative_clause(words: Parse) -> bool:
    """Whether the prompt's wh-word is a relative pronoun: it heads a relative clause inside the
    sentence ("..., which means that", "the man who"), so a prompt without "?" is a stem to complete,
    not a question ("In which county is X" asks)."""
    return any(word.tag in ("WDT", "WP", "WRB") and word.i > 0 and 0 <= word.head < len(words)
               and words[word.head].dep == "relcl" for word in words)


def is_stem(words: Parse) -> bool:
    """Whether a prompt that is no question is a sentence to complete (its main verb is finite,
    or it ends where a phrase must follow) rather than a noun phrase ("different ways to spell
    Corey", "french film pioneer who introduced newsreel")."""
    if ends_open(words) or _finite_root(words):
        return True
    for word in words:
        if word.tag in ("WP", "WDT", "WRB"):
            return False  # the verb after a relative pronoun is the relative clause's
        if word.tag in FINITE_TAGS:
            return True
    return False


def _finite_root(words: Parse) -> bool:
    root = next((word for word in words if word.dep == "ROOT"), None)
    if root is None or not (root.tag.startswith("VB") or root.tag == "MD"):
        return False
    return root.tag in FINITE_TAGS or any(word.head == root.i and word.i != root.i and word.dep in ("aux", "auxpass")
                                      and word.tag in FINITE_TAGS for word in words)


def is_modifier(words: Parse) -> bool:
    """Whether a stem modifies a main clause still to come: it ends in a comma, opens with a
    subordinator and has no comma after which a main clause could have started, or has no
    finite main verb at all ("On a cloudy day", "To prevent electric shock")."""
    if not words:
        return False
    if words[-1].text == ",":
        return True
    if words[0].lower in _SUBORDINATORS and not any(word.text == "," for word in words):
        return True
    return not _finite_root(words) and any(word.tag in ("IN", "TO", "WRB", "VBG", "VBN") for word in words[:1])


def _answer_part(joined: Parse, stem: str) -> Tuple[Parse, Parse]:
    """(the stem's words, the answer's words) of the parse of ``stem + " " + answer``."""
    offset, split = 0, len(joined)
    for index, word in enumerate(joined):
        if offset > len(stem):
            split = index
            break
        offset += len(word.text) + (1 if word.space else 0)
    return joined[:split], joined[split:]


def continuation_texts(stem: str, answer: str) -> List[str]:
    """The texts ``continues(stem, answer)`` parses: the stem, both joined and the answer (so a
    batch can parse them together first)."""
    return [stem, _joined(stem, answer), answer]


def _joined(stem: str, answer: str) -> str:
    return f"{stem} {answer}"


def continues(stem: str, answer: str) -> bool:
    """Whether ``answer`` finishes the sentence ``stem`` (see the module docstring)."""
    stem_words = parse(stem)
    if not stem_words or not answer.strip():
        return False
    before, after = _answer_part(parse(_joined(stem, answer)), stem)
    if not before or not after:
        return False
    first = after[0]
    inside = range(after[0].i, after[-1].i + 1)
    modifier = is_modifier(stem_words)
    if first.tag in FINITE_TAGS or (first.lower in AUXILIARIES and first.tag.startswith("VB")):
        return True
    if first.tag == "VB" and (first.dep == "ROOT" or modifier or before[-1].tag in ("MD", "TO")):
        return True  # "Greenhouses" + "protect plants", "When doing experiments" + "guard against ..."
    if _agrees_with_stem_end(before, after):
        return True  # "the atomic number in each column" + "increases by 1"
    answer_clause = is_clause(parse(answer))
    if answer_clause and before[-1].lower in _COMPLEMENTIZERS:
        return True  # "... it might be because" + "His body is trying to ..."
    if modifier and (answer_clause or any(word.dep == "ROOT" and word.i in inside for word in after)):
        return True  # "On a cloudy day" + "the sun is obscured", "While being heated" + "butter melts"
    if answer_clause:
        return False  # "The powerhouse of the cell is" + "The mitochondria is ...": the answer's own sentence
    if ends_open(stem_words):
        return True  # "... is responsible for" + "MC that first falls, ..."
    heads = [word for word in after if word.head not in inside]
    return any(_joined_head_is_verb(before, stem_words, word) for word in heads)


def _agrees_with_stem_end(before: Parse, after: Parse) -> bool:
    """Whether the stem ends with a subject and the answer opens with a verb form agreeing with
    it, followed by what follows a verb (the tagger may call either a noun: "... column" +
    "increases by 1", "they" + "head to less snowy areas")."""
    last, first = before[-1], after[0]
    if last.tag not in ("NN", "NNS", "PRP") or last.lower in ("it", "them", "him", "her", "me", "us"):
        return False
    if last.tag == "PRP" and last.lower not in ("they", "we", "you", "i", "he", "she"):
        return False
    if len(after) > 1 and after[1].tag not in ("IN", "DT", "TO", "RB", "RBR", "PRP$", "CD", "JJ", "JJR"):
        return False
    plural = last.tag == "NNS" or last.lower in ("they", "we", "you", "i")
    return first.lower not in AUXILIARIES and agrees_as_verb(first, plural=plural) and "VERB" in lemmas_of(first.lower)


def _joined_head_is_verb(before: Sequence[Word], stem_words: Parse, word: Word) -> bool:
    """Whether ``word`` of the answer is the object of a verb of the stem ("... add" + "fungi")."""
    if word.dep not in _OBJECT_DEPS:
        return False
    head = next((candidate for candidate in before if candidate.i == word.head), None)
    if head is None or not head.tag.startswith("VB") or head.i == before[0].i:
        return False  # "name of the boundary line ...": a noun phrase, whatever the tagger says
    if not stem_words[head.i].tag.startswith("VB") and (head.i != before[-1].i or head.dep == "conj"):
        return False  # a verb only once the answer follows: unless it ends the stem ("Pulse rate increases")
    return not any(other.head == head.i and other.dep in _OBJECT_DEPS and other.tag != "PRP" for other in before)


def subordinate_stem_texts(proper: str, answer: str) -> List[str]:
    """The texts a prompt read as a wh-question parses once ``subordinate_stem`` finds it opens a
    sentence to complete (``stem_statement``'s), where that can be told before its parse: "when",
    "where" or "whenever" first, a comma and no "?" ("When there is little contact, this is")."""
    first = proper.split(" ", 1)[0].lower()
    if proper.rstrip().endswith("?") or first not in _SUBORDINATE_WH or "," not in proper:
        return []
    return continuation_texts(strip_trailing(proper), answer)


def subordinate_stem(frame: Frame, words: Parse, proper: str, answer: str) -> bool:
    """Whether a prompt read as a wh-question is a subordinate clause opening a sentence to
    complete (see the module docstring)."""
    if proper.rstrip().endswith("?") or frame.wh not in _SUBORDINATE_WH or not frame.wh_is_subject:
        return False
    rest = frame.rest
    if not rest or (rest[0].tag in FINITE_TAGS or rest[0].lower in AUXILIARIES) and rest[0].tag not in ("VBG", "VBN"):
        return False  # "when was ...", "where is ...": the wh-word's own verb
    if rest[0].tag in ("VBG", "VBN"):
        return True  # "When being pursued by a lion", "When compared to the Sun, ..."
    comma = any(word.text == "," for word in words)
    if not comma and not any(word.tag in FINITE_TAGS for word in rest):
        return False  # no comma and no finite verb: a query or a title, not a clause
    return comma or ends_open(words) or continues(proper.rstrip(), answer)


def stem_statement(stem: str, answer: str, written: str = "") -> Optional[str]:
    """The stem followed by ``answer`` when the answer as ``written`` (its case as given, which
    the parse reads) continues it, else None."""
    if not continues(stem, written or answer):
        return None
    stem = stem.rstrip()
    stem_words = parse(stem)
    # A stem that ends with its modal ("To raise revenue, owners should") is finished by the answer, not set off from it
    modal_end = stem_words[-1].tag == "MD"
    if is_modifier(stem_words) and not stem.endswith(",") and not modal_end and is_clause(parse(answer)):
        return f"{stem}, {answer}"  # "When being pursued by a lion, a giraffe will dash"
    return complete(stem, answer)


def demonstrative_stem(stem: str, answer: str) -> Optional[str]:
    """"These are costs which do not vary ...:" + "fixed costs" -> "Fixed costs are costs which
    do not vary ...": a sentence before a colon whose subject is a demonstrative ("This is where
    ...", "These goods are ...") defines what the answer names, and the answer takes the
    demonstrative's place: the pronoun's, or the determiner's before its noun ("Non-durable goods
    are ..."; an answer that is a noun phrase of its own replaces both, and a longer description
    stays after it: "Coal, the type of energy resource, often results in ..."). None for another
    stem, or an answer that is a sentence of its own."""
    if not stem.rstrip().endswith(":") or is_clause(parse(answer)):
        return None
    words = parse(strip_trailing(stem))
    if len(words) < 3 or words[0].lower not in DEMONSTRATIVES or (ends_open(words) and words[-1].tag != "VBN"):
        return None  # "These are examples of:": a sentence still to finish ("... or service sold:" is done)
    first, second = words[0], words[1]
    if first.dep in NOMINAL_SUBJECT_DEPS:
        return f"{answer} {render(words[1:])}"
    if first.dep != "det" or first.head != second.i or second.tag not in ("NN", "NNS") or second.dep not in (
            NOMINAL_SUBJECT_DEPS):
        return None
    end = subtree_edges(words, 1)[1] + 1  # the whole subject: "This type of energy resource"
    if end == 2 and " " not in answer and "NOUN" not in lemmas_of(answer.lower()):
        return f"{answer} {render(words[1:])}"  # an adjective of the noun: "Non-durable goods"
    if end > 2:  # the description stays, set off after the answer: "Gravity, the force that pulls ..., keeps"
        return f"{answer}, the {render(words[1:end])}, {render(words[end:])}"
    return f"{answer} {render(words[end:])}"


def pronoun_restating_stem(stem: str, answer: str) -> Optional[str]:
    """The stem completed by an answer that says it again with a pronoun for its subject
    ("Shining a light through a diamond can" + "It can summon a wave of color." -> "Shining a
    light through a diamond can summon a wave of color."): the pronoun has no referent but the
    stem's subject, which the stem's words before the shared verb name. None otherwise."""
    match = _PRONOUN_RESTATING.match(strip_trailing(answer))
    stem_words = strip_trailing(stem).split()
    if not match or len(stem_words) <= _MIN_STEM_SUBJECT_WORDS or stem_words[-1].lower() != match.group("verb").lower():
        return None
    if stem_words[-1].lower() not in AUXILIARIES:
        return None  # only a modal or auxiliary ends a stem whose subject is all before it
    return f"{strip_trailing(stem)} {match.group('rest')}"
