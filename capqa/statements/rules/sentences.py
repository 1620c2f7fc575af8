"""Answers that are sentences, premise denials, wh-phrases in situ, and negating a declarative.

- ``full_sentence``: an answer that is a full clause (a subject and a finite verb, by its parse)
  is kept as it is, its opening pronoun replaced by the question's referent ("It was written by
  X in 1967." answering "Who wrote Y?" -> "Y was written by X in 1967."); "No, X did not ..." to
  a wh-question keeps "X did not ...".
- ``denial``: "It isn't.", "They don't; ..." answering a wh-question denies its premise: the
  question's clause, negated ("Why is the Wall visible from space?" -> "The Wall is not visible
  from space."), then what the answer goes on to say.
- ``in_situ``: "The director of Jaws was born in which city?" -> "... born in Cincinnati".
- ``negated_clause``: a declarative with "not" after its auxiliary, or do-support.
"""

import re
from typing import List, Optional, Sequence, Tuple

from capqa.statements.rules.analysis import Frame, agrees_as_verb, render
from capqa.statements.rules.contractions import WH_WORDS, expanded
from capqa.statements.rules.declarative import join, negative
from capqa.statements.rules.judged import predicate_verdict
from capqa.statements.rules.lexicon import (AUXILIARIES, COPULAS, DEMONSTRATIVES, DETERMINERS, FINITE_TAGS, MODALS,
                                            NEGATIONS, NUMBER_WORDS, OBJECT_PRONOUNS, PRONOUNS, RELATIVE_PRONOUNS,
                                            VERB_PREFIXES, strip_trailing)
from capqa.statements.rules.morphology import (inflect, is_adjective, is_base_verb, is_finite_verb, lemmas_of,
                                               plural_phrase, with_article)
from capqa.statements.rules.parser import Parse, Word, parse
from capqa.statements.rules.polar import affirmed, polarity
from capqa.statements.rules.subjects import subtree_edges
from capqa.statements.rules.wh_phrase import missing_noun

_CONTRACTED = re.compile(r"^([’']s|[’']re|[’']ll|[’']ve|[’']d)\b", re.IGNORECASE)
_CONTRACTIONS = {"'s": "is", "'re": "are", "'ll": "will", "'ve": "have", "'d": "would"}
_TOPIC = re.compile(r"\b(?:about|regarding|concerning) (.+)$", re.IGNORECASE)
_QUOTES = frozenset(('"', "“", "”", "'", "‘", "’"))
_SUBJECT_PRONOUNS = {"it": False, "they": True, "he": False, "she": False}
# A referent is a noun phrase of its own, not another pronoun or a relative clause's opening.
_NOT_REFERENTS = PRONOUNS | OBJECT_PRONOUNS | RELATIVE_PRONOUNS
_MAX_REFERENT_WORDS = 12
_DENIAL = re.compile(r"^(?:it|they|he|she|this|that|there)\s+(?:is|are|was|were|does|do|did|has|have|had|can|could|"
                     r"will|would)(?:\s+not|n[’']t)\b(?:\s*+[.,;:!-][\s.,;:!-]*+(?P<rest>.*)|\s*+)$", re.IGNORECASE)
# (a denial ends at its punctuation: "It isn't clear why ..." denies nothing)
# The whole of a denial, before its reason: "It hasn't; ...", "You can't.", "We don't", "That never happened."
_DENIAL_HEAD = re.compile(r"^(?:it|they|he|she|this|that|we|you|i)\s+(?:(?P<auxiliary>is|are|am|was|were|does|do|did|has|"
                          r"have|had|can|could|will|would|should|may|might|must|ca(?=n[’']t)|wo(?=n[’']t))(?:\s+not|not|"
                          r"n[’']t)|never\s+(?:is|are|was|were|does|do|did|has|have|had|happened|existed))"
                          # an adverb of the denial's own ("it hasn't officially") goes with the negated clause
                          r"(?:\s++(?P<adverb>[a-z]+ly|yet|ever))?(?:\s*+[.,;:!—–-]\s*+(?P<rest>\S.*))?$", re.IGNORECASE)
_SHORT_MODALS = {"ca": "can", "wo": "will"}
# A denial that says the question's verb again: "I don't eat; I'm an AI." to "What do you eat ...?"
_DENIAL_VERB = re.compile(r"^(?:it|they|he|she|this|that|we|you|i)\s+(?P<auxiliary>does|do|did|can|could|will|would|ca(?=n[’']t)|"
                          r"wo(?=n[’']t))(?:\s+not|not|n[’']t)\s+(?P<verb>[a-z]+)(?:\s+(?:it|them|one|any|anything))?"
                          r"(?:\s*+[.,;:!—–-]\s*+(?P<rest>\S.*))?$", re.IGNORECASE)
_YES_OPENING = re.compile(r"^(?:yes|yeah|yep|sure|of course|certainly)\s*[,.;:!-]\s*(?P<rest>\S.*)$", re.IGNORECASE)
_NO_OPENING = re.compile(r"^(?:no|nope|actually|in fact)\s*[,.;:!-]\s*(?P<rest>\S.*)$", re.IGNORECASE)
_CLAUSE_DEPS = frozenset(("nsubj", "nsubjpass", "expl", "csubj"))
_REASON_WORDS = frozenset(("because", "since", "due", "as", "so"))


_NEGATIVE_OPENING = re.compile(r"^(?:no one|nobody|nothing|none|neither|no)\s", re.IGNORECASE)
_HEAD_WORDS = 16
_MAX_TITLE_WORDS = 8


def sentence_head(text: str) -> str:
    """The first words of a sentence: enough to see its subject and verb, and what is parsed
    of an answer (the parse of a long sentence costs time in proportion to its length)."""
    words = text.split(" ", _HEAD_WORDS)
    return " ".join(words[:_HEAD_WORDS])


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def is_clause(words: Parse) -> bool:
    """Whether a parse is a declarative clause: a finite verb with a subject before it (or, where
    the tagger took the verb for a noun, a noun phrase and a verb form agreeing with it)."""
    root = next((word for word in words if word.dep == "ROOT"), None)
    if root is None:
        return False
    if not (root.tag.startswith("VB") or root.tag == "MD"):
        return _mistagged_verb(words)
    if words[0].lower in WH_WORDS or (words[0].lower in AUXILIARIES and words[0].i == root.i):
        return False
    finite = root.tag in FINITE_TAGS or any(
        word.head == root.i and word.tag in FINITE_TAGS for word in words) or (
        root.tag == "VBN" and not any(word.head == root.i and word.dep in ("aux", "auxpass") for word in words))
    subject = next((word for word in words if word.head == root.i and word.dep in _CLAUSE_DEPS and word.i < root.i), None)
    if not finite or subject is None:
        return False
    left, _ = subtree_edges(words, subject.i - words[0].i)
    # The sentence opens with its subject, or with a phrase set off by a comma ("In 1926, X ...").
    return all(word.tag in ("``", "''", "-LRB-", '"') or word.text in ('"', "“", "'", "(") for word in words[:left]) or (
        words[left - 1].text == ",")


def may_be_sentence(content: str, first: str, wh: bool = False) -> bool:
    """Whether an answer could be a sentence of its own, before it is parsed: three words or
    more, a capital (or a digit) first, no formula, and a word that can be a finite verb."""
    words = content.split()
    if len(words) < 3 or "=" in words[:3]:
        return False  # a formula ("F = ma, where ...") is a noun phrase, whatever its parse
    opening = content.lstrip("\"'“‘(")[:1]
    if not (opening.isupper() or opening.isdigit() or first.lstrip("\"'“‘(")[:1].isupper() or (
            wh and _NEGATIVE_OPENING.match(content))):
        return False  # (lower case, to a wh-question, a negative subject opens one: "no one has ever climbed it")
    if len(words) <= _MAX_TITLE_WORDS and all(word[:1].isupper() for word in words) and first.rstrip()[-1:].isalnum():
        return False  # "You Only Live Twice": every word capitalised and no full stop, a title
    return any(is_finite_verb(_verb_part(word.strip(",;:").lower())) for word in words[1:])


def _verb_part(word: str) -> str:
    """A prefixed verb's verb ("co-founded" -> "founded"); any other word as it is."""
    prefix, hyphen, verb = word.partition("-")
    return verb if hyphen and prefix in VERB_PREFIXES else word


def _sentence_read(content: str, polar: bool) -> str:
    """The answer as ``full_sentence`` reads it: "No, X did not ..." to a wh-question keeps "X did
    not ...", "Yes, X invented it" to "Do you know who ...?" keeps "X invented it"."""
    if not polar:
        opening = _NO_OPENING.match(content) or _YES_OPENING.match(content)
        if opening and len(opening.group("rest").split()) >= 3:
            return _capitalised(opening.group("rest"))
    return content


def sentence_texts(content: str, first: str, polar: bool, wh: bool = False) -> List[str]:
    """The texts ``full_sentence`` parses for the answer ``content`` (its first claim ``first`` as
    written) to a yes/no question (``polar``: the question's frame has no wh-word) or another."""
    content = _sentence_read(content, polar)
    if not may_be_sentence(content, first, wh) or (polar and polarity(content)):
        return []
    return [_verbs_unprefixed(sentence_head(content))]


_PREFIXED_WORD = re.compile(r"(?<![\w-])([a-z]{2,4})-([a-z]+)(?![\w-])")


def _verbs_unprefixed(text: str) -> str:
    """``text`` to parse with a prefixed verb read as its verb ("Picasso co-founded Cubism" is parsed
    as "Picasso founded Cubism", "was co-written by" as "was written by"; the tagger splits
    "co-founded" and loses the clause's verb)."""
    if "-" not in text:
        return text
    return _PREFIXED_WORD.sub(lambda match: match.group(2) if match.group(1) in VERB_PREFIXES and "VERB" in lemmas_of(
        match.group(2)) else match.group(0), text)


def full_sentence(frame: Optional[Frame], question: Parse, content: str, first: str) -> Optional[str]:
    """The answer's own sentence when it is a full clause (see the module docstring), or None."""
    polar = frame is not None and not frame.wh
    texts = sentence_texts(content, first, polar, wh=frame is not None and bool(frame.wh))
    if not texts or (polar and predicate_verdict(content, {word.lower for word in frame.subject + frame.rest})):
        return None  # "It is not plausible because ..." answers "Is it plausible that X?": the frame says it
    corrects = bool(_NO_OPENING.match(content))  # "Actually, Napoleon was not short": a premise corrected
    content = _sentence_read(content, polar)
    words = content.split()
    answer_words = parse(texts[0])
    if not is_clause(answer_words) and not (answer_words[0].tag not in ("VBG", "VBN", "IN", "TO")
                                            and any(word.tag.startswith("VB") for word in answer_words)
                                            and _long_sentence(words, first)):
        return None
    negated = any(word.lower in NEGATIONS or word.lower in ("n't", "never") for word in answer_words)
    if frame is not None and frame.wh == "why" and not (_REASON_WORDS & {word.lower for word in answer_words}) and not (
            corrects and negated):
        return None  # "It hit an iceberg." is the reason: the question's clause + "because ..."
    return _resolved(content, answer_words, frame, question)


# A short head, a dash set off by spaces, and what follows it: "Jurassic Park — Neeson starred in ..."
_DASHED = re.compile(r"^(?P<head>[^—–\s][^—–]{0,79}?)\s++(?:—|–|--)\s++(?P<clause>\S.*)$")
_MAX_DASHED_HEAD_WORDS = 8
_NAMING_TAGS = frozenset(("NN", "NNS", "NNP", "NNPS", "CD"))


def _dashed_parts(content: str) -> Optional[Tuple[str, str]]:
    match = _DASHED.match(content)
    if not match or len(match.group("head").split()) > _MAX_DASHED_HEAD_WORDS:
        return None
    return match.group("head"), match.group("clause")


def dashed_head_texts(content: str) -> List[str]:
    """The texts ``dashed_head`` parses."""
    parts = _dashed_parts(content)
    return [parts[0], sentence_head(parts[1])] if parts else []


def dashed_head(content: str) -> Optional[Tuple[str, str]]:
    """"Jurassic Park — Neeson starred in Schindler's List that year." -> ("Jurassic Park", the
    clause): a noun phrase set off by a dash before a clause of its own is the answer, which the
    question's frame states, and the clause a claim of its own. None when the head has a verb (a
    sentence that goes on after a dash) or what follows the dash is no clause (an apposition:
    "Canberra — the capital")."""
    parts = _dashed_parts(content)
    if not parts:
        return None
    head, clause = parts
    head_words = parse(head)
    if any(word.tag.startswith("VB") or word.tag == "MD" for word in head_words) or not any(
            word.tag in _NAMING_TAGS for word in head_words):
        return None  # "Never — the costs outpace ...": no noun phrase to put in the frame
    return (head, clause) if is_clause(parse(sentence_head(clause))) else None


_COUNTED_LIST = re.compile(r"^(?P<count>\w+)\s*+:\s++(?P<items>\S.*)$")


def counted_list(frame: Optional[Frame], content: str) -> Optional[Tuple[str, str]]:
    """"Four: Generations, First Contact, ..." answering "How many N ...?" -> ("Four", the items):
    the count is the answer the frame states ("Four N ..."), the items follow it after its colon."""
    match = _COUNTED_LIST.match(content)
    if not match or frame is None or frame.wh != "how" or not frame.phrase or frame.phrase[0].lower not in (
            "many", "much"):
        return None
    count = match.group("count")
    return (count, match.group("items")) if count.isdigit() or count.lower() in NUMBER_WORDS else None


def restates_question(question: Parse, content: str, first: str) -> bool:
    """Whether the answer is a sentence that says the question's frame over again ("In Polish the
    Saxon Garden is called Ogród Saski." to "What is the Saxon Garden in Polish?"): a sentence by
    its words (``may_be_sentence``) holding nearly all of the question's content words (nouns,
    adjectives, numbers, main verbs; three at least). Such an answer is the statement as it
    stands: put into the question's frame it says the frame twice, and the small parser often
    misses its clause (a long fronted adverbial, no comma after it)."""
    if not may_be_sentence(content, first):
        return False
    wanted = [_lemmas(word.lower) for word in question if word.tag.startswith(_CONTENT_TAGS)
              and word.lower not in AUXILIARIES and word.lower not in WH_WORDS and word.text[:1].isalnum()]
    if len(wanted) < _MIN_RESTATED_WORDS:
        return False
    have = set().union(*(_lemmas(word) for word in _WORD.findall(content.lower())))
    return sum(bool(lemmas & have) for lemmas in wanted) >= _RESTATED_SHARE * len(wanted)


_CONTENT_TAGS = ("NN", "JJ", "VB", "CD", "FW")
_MIN_RESTATED_WORDS = 3
_RESTATED_SHARE = 0.8
_WORD = re.compile(r"\w+")


def _lemmas(word: str) -> frozenset:
    """The word and its lemmas as any part of speech ("starred" -> star), to match a question's
    word with the answer's form of it."""
    return frozenset((word, *(lemma for lemmas in lemmas_of(word).values() for lemma in lemmas)))


def _mistagged_verb(words: Parse) -> bool:
    """"Limburger cheese originates from Belgium": a noun phrase, then a word the lexicon knows
    as a finite verb agreeing with it, then a preposition or a determiner."""
    for index in range(1, len(words) - 1):
        word, head, following = words[index], words[index - 1], words[index + 1]
        if head.tag not in ("NN", "NNS", "NNP", "NNPS") or following.tag not in ("IN", "DT", "TO", "PRP$", "CD"):
            continue
        if word.tag in ("NN", "NNS") and agrees_as_verb(word, plural=plural_phrase(head.text)) and (
                is_finite_verb(word.lower) and word.lower.endswith(("s", "ed"))):
            return True
    return False


def _long_sentence(words: List[str], first: str) -> bool:
    """A long capitalised sentence with a finite verb after its first word, for when the parse
    misses the verb ("Chemical pollutants that contaminate ... accumulate in animal tissues.")."""
    if len(words) < 8 or strip_trailing(first) == first.rstrip() or first.rstrip()[-1:] not in ".!":
        return False
    relative, previous = False, words[0]
    for word in words[1:]:
        if previous.endswith(","):
            return False  # the verb must be the first clause's: "The Nile, although X suggest ..." is none
        if word.lower() in ("which", "who", "whom", "whose") and previous.endswith(","):
            relative = True  # ", which hunts prey": the relative clause's verb is not the sentence's
        elif relative and word.endswith(","):
            relative = False
            previous = word
            continue
        if not relative and is_finite_verb(word.strip(",;:").lower()):
            return True
        previous = word
    return False


def _resolved(content: str, answer_words: Parse, frame: Optional[Frame], question: Parse) -> str:
    """``content`` with an opening subject pronoun replaced by the question's noun phrase that it
    refers to (the subject, else the first noun phrase after the verb)."""
    first = answer_words[0]
    if first.lower in DEMONSTRATIVES and first.dep in _CLAUSE_DEPS and len(answer_words) > 2:
        referent = _demonstrative_referent(frame, answer_words, first)
        return referent + content[len(first.text):] if referent else content
    if first.lower not in _SUBJECT_PRONOUNS or first.dep not in _CLAUSE_DEPS or len(answer_words) < 2:
        resolved = _object_resolved(content, answer_words, question)
        return resolved if resolved != content else _place_resolved(content, answer_words, question)
    referent = _possessor(frame, answer_words, first) or _referent(
        frame, question, _SUBJECT_PRONOUNS[first.lower], first.lower in ("he", "she")) or (
        _verb_referent(answer_words, first, question)) or _sentence_subject(frame, question, first)
    if not referent:
        return content
    rest = _place_resolved(content, answer_words, question)[len(first.text):]
    contraction = _CONTRACTED.match(rest)
    if contraction:  # "It's located in Peru" -> "Machu Picchu is located in Peru"
        rest = " " + _CONTRACTIONS[contraction.group(1).replace("’", "'").lower()] + rest[contraction.end():]
    return referent + rest


def _place_resolved(content: str, answer_words: Parse, question: Parse) -> str:
    """``content`` with its locative "there" replaced by the question's one named place ("No single
    party dominates there." to "What party is strongest in Melbourne's suburbs?" -> "... dominates
    in Melbourne's suburbs."): an adverb "there", or a "there" after its clause's subject, never
    the expletive that opens a clause ("There is no party")."""
    there = next((word for word in answer_words if word.lower == "there" and _locative_there(answer_words, word)), None)
    if there is None:
        return content
    place = _question_place(question)
    start = len("".join(word.text + (" " if word.space else "") for word in answer_words[:there.i - answer_words[0].i]))
    if not place or content[start:start + len(there.text)] != there.text:
        return content
    return content[:start] + place + content[start + len(there.text):]


def _locative_there(answer_words: Parse, there: Word) -> bool:
    if there.dep == "advmod":
        return True
    return there.dep == "expl" and any(word.head == there.head and word.dep in ("nsubj", "nsubjpass")
                                       and word.i < there.i for word in answer_words)


_PLACE_PREPOSITIONS = frozenset("in at on near inside throughout across".split())
_LIST_TAGS = frozenset(("NNP", "NNPS", "DT", "CC", ",", "HYPH"))


def _question_place(question: Parse) -> str:
    """The question's one prepositional phrase of place that names it ("in Melbourne's working class
    suburbs"), in its main clause (not in a clause of its own), with a list of names that the parse
    cut from it kept ("in Italy, the Byzantine Empire and Armenia"); "" when there is none, or more
    than one."""
    places = []
    for position, word in enumerate(question):
        if word.lower not in _PLACE_PREPOSITIONS or word.dep != "prep" or _in_own_clause(question, word):
            continue
        left, right = subtree_edges(question, position)
        phrase = question[left:right + 1]
        if any(item.lower in WH_WORDS for item in phrase) or not any(item.tag in ("NNP", "NNPS") for item in phrase):
            continue
        end = len(question)
        while end and not question[end - 1].text[:1].isalnum():
            end -= 1
        if right + 1 < end and all(item.tag in _LIST_TAGS for item in question[right + 1:end]):
            right = end - 1
        places.append(render(question[left:right + 1]))
    return places[0] if len(places) == 1 else ""


_OWN_CLAUSES = frozenset(("advcl", "relcl", "acl", "ccomp", "xcomp", "pcomp", "csubj"))


def _in_own_clause(question: Parse, word: Word) -> bool:
    """Whether ``word`` hangs, through its heads, from a subordinate clause of the question."""
    where = {item.i: item for item in question}
    seen = set()
    while word.head != word.i and word.i not in seen:
        seen.add(word.i)
        if word.dep in _OWN_CLAUSES:
            return True
        word = where.get(word.head, word)
    return False


def _demonstrative_referent(frame: Optional[Frame], answer_words: Parse, pronoun: Word) -> str:
    """The question's subject that an answer's opening "This" / "That" stands for when the answer
    names or classifies it ("This is called punning." to "What is a form of word play that ...?"
    -> "A form of word play that ... is called punning."): a noun phrase after the verb, never an
    adjective ("That is correct" judges the question, it does not answer it), only to a question
    that is its copula and subject, and never for "why" or "how" (there "This is because ..."
    stands for the question's whole clause)."""
    if frame is None or not frame.subject or frame.wh in ("why", "how") or frame.wh_is_subject or frame.rest:
        return ""  # only "What is X?": in "What do the Inuit call their houses?" "These" are the houses
    verb = next((word for word in answer_words if word.i == pronoun.head), None)
    if verb is None or not verb.tag.startswith("VB") or not _names_it(answer_words, verb, pronoun):
        return ""
    if frame.subject[0].lower in PRONOUNS or any(word.lower in WH_WORDS for word in frame.subject):
        return ""  # a pronoun is no referent; a relative clause ("a form of word play that ...") is part of one
    subject = render(frame.subject)
    return subject if _parsed_plural(frame.subject) == (pronoun.lower in ("these", "those")) else ""


def _names_it(answer_words: Parse, verb: Word, pronoun: Word) -> bool:
    """Whether the demonstrative's clause names what it stands for: a passive of naming with its
    name ("This is called punning", "These are known as igneous rocks") or a name or number after
    the copula ("That is Paris"), not a judgement of the question ("That is a good question")."""
    children = [word for word in answer_words if word.head == verb.i and word.i != verb.i]
    if pronoun.dep == "nsubjpass":
        return any(word.dep in ("oprd", "xcomp") or (word.dep == "prep" and word.lower == "as") for word in children)
    return any(word.dep == "attr" and word.tag in ("NNP", "NNPS", "CD") for word in children)


def _parsed_plural(phrase: Sequence[Word]) -> bool:
    """Whether a noun phrase of the question is plural, by the lexicon or by its head's tag in the
    parse ("Huguenots" is a plural noun though the lexicon reads a capitalised word as a name)."""
    inside = {word.i for word in phrase}
    head = next((word for word in phrase if word.head not in inside or word.head == word.i), None)
    return plural_phrase(render(phrase)) or (head is not None and head.tag in ("NNS", "NNPS"))


def _object_resolved(content: str, answer_words: Parse, question: Parse) -> str:
    """``content`` with the object pronoun of its main verb replaced by the question's noun phrase
    in that role ("Polonia Warsaw won it in 2000." to "Who won the Ekstraklasa Championship in
    2000?" -> "... won the Ekstraklasa Championship in 2000."): the pronoun's referent is lost once
    the statement stands without the question."""
    root = next((word for word in answer_words if word.dep == "ROOT"), None)
    pronoun = next((word for word in answer_words if root is not None and word.head == root.i and word.dep == "dobj"
                    and word.lower in OBJECT_PRONOUNS), None)
    if pronoun is None:
        return content
    referent = _verb_referent(answer_words, pronoun, question)
    if not referent:
        return content
    start = len("".join(word.text + (" " if word.space else "") for word in answer_words[:pronoun.i - answer_words[0].i]))
    if content[start:start + len(pronoun.text)] != pronoun.text:
        return content  # the parse's text is not the content's prefix: leave it as written
    return content[:start] + referent + content[start + len(pronoun.text):]


def _verb_referent(answer_words: Parse, pronoun: Word, question: Parse) -> str:
    """The question's noun phrase that ``pronoun`` (a subject or object pronoun of the answer)
    stands for: the phrase in the same role at the same verb in the question ("It flows into the
    Black Sea." to "The river Danube flows into which sea?"; "nominated her" to "... was Annie
    Caputo nominated by ...": an active object is a passive subject), agreeing with the pronoun in
    number (and a name for "he", "she"); "" when the question has no such phrase, or it holds a
    wh-word or another pronoun."""
    offset = answer_words[0].i
    verb = answer_words[pronoun.head - offset] if 0 <= pronoun.head - offset < len(answer_words) else None
    if verb is None or not verb.tag.startswith("VB"):
        return ""
    role = _role(pronoun.dep)
    lemma = _verb_lemma(verb.lower)
    if role is None or not question:
        return ""
    start = question[0].i
    for candidate in question:
        if not candidate.tag.startswith("VB") or _verb_lemma(candidate.lower) != lemma:
            continue
        for child in question:
            if child.head != candidate.i or child.i == candidate.i or _role(child.dep) != role:
                continue
            left, right = subtree_edges(question, child.i - start)
            phrase = question[left:right + 1]
            if right - left >= _MAX_REFERENT_WORDS or any(
                    word.lower in WH_WORDS or word.lower in _NOT_REFERENTS for word in phrase):
                return ""
            text = render(phrase)
            plural = pronoun.lower in ("they", "them")
            if pronoun.lower in ("he", "she", "him", "her"):
                lower_case = all(word.text == word.lower for word in question)
                return text if (text[:1].isupper() or lower_case) and not plural_phrase(text) else ""
            return text if plural_phrase(text) == plural else ""
    return ""


def _sentence_subject(frame: Optional[Frame], question: Parse, pronoun: Word) -> str:
    """The subject of a question that is a sentence with its wh-phrase in situ, for an answer's "it"
    or "they" that agrees with it ("Absolute zero is a temperature defined as 0 on what scale?" +
    "It is defined as 0 on the Kelvin scale." -> "Absolute zero is defined ..."); "" for a question
    in wh-order (its frame has a subject) or a subject that is a pronoun or holds a wh-word."""
    if (frame is not None and frame.subject) or pronoun.lower not in ("it", "they") or not question:
        return ""
    start = question[0].i
    root = next((word for word in question if word.dep == "ROOT"), None)
    subject = next((word for word in question if root is not None and word.head == root.i and word.dep in (
        "nsubj", "nsubjpass") and word.i < root.i), None)
    if subject is None:
        return ""
    left, right = subtree_edges(question, subject.i - start)
    phrase = question[left:right + 1]
    if right - left >= _MAX_REFERENT_WORDS or any(word.lower in WH_WORDS or word.lower in _NOT_REFERENTS or (
            word.lower in _SUBJECT_PRONOUNS) for word in phrase):
        return ""
    return render(phrase) if _parsed_plural(phrase) == (pronoun.lower == "they") else ""


def _role(dep: str) -> Optional[str]:
    """The role a dependent plays at its verb, active or passive alike: the doer or the done-to."""
    return "agent" if dep == "nsubj" else "patient" if dep in ("dobj", "nsubjpass") else None


def _verb_lemma(word: str) -> str:
    return lemmas_of(word).get("VERB", (word,))[0]


def _possessor(frame: Optional[Frame], answer_words: Parse, pronoun: Word) -> str:
    """The possessor of the question's subject ("a car" of "a car's speed") when the answer's pronoun
    is the subject of a verb other than a copula: "What is its speed?" + "It travels at 50 km/hr" is
    said of the car, not of its speed ("It is 50 km/hr" is the speed's, ``_referent``); "" otherwise."""
    if frame is None or not frame.subject or pronoun.lower not in ("it", "he", "she", "they"):
        return ""
    owner = next((index for index, word in enumerate(frame.subject) if word.tag == "POS"), None)
    offset = answer_words[0].i
    verb = answer_words[pronoun.head - offset] if 0 <= pronoun.head - offset < len(answer_words) else None
    if owner is None or owner == 0 or verb is None or not verb.tag.startswith("VB") or "be" in lemmas_of(
            verb.lower).get("VERB", ()) or any(word.head == verb.i and word.dep in ("aux", "auxpass") and word.lower in
                                                COPULAS for word in answer_words):
        return ""
    return render(frame.subject[:owner])


def _referent(frame: Optional[Frame], question: Parse, plural: bool, person: bool) -> str:
    candidates: List[str] = []
    if frame is not None and frame.subject:
        subject = render(frame.subject)
        if plural and _parsed_plural(frame.subject) and subject.lower() not in _SUBJECT_PRONOUNS and not any(
                word.tag == "IN" for word in frame.subject):  # a phrase of its own, no adverbial parsed into it
            return subject  # "They eventually joined ..." to "How did Huguenots evolve ...?"
        candidates.append(subject)
    if frame is not None and frame.wh_is_subject:
        topic = _TOPIC.search(render(frame.phrase))
        if topic:
            candidates.append(topic.group(1))  # "Which of the following statements about DNA is true?"
        # not a noun phrase of a clause of its own: "What happens when you mix baking soda and vinegar?" + "They
        # fizz" keeps "they" after the condition that names them (``conditions``)
        candidates += _noun_phrases(frame.rest, question)
    lower_case = bool(question) and all(word.text == word.lower for word in question)
    for candidate in candidates:
        if person and not candidate[:1].isupper() and not lower_case:
            continue  # "he" is a person: a name, unless the whole question is written in lower case
        title = candidate.lstrip("\"“'")[:1].isupper() and not person and not plural
        if (title or plural_phrase(candidate) == plural) and candidate.lower() not in _SUBJECT_PRONOUNS:
            return candidate
    return ""


def _noun_phrases(words: Sequence[Word], question: Parse = ()) -> List[str]:
    """The objects of a verb phrase: a quotation or quoted title first (whatever the parse makes of
    its words: 'wrote "To be or not to be"'), then the subtrees of its direct objects and attributes
    outside quotes (and, given the ``question``'s parse, outside its clauses of their own)."""
    words = tuple(words)
    marks = [position for position, word in enumerate(words) if word.text in _QUOTES]
    spans = [(marks[index], marks[index + 1]) for index in range(0, len(marks) - 1, 2)]
    phrases = [render(words[left:right + 1]) for left, right in spans if right > left + 1]
    for position, word in enumerate(words):
        if any(left < position < right for left, right in spans) or (question and _in_own_clause(question, word)):
            continue
        if word.dep in ("dobj", "attr", "oprd", "dative"):
            left, right = subtree_edges(words, position)
            if 0 < left and right + 1 < len(words) and words[left - 1].text in _QUOTES and words[right + 1].text in _QUOTES:
                left, right = left - 1, right + 1  # a quoted title keeps its quotes
            phrases.append(render(words[left:right + 1]))
    return phrases


def denial(frame: Frame, content: str, whole: bool = False) -> Optional[Tuple[str, List[str]]]:
    """(the question's clause negated, what follows) when the answer denies the premise; ``whole``:
    only a denial that is a clause of its own before its reason ("It hasn't; X is ...", "You
    can't.", "That never happened."), which comes before the answer is read as a sentence (a
    sentence that goes on, "It isn't clear who ...", is no denial)."""
    match = (_DENIAL_HEAD if whole else _DENIAL).match(content) or (_says_verb_again(frame, content) if whole else None)
    if not match or not frame.wh or frame.wh_is_subject or not frame.subject:
        return None
    modal = (match.groupdict().get("auxiliary") or "").lower()
    modal = _SHORT_MODALS.get(modal, modal)
    if whole and modal in MODALS and frame.do_support:
        frame = frame._replace(auxiliary=modal)  # "How do you turn lead into gold?" + "You can't": you cannot
    statement = affirmed(frame._replace(wh="", phrase=(), preposition=""), negative=True)
    if not statement:
        return None
    adverb = match.groupdict().get("adverb")
    if adverb:
        statement = join(statement, adverb.lower())
    rest = strip_trailing(match.group("rest") or "")
    return statement, [rest] if len(rest.split()) >= 2 else []


def _says_verb_again(frame: Frame, content: str) -> Optional[re.Match]:
    """The match of a denial that says the question's own main verb ("I don't eat; ..." to "What do
    you eat for breakfast?"), else None."""
    match = _DENIAL_VERB.match(content)
    if not match:
        return None
    lemma = _verb_lemma(match.group("verb").lower())
    # (by its lemma whatever its tag: the tagger reads "breathe" of "How does a rock breathe?" as a noun)
    return match if any(_verb_lemma(word.lower) == lemma for word in frame.rest) else None


def in_situ(words: Parse, answer: str) -> Optional[str]:
    """A wh-phrase inside a sentence replaced by the answer ("... born in which city?")."""
    words = expanded(words)
    position = next((index for index, word in enumerate(words) if word.lower in ("what", "which", "who", "whom",
                                                                                   "whose", "where", "when", "how")
                     and not (index and word.text[:1].isupper() and words[index - 1].text[-1:] not in _SENTENCE_MARKS)
                     and not _opens_relative(words, index)),
                    None)  # not "... of Who Wants To Be ...": a title
    if position is None or position < 2:
        return None
    end = position + 1
    wh = words[position].lower
    if wh == "whose":  # "... written for whose coronation?" + George VI -> "for George VI's coronation"
        owned = _nouns_end(words, end)
        if owned > end and words[owned - 1].lower in answer.lower().split():
            # "were whose sons?" + "the sons of Noah": the answer names the owned noun with its owner
            return join(render(words[:position]), answer, render(words[owned:]))
        owner = re.sub(r"[’']s?$", "", answer)
        return join(render(words[:position]), f"{owner}'s", render(words[end:]))
    if wh == "how" and end < len(words) and words[end].lower in ("many", "much"):
        # "..., how many calories fulfill X" + "2000 calories": the count replaces "how many" and its noun
        end = _nouns_end(words, end + 1)
        noun_phrase = [word.text for word in words[position + 2:end]]
        return join(render(words[:position]), answer, *missing_noun(answer, noun_phrase, words[position + 1].lower),
                    render(words[end:]))
    if wh in ("what", "which"):
        end = _nouns_end(words, end)
        if end + 1 < len(words) and words[end].lower == "of" and words[end + 1].tag in _NOUN_PHRASE_TAGS:
            end = _nouns_end(words, end + 1)  # "which type of cells": the answer names the cells
    kept = render(words[position + 1:end]) if end > position + 1 and is_adjective(answer) else ""
    if wh == "what" and words[position - 1].lower == "do" and answer.split()[0].lower() != "do" and is_base_verb(
            answer.split()[0].lower()):
        # "Water in a sealed jar might do what ..." + "break it": the answer's verb replaces "do what"
        return join(render(words[:position - 1]), answer, render(words[end:]))
    if wh in ("what", "which") and end > position + 1 and words[position - 1].tag in ("NN", "NNS") and not kept:
        # "was an author which language" + Hindi -> "was an author of the Hindi language"
        return join(render(words[:position]), "of the", answer, render(words[position + 1:end]), render(words[end:]))
    if kept and wh == "which" and answer.split()[0].lower() not in DETERMINERS and (
            words[position - 1].lower not in DETERMINERS):
        # "associated with which system" + "respiratory": the one system asked for is definite
        return join(render(words[:position]), "the", answer, kept, render(words[end:]))
    if words[position - 1].lower in COPULAS and end > position + 1 and not kept:
        # "A spinone is what type of animal?" + dog: a predicate's count noun takes its article ("a dog")
        answer = with_article(answer, render(words[position:end]))
    return join(render(words[:position]), answer, kept, render(words[end:]))


def demonstrative_in_situ(words: Parse, answer: str) -> Optional[str]:
    """A clue or question with no wh-word that asks by a demonstrative, the answer in its place:
    the pronoun's ("... eject lava rather than this?" + "smoke and ash" -> "... rather than smoke
    and ash"), or the phrase's, a description of more than a noun kept after it ("This 'Father of
    Our Country' didn't ..." + George Washington -> "George Washington, the 'Father of Our
    Country', didn't ..."); None when a wh-word asks, or no one demonstrative or more than one does."""
    words = expanded(words)
    if any(word.lower in WH_WORDS for word in words):
        return None
    asking = [index for index, word in enumerate(words) if word.lower in ("this", "these") and (
        word.dep == "det" or word.dep in _DEMONSTRATIVE_ROLES)]
    if len(asking) != 1:
        return None
    position = asking[0]
    word = words[position]
    if word.dep != "det":
        return join(render(words[:position]), answer, render(words[position + 1:]))
    end = _demonstrated_end(words, position)
    if end is None or not any(item.tag in FINITE_TAGS for item in (*words[:position], *words[end:])):
        return None  # no verb outside the phrase: the parse took the clause's verb into it ("rock forms")
    if end - position == 2 and words[position + 1].tag in ("NN", "NNS"):
        return join(render(words[:position]), answer, render(words[end:]))  # "this chemist": the answer names it
    follows = end < len(words) and words[end].tag != "."
    description = f", the {render(words[position + 1:end])}" + ("," if follows else "")
    return join(render(words[:position]), answer + description, render(words[end:]))


# (a subject "This" stands for what was said before it: "This is an example of ...")
def _demonstrated_end(words: Parse, position: int) -> Optional[int]:
    """Where the noun phrase that the demonstrative at ``position`` opens ends: after its quoted
    title ("this 'Father of Our Country'"), its head noun, or the noun after the head's "of" ("this
    type of rock"); None when it opens no noun phrase."""
    if position + 1 < len(words) and words[position + 1].text in _QUOTES:
        close = next((index for index in range(position + 2, len(words)) if words[index].text in _QUOTES), None)
        return close + 1 if close is not None else None
    head = words[position].head - words[0].i
    if not position < head < len(words) or words[head].tag not in _NOUN_TAGS:
        return None
    end = head + 1
    if end < len(words) and words[end].lower == "of":
        complement = next((index for index in range(end + 1, len(words)) if words[index].head == words[end].i and (
            words[index].dep == "pobj")), None)
        end = complement + 1 if complement is not None else end
    return end


_DEMONSTRATIVE_ROLES = frozenset(("dobj", "pobj", "attr", "conj", "appos"))
_NOUN_TAGS = frozenset(("NN", "NNS", "NNP", "NNPS"))


def _opens_relative(words: Parse, index: int) -> bool:
    """Whether the wh-word at ``index`` is a relative pronoun ("the actress | who played ...",
    "the person who made the first what"): after a noun, before a verb; not the word asked."""
    return 0 < index < len(words) - 1 and words[index].lower in ("who", "which", "whom") and words[
        index - 1].tag in ("NN", "NNS", "NNP", "NNPS") and (words[index + 1].tag.startswith("VB") or words[
            index + 1].tag == "MD")


def ends_in_situ(words: Parse) -> bool:
    """Whether a sentence ends with a wh-phrase of its own ("gabbar is back is a remake of which
    telugu movie"): "what" / "which" and the nouns after it end it."""
    words = expanded(words)
    position = next((index for index, word in enumerate(words) if word.lower in ("what", "which")), None)
    return position is not None and position >= 2 and _nouns_end(words, position + 1) == len(words) > position + 1


_SENTENCE_MARKS = frozenset((",", ".", ";", ":", "!", "?"))
_NOUN_PHRASE_TAGS = frozenset(("JJ", "NN", "NNS", "NNP", "NNPS", "HYPH", "CD"))


def _nouns_end(words: Sequence[Word], end: int) -> int:
    while end < len(words) and (words[end].tag in _NOUN_PHRASE_TAGS or _joins_nouns(words, end)):
        end += 1
    return end


def _joins_nouns(words: Sequence[Word], index: int) -> bool:
    """A slash between two nouns of one phrase: "which sportswear/equipment company"."""
    return words[index].text == "/" and 0 < index < len(words) - 1 and words[index - 1].tag in _NOUN_PHRASE_TAGS and (
        words[index + 1].tag in _NOUN_PHRASE_TAGS)


def negated_clause(words: Sequence[Word]) -> Optional[str]:
    """A declarative with its finite verb negated ("Bats are blind" -> "Bats are not blind",
    "Water boils at 100 °C" -> "Water does not boil at 100 °C"), or None."""
    words = expanded(words)
    finite = next((i for i, word in enumerate(words) if word.tag in FINITE_TAGS
                   or (word.lower in AUXILIARIES and word.dep in ("aux", "auxpass", "ROOT"))), None)
    if finite is None or finite == 0:
        return None
    word = words[finite]
    before, after = render(words[:finite]), render(words[finite + 1:])
    if finite + 1 < len(words) and words[finite + 1].lower in ("not", "n't", "never") or words[finite - 1].lower in (
            "never", "not"):
        return None  # "Lightning never strikes twice": no second negation ("never does not strike")
    perfect = finite + 1 < len(words) and words[finite + 1].tag == "VBN"
    if (word.lower in AUXILIARIES and (word.lower not in ("has", "have", "had") or perfect)) or word.lower in MODALS:
        return join(before, negative(word.lower), after)
    auxiliary = "did" if word.tag == "VBD" else ("does" if word.tag == "VBZ" else "do")
    if auxiliary == "do" and not plural_phrase(before) and word.tag != "VBP":
        auxiliary = "does"
    return join(before, f"{auxiliary} not", inflect(word.text, "VB"), after)
