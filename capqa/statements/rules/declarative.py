"""A question's clause put back in declarative order, with the answer in its place.

``Clause`` is the subject and the verb phrase of a ``Frame`` after the inversion is undone:
do-support folds into the verb's tense and number ("did the wall fall" -> "the wall fell"),
another auxiliary goes back after the subject ("can penguins fly" -> "penguins can fly"), and
negation stays with the auxiliary ("does not have", "cannot"). ``Clause.text`` writes it with
words inserted at positions of the verb phrase (the answer where the wh-phrase was).
"""

from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple

from capqa.statements.rules.agreement import answer_is_plural
from capqa.statements.rules.analysis import Frame, render
from capqa.statements.rules.lexicon import COPULAS, FLOATING_QUANTIFIERS, MODALS, PREPOSITIONS
from capqa.statements.rules.morphology import agree, inflect, is_base_verb, lemmas_of, plural_phrase
from capqa.statements.rules.parser import Word
from capqa.statements.rules.tails import split_tail


def join(*chunks: str) -> str:
    """Chunks of text joined by single spaces, empty ones left out; a chunk that opens with a
    colon or a comma attaches to the one before it."""
    text = ""
    for chunk in chunks:
        chunk = chunk.strip() if chunk else ""
        if chunk:
            text = text + chunk if chunk[0] in ",:;" or not text else f"{text} {chunk}"
    return text


def negative(auxiliary: str) -> str:
    return "cannot" if auxiliary == "can" else f"{auxiliary} not"


class Clause(NamedTuple):
    subject: str
    verb_group: Tuple[str, ...]     # the finite verb group: "fell", "can", "does not", "is"
    rest: Tuple[Word, ...]          # the verb phrase after the finite verb group
    verb_index: int                 # the index in ``rest`` after the main verb (0: no main verb in it)

    def text(self, inserts: Optional[Dict[int, str]] = None, subject: Optional[str] = None) -> str:
        """The clause, with ``inserts[i]`` written before ``rest[i]`` (``len(rest)``: at the end)."""
        inserts = inserts or {}
        pieces: List[str] = [self.subject if subject is None else subject, *self.verb_group]
        run: List[Word] = []
        for index, word in enumerate(self.rest):
            if index in inserts:
                pieces += [render(run), _without_seam_double(pieces, run, inserts[index])]
                run = []
            run.append(word)
        pieces.append(render(run))
        if len(self.rest) in inserts:
            pieces.append(_without_seam_double(pieces, run, inserts[len(self.rest)]))
        return join(*pieces)


def _without_seam_double(pieces: List[str], run: List[Word], insert: str) -> str:
    """The insert without a first word that the clause has just written ("comes on" + "on
    Monday" -> "comes on Monday", "is found" + "found in the lungs" -> "is found in the lungs")."""
    before = render(run) if run else next((piece for piece in reversed(pieces) if piece), "")
    last = before.split()[-1].lower() if before.split() else ""
    words = insert.split()
    if len(words) > 1 and last.isalpha() and words[0].lower() == last:
        return " ".join(words[1:])
    return insert


def main_verb_position(words: Sequence[Word]) -> int:
    """The position of the main verb in a verb phrase: the first word that is not an adverb or a
    floated quantifier ("both include")."""
    for index, word in enumerate(words):
        floated = word.lower in FLOATING_QUANTIFIERS and index + 1 < len(words) and (
            words[index + 1].tag.startswith("VB"))
        if not floated and (word.tag not in ("RB", "RBR", "RBS") or word.lower in ("not", "n't")):
            return index
    return 0


def declarative(frame: Frame) -> Optional[Clause]:
    """The frame's subject and verb phrase in declarative order, or None without a subject."""
    if not frame.subject:
        return None
    subject = render(frame.subject)
    auxiliary, rest = frame.auxiliary, tuple(frame.rest)
    if not auxiliary:  # an embedded question: already in declarative order ("how vaccines work")
        return Clause(subject, (), rest, main_verb_position(rest) + 1 if rest else 0)
    if frame.do_support:
        if frame.negated or not rest:
            return Clause(subject, (negative(auxiliary) if frame.negated else auxiliary,), rest,
                          main_verb_position(rest) + 1 if rest else 0)
        position = main_verb_position(rest)
        verb = rest[position]
        plural = auxiliary == "do" or ((auxiliary != "does" or coordinated(frame.subject)) and plural_phrase(subject))
        inflected = agree(verb.text, plural, auxiliary == "did") if _is_verb(verb) else verb.text
        adverbs = render(rest[:position])
        group = (adverbs, inflected) if adverbs else (inflected,)
        return Clause(subject, group, rest[position + 1:], 0)
    group = negative(auxiliary) if frame.negated else auxiliary
    return Clause(subject, (group,), rest, main_verb_position(rest) + 1 if rest else 0)


def coordinated(subject: Sequence[Word]) -> bool:
    """Whether the subject is two names joined by "and" at its head ("Gould and Beattie"): plural
    whatever the question's "does" says ("What does Gould and Beattie have in common?"). Names
    only: the parse also joins nouns of one compound ("the bread and butter pudding")."""
    where = {word.i for word in subject}
    heads = {word.i for word in subject if (word.head not in where or word.head == word.i) and word.tag == "NNP"}
    return any(word.lower == "and" and word.dep == "cc" and word.head in heads for word in subject) and any(
        word.dep == "conj" and word.head in heads and word.tag == "NNP" for word in subject)


def _is_verb(word: Word) -> bool:
    return word.tag.startswith("VB") or is_base_verb(word.lower) or "VERB" in lemmas_of(word.lower)


def object_slot(clause: Clause) -> int:
    """Where an object goes in the clause's verb phrase: after a stranded preposition (one at the
    end, or one followed by another preposition: "return to | in 2012"), else after the main verb
    and its particle ("take in | during photosynthesis")."""
    rest = clause.rest
    if rest and _is_stranded(rest[-1]):
        return len(rest)
    for index in range(clause.verb_index, len(rest) - 1):
        if rest[index].lower in PREPOSITIONS and rest[index + 1].lower in PREPOSITIONS - {"of"} and (
                rest[index].tag in ("IN", "RP", "TO")):
            return index + 1
    index = clause.verb_index
    while index < len(rest) and rest[index].tag == "RP" and not opens_phrase(rest, index):
        index += 1
    return index


def opens_phrase(rest: Sequence[Word], index: int) -> bool:
    """Whether the particle at ``index`` opens a determined noun phrase ("throw in/RP | the second
    half"): with the object asked for, that phrase is no second object but the particle's, so the
    particle is a preposition and the object goes before it ("threw two touchdowns in the second half")."""
    return index + 1 < len(rest) and rest[index + 1].tag in ("DT", "PRP$") and rest[index].lower in PREPOSITIONS


def _is_stranded(word: Word) -> bool:
    return word.lower in PREPOSITIONS or word.tag in ("IN", "RP", "TO")


def adverbial_slot(clause: Clause, after_verb: bool) -> int:
    """Where an adverbial goes: at the end, or (``after_verb``: a place) right after the verb when
    nothing but prepositional phrases follow it ("occurs | in plant cells")."""
    rest = clause.rest
    if not after_verb:
        return len(rest)
    index = clause.verb_index
    if index >= len(rest):
        return len(rest)
    following = rest[index]
    if following.tag == "VBN" and index + 1 <= len(rest):
        return index + 1  # "is located | in Paris"
    if following.lower in PREPOSITIONS and not (following.lower == "to" and index + 1 < len(rest)
                                                 and is_base_verb(rest[index + 1].lower)):
        return index
    return len(rest)


def subject_agrees(verb: str, subject: str) -> str:
    """The finite ``verb`` agreeing with a new ``subject`` (the answer): be, have and present forms."""
    lowered = verb.lower()
    tail = split_tail(subject)
    subject = tail.core if tail else subject  # "hydrogen, which is the lightest element, has"
    plural = subject.lower() in ("i", "we", "you", "they") or answer_is_plural(subject)
    if lowered in ("is", "are", "am"):
        return "am" if subject.lower() == "i" else "are" if plural else "is"
    if lowered in ("was", "were"):
        return "were" if plural and subject.lower() != "i" else "was"
    if lowered in MODALS or lowered in COPULAS:
        return verb
    if lowered in ("has", "have"):
        return "have" if plural else "has"
    if lowered in ("does", "do"):
        return "do" if plural else "does"
    present = (inflect(lowered, "VBZ"), inflect(lowered, "VBP"))
    if lowered not in present or "VERB" not in lemmas_of(lowered):
        return verb
    return inflect(lowered, "VBP" if plural else "VBZ")


def embedded_question(frame: Frame) -> Optional[str]:
    """The question as an embedded clause, in declarative order: "when the new episode comes
    on", "who sings X", "whether penguins can fly" (for "It is unknown ...")."""
    wh_phrase = join(frame.preposition, frame.wh, render(frame.phrase))
    if frame.wh and frame.wh_is_subject:
        return join(render(frame.lead), wh_phrase, render(frame.rest))
    clause = declarative(frame)
    if clause is None:
        return None
    return join(render(frame.lead), wh_phrase if frame.wh else "whether", clause.text())
