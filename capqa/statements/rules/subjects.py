"""Where the subject of a copular question ends.

After a fronted copula the parse of a small model is least reliable (questions are rare in its
training data), so two readings are combined:

- a wh-question's subject runs to the end, unless the question ends in a predicate: a
  participle or a stranded preposition with what leads up to it ("is | also known as", "was |
  designed by", "is | a type of", "is | made of"), or an adjective after a noun ("is | green");
- a yes/no question needs a predicate: the subtree of the word the parse makes the subject,
  corrected where questions mislead the parser (a participle after a noun starts the
  predicate), else the word-level split of ``clauses.split_subject``.
"""

from typing import Dict, List, Optional, Sequence, Tuple

from capqa.statements.rules.lexicon import (AUXILIARIES, COMPARATIVE_TAGS, FINITE_TAGS, PREDICATE_ADJECTIVES,
                                            PREDICATE_NOUNS, PREPOSITIONS, SUBJECT_DEPS)
from capqa.statements.rules.morphology import is_adjective, is_adverb, is_participle, looks_adjective
from capqa.statements.rules.parser import Word
from capqa.statements.rules.surface import split_noun_predicate, split_subject

_RELATIVE_WORDS = frozenset(("where", "that", "which", "who", "whom", "when", "whose"))
# A clause after the subject that is not part of it: "Mozart | when he died".
_SUBORDINATORS = frozenset("when while after before if because since until once".split())
_HEAD_TAGS = frozenset(("NN", "NNS", "NNP", "NNPS", "CD", "-RRB-", "PRP"))
Split = Tuple[Tuple[Word, ...], Tuple[Word, ...]]


def copula_subject(words: Sequence[Word], need_predicate: str) -> Split:
    """(subject, predicate) of the words after a fronted copula (see the module docstring);
    ``need_predicate``: "predicate" (a yes/no question), "adverbial" (where / when / why / how:
    the parse's predicate if it sees one) or "" (an identity question)."""
    words = tuple(words)
    if len(words) > 2 and words[0].tag in ("PRP", "NNP") and words[1].text == "," and words[2].tag == "IN":
        return words[:1], words[1:]  # "is he/Bill, in a direct line, from X": the phrase set off is the predicate's
    if need_predicate == "adverbial":
        subject, predicate = _parsed_subject(words)
        if len(predicate) > 1 and predicate[0].tag in ("NN", "NNS") and predicate[1].lower in ("not", "n't") and (
                subject and subject[-1].tag in ("NN", "NNP")):
            # "Why is the bread | dough | not rising?": a compound's head before "not" is the subject's
            subject, predicate = subject + predicate[:1], predicate[1:]
        if _contact_clause(predicate):
            return words, ()  # "when was the last year | the eagles went to the superbowl": one subject
        participle = _passive_participle(words) if not predicate else None
        if participle is not None:
            return words[:participle], words[participle:]
        if predicate and predicate[0].tag not in ("CC", ",", "MD") and not predicate[0].text.startswith(("'", "’")) and (
                len(subject) < len(words)):
            return subject, predicate  # not "you | 'll never walk alone": a title that is a clause
    if need_predicate != "predicate":
        clause = _subordinate_start(words)
        start = predicate_suffix_start(words[:clause])
        if start is None:
            start = _named_start(words[:clause])
        if 1 < start < len(words) and words[start - 1].tag == "JJ" and all(word.tag in ("IN", "RP", "TO") for word in
                                                                            words[start:]):
            start -= 1  # "What are the broadcasts | compliant with?": the adjective is the predicate's
        return words[:start], words[start:]
    subject, predicate = _parsed_subject(words)
    if not predicate:
        subject, predicate = _word_split(words)
    while len(subject) > 1 and predicate and subject[-1].tag == "RB" and subject[-1].lower not in ("not", "n't"):
        subject, predicate = subject[:-1], subject[-1:] + predicate  # "motorized ambulances | first used"
    if len(subject) > 1 and subject[-1].tag in COMPARATIVE_TAGS and subject[-1].head < subject[-1].i:
        # "was the attendance | higher in 2010 than in 2011": a comparative after its noun, which the
        # parse of a lower-case question hangs on it, is the predicate
        subject, predicate = subject[:-1], subject[-1:] + predicate
    return subject, predicate


def _passive_participle(words: Sequence[Word]) -> Optional[int]:
    """Where the passive participle that the parse hung on the subject starts, with the adverbs
    before it ("when were birth certificates | first issued in the united states"): the last
    verb of the words, after a noun."""
    verbs = [index for index, word in enumerate(words) if word.tag.startswith("VB") or word.tag == "MD"]
    if not verbs or words[verbs[-1]].tag != "VBN" or words[verbs[-1]].dep != "acl" or len(verbs) > 1:
        return None
    index = verbs[-1]
    while index > 1 and words[index - 1].tag == "RB" and words[index - 1].lower not in ("not", "n't"):
        index -= 1
    return index if index > 0 and words[index - 1].tag in _HEAD_TAGS else None


def _contact_clause(words: Sequence[Word]) -> bool:
    """Whether the words are a relative clause without its pronoun: a subject of its own and a
    finite verb ("the eagles went to the superbowl" after "the last year")."""
    if not words or words[0].tag not in ("DT", "PRP", "PRP$", "NNP", "NNPS"):
        return False
    subject = next((index for index, word in enumerate(words) if word.dep in SUBJECT_DEPS), None)
    return subject is not None and any(word.tag in ("VBD", "VBZ", "VBP") for word in words[subject + 1:])


def _subordinate_start(words: Sequence[Word]) -> int:
    """Where a subordinate clause after the subject starts ("Mozart | when he died"): not inside a
    relative clause ("the ship that sank in 1912 after hitting an iceberg")."""
    for index in range(1, len(words)):
        lowered = words[index].lower
        if lowered in _RELATIVE_WORDS - {"when"}:
            return len(words)
        if lowered in _SUBORDINATORS and any(word.tag in FINITE_TAGS for word in words[index + 1:]):
            return index  # "when he died"; "after the D-Day landings" is a phrase of the subject
        if lowered in _SUBORDINATORS and 0 < len(words) - index - 1 <= 2 and words[-1].tag in ("JJ", "VBN"):
            return index  # "bananas | when ripe", "pasta | when cooked"
    return len(words)


def _named_start(words: Sequence[Word]) -> int:
    """Where "called / known as / named / termed" and a phrase after it start ("H2SO4 | commonly
    called in British English"); the end of the words without one."""
    for index in range(1, len(words) - 1):
        if words[index].lower in ("called", "known", "named", "termed") and words[index + 1].lower in (
                "in", "by", "among", "as"):
            while index > 1 and is_adverb(words[index - 1].lower) or words[index - 1].lower == "also":
                index -= 1
            return index
    return len(words)


def predicate_suffix_start(words: Sequence[Word]) -> "int | None":
    """Where a question-final predicate starts ("table salt | chemically known as"), or None."""
    if len(words) < 2:
        return None
    last = words[-1]
    if last.text.islower() and looks_adjective(last.text, last.tag):
        index = len(words) - 1
        while index > 1 and words[index - 1].tag in ("RB", "RBR") and words[index - 1].lower not in ("not", "n't"):
            index -= 1  # "the Dead Sea | so salty"
        if words[index - 1].tag in _HEAD_TAGS or words[index - 1].text[:1].isupper():
            return index  # "the Statue of Liberty | green"
    lowered = [word.lower for word in words]
    if not (lowered[-1] in PREPOSITIONS or is_participle(lowered[-1])):
        return None
    if lowered[-2] in ("have", "has", "had", "be", "been", "being", "to"):
        return None  # "the largest animal ever to have lived": the participle is the infinitive's
    if any(word in _RELATIVE_WORDS for word in lowered[1:-1]) and (
            lowered[-2] in AUXILIARIES or not is_participle(lowered[-1])):
        return None  # the end of a relative clause: "the city where X is located", "the cat that ... all about"
    index = len(words) - 1
    while index > 1:
        previous = lowered[index - 1]
        if (previous in PREPOSITIONS and previous not in ("into", "between", "through")
                or previous in PREDICATE_ADJECTIVES or previous in PREDICATE_NOUNS
                or previous in ("a", "an", "also", "first", "last", "originally", "initially", "finally")
                or is_adverb(previous)
                or is_participle(previous) and lowered[index] in PREPOSITIONS):
            index -= 1
            continue
        break
    return index


def _parsed_subject(words: Tuple[Word, ...]) -> Split:
    for position, word in enumerate(words):
        if word.dep in SUBJECT_DEPS:
            left, right = subtree_edges(words, position)
            if left == 0:
                subject, predicate = _with_relative_verb(words[:right + 1], words[right + 1:])
                subject, predicate = _trim(subject, predicate)
                return _with_conjuncts(subject, predicate)
            break
    return _trim(words, ())


def _with_relative_verb(subject: Tuple[Word, ...], predicate: Tuple[Word, ...]) -> Split:
    """"the university where Einstein | studied founded" -> "the university where Einstein
    studied | founded": a relative clause in the subject keeps its verb."""
    last = max((index for index, word in enumerate(subject) if word.lower in _RELATIVE_WORDS), default=None)
    if last is None or any(word.tag.startswith("VB") or word.tag == "MD" for word in subject[last + 1:]):
        return subject, predicate
    if len(predicate) > 1 and predicate[0].tag.startswith("VB"):
        return subject + predicate[:1], predicate[1:]
    return subject, predicate


def _with_conjuncts(subject: Tuple[Word, ...], predicate: Tuple[Word, ...]) -> Split:
    """"Scott Derrickson | and Ed Wood of ..." -> "Scott Derrickson and Ed Wood | of ...": a
    conjunct the parse left out of the subject."""
    while len(predicate) > 1 and predicate[0].tag == "CC" and predicate[1].tag in ("NNP", "NNPS", "DT", "NN", "NNS"):
        end = 2
        while end < len(predicate) - 1 and predicate[end].tag in ("NNP", "NNPS", "NN", "NNS", "POS"):
            end += 1  # never the last word: "both Beethoven and Mozart | Austrian"
        subject, predicate = subject + predicate[:end], predicate[end:]
    return subject, predicate


def _trim(subject: Tuple[Word, ...], predicate: Tuple[Word, ...]) -> Split:
    """A participle after a noun ends the subject ("Albert Einstein | born in Germany"), unless a
    relative word comes before it; so does a final adjective ("the tomato | ripe")."""
    relative = False
    for index in range(1, len(subject)):
        word = subject[index]
        relative = relative or word.lower in _RELATIVE_WORDS
        if relative:
            continue
        if word.tag == "VBN" and is_participle(word.lower) and subject[index - 1].tag in _HEAD_TAGS:
            return subject[:index], subject[index:] + predicate
        if word.lower in ("not", "n't", "no", "never") and subject[index - 1].tag in _HEAD_TAGS and index + 1 < len(subject):
            return subject[:index], subject[index:] + predicate  # "Pluto | no longer considered"
    if len(subject) > 1 and not predicate and is_adjective(subject[-1].lower) and subject[-2].tag in _HEAD_TAGS:
        return subject[:-1], subject[-1:]
    return subject, predicate


def _word_split(words: Tuple[Word, ...]) -> Split:
    """The word-level split: "Ottawa | the capital", "whales | mammals", "the Earth | round"."""
    texts = [word.text for word in words]
    subject, predicate = split_subject(texts)
    if not predicate:
        subject, predicate = split_noun_predicate(texts)
    return _with_conjuncts(*_with_relative_verb(words[:len(subject)], words[len(subject):]))


def subtree_edges(words: Sequence[Word], position: int) -> Tuple[int, int]:
    """(leftmost, rightmost) positions in ``words`` of the subtree of ``words[position]``, within
    ``words`` (a run of one parse, in order)."""
    where = {word.i: index for index, word in enumerate(words)}
    children: Dict[int, List[int]] = {}
    for index, word in enumerate(words):
        head = where.get(word.head)
        if head is not None and head != index:
            children.setdefault(head, []).append(index)
    inside, stack = {position}, [position]
    while stack:
        for child in children.get(stack.pop(), ()):
            if child not in inside:
                inside.add(child)
                stack.append(child)
    return min(inside), max(inside)


def words_after_adverbs(rest: Sequence[Word]) -> Optional[Word]:
    """The word after the adverbs that open ``rest`` ("most likely | cause"), None without any."""
    index = next((i for i, word in enumerate(rest[:-1])
                  if word.tag not in ("RB", "RBS") or word.lower in ("not", "n't", "never")), max(len(rest) - 1, 0))
    return rest[index] if index else None
