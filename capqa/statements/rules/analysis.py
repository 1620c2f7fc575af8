"""A question's structure, read from its parse: the wh-phrase, the fronted auxiliary, negation, the
subject and the verb phrase, in declarative order.

``analyse(words)`` takes the parse of the question proper (``parser.Word`` tuples) and returns a
``Frame``. It undoes what makes a question a question:

- wh-movement: the wh-phrase ("which planet", "in what year", "how many bones", "whose portrait")
  is taken off the front, with a preposition that came with it;
- inversion: the auxiliary in front of the subject ("did", "can", "is", "has") is taken out;
  do-support is marked (``do_support``) so that the builder folds it into the verb's tense;
- negation: "n't" / "not" after the auxiliary or after the subject ("Which vitamin can the body
  not make ...") becomes ``negated``.

The tagger of a model trained on declaratives often mis-tags the verb after do-support
("Does a whale breathe air?": breathe/NN), so the verb is found from the tags where they are
unambiguous and from the lexicon (``lemminflect``) where the parse is unsure (``verb_index``).
Contractions are read in full ("ca n't" -> "can not", "What 's" -> "What is").
"""

import functools
from typing import List, NamedTuple, Optional, Sequence, Tuple

from capqa.statements.rules.contractions import WH_WORDS, expanded
from capqa.statements.rules.lexicon import (AUXILIARIES, COMPARATIVE_TAGS, COMPARATIVE_WORDS, COPULAS, DEMONSTRATIVES,
                                            DETERMINERS, FINITE_TAGS, FLOATING_QUANTIFIERS, MODALS,
                                            NOMINAL_SUBJECT_DEPS, PREPOSITIONS, SUBJECT_DEPS)
from capqa.statements.rules.morphology import (inflect, is_adjective, is_base_verb, is_participle, is_plural_noun,
                                               lemmas_of, looks_adjective)
from capqa.statements.rules.parser import Word
from capqa.statements.rules.subjects import copula_subject, words_after_adverbs

_NEGATION = frozenset(("not", "n't", "never"))
_NOT = frozenset(("not", "n't"))
_NOUN_TAGS = frozenset(("NN", "NNS", "NNP", "NNPS", "PRP", "CD", "EX"))
_RELATIVE = frozenset(("that", "which", "who", "whom", "whose"))
_FUNCTION_TAGS = frozenset(("IN", "TO", "DT", "CC", "PRP", "PRP$", "CD", "POS", "RP", "WDT", "WP", "WRB"))
_NOT_BEFORE_VERB = DETERMINERS | PREPOSITIONS | {"'s", "’s", "very", "more", "most"}


class Frame(NamedTuple):
    """A question in declarative order. ``wh`` is "" for a yes/no question."""
    lead: Tuple[Word, ...]        # a fronted phrase before the wh-word ("In 1990 ,")
    preposition: str              # a preposition fronted with the wh-phrase ("in" of "in which year")
    wh: str                       # what / which / who / whom / whose / where / when / why / how
    phrase: Tuple[Word, ...]      # the wh-phrase after the wh-word ("planet", "many bones", "tall")
    auxiliary: str                # the fronted auxiliary, lower-case; "" when none was fronted
    negated: bool                 # "not" went with the auxiliary
    subject: Tuple[Word, ...]     # the subject; empty when the wh-phrase is the subject
    rest: Tuple[Word, ...]        # after the subject: the verb phrase (no fronted auxiliary in it)

    @property
    def wh_is_subject(self) -> bool:
        return bool(self.wh) and not self.subject

    @property
    def do_support(self) -> bool:
        return self.auxiliary in ("do", "does", "did")


def render(words: Sequence[Word]) -> str:
    """The words as text, with the original spacing between them."""
    return "".join(word.text + (" " if word.space else "") for word in words).strip()


def texts(words: Sequence[Word]) -> List[str]:
    return [word.text for word in words]


def _is_auxiliary(word: Word) -> bool:
    return word.lower in AUXILIARIES and word.tag != "POS"


@functools.lru_cache(maxsize=65536)
def analyse(words: Tuple[Word, ...]) -> Optional[Frame]:
    """The ``Frame`` of a question (a wh- or yes/no question), or None. Kept by parse (a frame is
    a tuple, never changed): a question has many answers, and its frame is read for each;
    ``queries.clear_parses`` empties it with the parses."""
    words = _demonstrative_subject_read(expanded(words))
    if not words:
        return None
    start = _wh_start(words)
    if start is None or (start == 0 and _fronted_clause(words)):
        return _polar(words)
    lead, position = words[:start], start
    preposition = ""
    if words[position].tag in ("IN", "TO") and words[position].lower not in WH_WORDS:
        preposition, position = words[position].lower, position + 1
    wh = words[position].lower
    phrase_end = wh_phrase_end(words, position)
    phrase, after = words[position + 1:phrase_end], words[phrase_end:]
    if not after:
        return Frame(lead, preposition, wh, phrase, "", False, (), ())
    multiple = _multiple_frame(lead, preposition, wh, phrase, after)
    if multiple:
        return multiple
    return _inverted(lead, preposition, wh, phrase, after) or Frame(lead, preposition, wh, phrase, "", False, (), after)


def _demonstrative_subject_read(words: Tuple[Word, ...]) -> Tuple[Word, ...]:
    """The words with "does this cost" read as a pronoun subject and its verb: after do-support a
    demonstrative and a last word that can be a verb are no noun phrase ("How much does this |
    cost?"; the tagger makes "this cost" one), the verb at the end or before its adjunct."""
    for index in range(len(words) - 2):
        auxiliary, demonstrative, verb = words[index:index + 3]
        if auxiliary.lower not in ("do", "does", "did") or demonstrative.lower not in DEMONSTRATIVES or (
                verb.tag not in ("NN", "NNS") or "VERB" not in lemmas_of(verb.lower)):
            continue
        if index + 3 < len(words) and words[index + 3].tag not in ("IN", "RB", "TO"):
            continue  # "Why did that cost | rise?": the noun phrase is the subject
        subject = demonstrative._replace(tag="DT", dep="nsubj", head=verb.i)
        return words[:index + 1] + (subject, verb._replace(tag="VB", dep="ROOT", head=verb.i)) + words[index + 3:]
    return words


def _multiple_frame(lead, preposition, wh, phrase, after) -> Optional[Frame]:
    """"How many times | as expensive as the salad | is | the pizza?": the multiple's degree phrase is
    fronted with the wh-phrase, the copula and the subject after it; the frame reads "the pizza is
    | as expensive as the salad" (``wh_inverted`` puts "3 times" before "as"). None for any other question."""
    if not phrase or phrase[-1].lower != "times" or after[0].lower != "as":
        return None
    copula = next((index for index, word in enumerate(after) if index > 1 and word.lower in COPULAS), None)
    if copula is None or copula + 1 >= len(after) or after[copula + 1].tag not in ("DT", "NN", "NNS", "NNP", "PRP"):
        return None
    return Frame(lead, preposition, wh, phrase, after[copula].lower, False, after[copula + 1:], after[:copula])


def _wh_start(words: Sequence[Word]) -> Optional[int]:
    """Where the wh-phrase starts (its fronted preposition included): at the front, or after a
    fronted phrase ending in a comma ("In 1990, who ...") or with no comma ("under article 1 what
    is ..."), as long as the wh-word is followed by a verb or a noun phrase and a verb."""
    clause = opening_clause_end(words)
    for index, word in enumerate(words[:24]):
        if word.lower not in WH_WORDS or (index >= 12 and words[index - 1].text != "," and not _after_comma_preposition(
                words, index)):
            continue  # far from the front only after a comma ("By the end of ..., how many ...", "..., by what ...")
        if index == 0 and clause is not None:
            continue  # "When water boils, what ...": the clause is the lead, the wh-word follows its comma
        if index and word.text[:1].isupper() and words[index - 1].text[-1:] not in (",", ".", ";", ":", "!", "?"):
            continue  # "... series of Who Wants To Be A Millionaire": a title
        if index == 0:
            return 0
        if index == 1 and words[0].tag in ("IN", "TO"):
            return 0
        if index >= 2 and words[index - 1].tag in ("IN", "TO") and words[index - 2].text == ",":
            return index - 1
        before = words[index - 1]
        if before.text == "," or (index >= 2 and words[0].tag in ("IN", "RB") and before.tag in (
                "CD", "NN", "NNP", "NNS", "NNPS")):
            return index
        return None
    return None


def _after_comma_preposition(words: Sequence[Word], index: int) -> bool:
    """Whether the wh-word at ``index`` follows a comma and a preposition ("If X rose ..., by what percent")."""
    return words[index - 1].tag in ("IN", "TO") and words[index - 2].text == ","


def opening_clause_end(words: Sequence[Word]) -> Optional[int]:
    """The comma that ends a fronted "when" clause before the question's own wh-word ("When water
    boils, | what does it turn into?"), or None. Read from the parse: "when" modifies a verb before
    the comma that has its own subject after "when" (not inverted: "When did X end, ..." asks
    when), and a wh-word (or a preposition and one) follows the comma. The parser often makes the
    clause the root and the question a relative clause, so no more of its labels is relied on."""
    if len(words) < 4 or words[0].lower not in _CLAUSE_WH or _is_auxiliary(words[1]) or words[1].tag == "MD":
        return None
    comma = next((index for index, word in enumerate(words) if word.text == ","), None)
    where = {word.i: index for index, word in enumerate(words)}
    verb = where.get(words[0].head)
    if comma is None or verb is None or not 1 < verb < comma:
        return None
    if not any(word.dep in SUBJECT_DEPS and where.get(word.head) == verb for word in words[1:verb]):
        return None
    return comma if any(word.lower in WH_WORDS for word in words[comma + 1:comma + 3]) else None


_CLAUSE_WH = frozenset(("when", "whenever"))


def wh_phrase_end(words: Sequence[Word], position: int) -> int:
    """The index after the wh-phrase that starts at ``position``."""
    wh = words[position].lower
    end = position + 1
    if wh in ("who", "whom", "where", "when", "why"):
        return end
    if wh == "how":
        if end < len(words) and words[end].lower in ("many", "much"):
            end += 1
            # "how many states | border Texas": a verb the tagger took for a noun ends the phrase
            return _over_adjunct_before_inversion(words, _with_verb_rescued(words, end, _noun_phrase_end(words, end)))
        if end < len(words) and words[end].tag in ("JJ", "RB", "JJR", "RBR") and not _is_auxiliary(words[end]):
            # "how soon | before a flight | should you arrive": an adjunct before the inversion is the phrase's
            return _over_adjunct_before_inversion(words, end + 1 + _degree_particle(words, end + 1))
        return end
    if end < len(words) and words[end].lower == "of" and wh in ("which", "what"):
        # "which of the following", "which of these planets"; "which of the following | best ..."
        after = end + 1
        if after < len(words) and words[after].lower in ("these", "those", "them", "us", "you"):
            after += 1
        elif after + 1 < len(words) and words[after].lower == "the" and words[after + 1].lower == "following":
            after += 2
        else:
            return _noun_phrase_end(words, after)
        if after + 1 < len(words) and words[after].tag == "CD" and words[after + 1].tag in ("NNS", "NNPS"):
            after += 1  # "which of these two planets": the count is the noun phrase's
        if after < len(words) and words[after].tag in ("NN", "NNS", "NNP", "NNPS", "JJ"):
            return _over_prepositional_phrases(words, _noun_phrase_end(words, after))
        return after
    if end < len(words) and (wh == "whose" or _starts_noun_phrase(words, end)):
        return _with_verb_rescued(words, end, _over_prepositional_phrases(words, _noun_phrase_end(words, end)))
    return end


def _degree_particle(words: Sequence[Word], index: int) -> int:
    """1 when an adverb the degree takes stands at ``index`` before the inverted auxiliary ("how
    far | away | is the Moon", "how long | ago | was X built"): it is the wh-phrase's, not the
    subject's; else 0."""
    if index + 1 >= len(words) or words[index].lower in ("not", "n't") or not (
            words[index].tag == "RB" or "ADV" in lemmas_of(words[index].lower)):
        return 0  # "how far | downstream | is X": an adverb, whatever the tagger calls it
    return 1 if _is_auxiliary(words[index + 1]) or words[index + 1].tag == "MD" else 0


_ADJUNCT_TAGS = frozenset(("IN", "NN", "NNS", "DT", "RB", "RBR", "JJR", "JJ", "CD"))
_SUBJECT_OPENERS = frozenset(("DT", "PRP", "PRP$", "NNP", "NNPS", "NN", "NNS", "CD", "JJ"))
_MAX_ADJUNCT = 4


def _over_adjunct_before_inversion(words: Sequence[Word], end: int) -> int:
    """"How many bolts | in total | does a robe take", "how many hours | a week | does he
    spend", "how many years | ago | was he born": a short adjunct between the counted noun and
    the inverted auxiliary belongs to the wh-phrase, so that the auxiliary and the subject after
    it are found."""
    for index in range(end, min(end + _MAX_ADJUNCT, len(words) - 1) + 1):
        if index < len(words) - 1 and index > end and _is_auxiliary(words[index]) and words[index].tag in FINITE_TAGS and (
                words[index + 1].tag in _SUBJECT_OPENERS):
            return index
        if index >= len(words) or words[index].tag not in _ADJUNCT_TAGS or _is_auxiliary(words[index]):
            return end
    return end


def _over_prepositional_phrases(words: Sequence[Word], end: int) -> int:
    """The wh-phrase's noun phrase with the prepositional phrases after it, when a finite verb
    follows them ("what process in plants | releases oxygen")."""
    index = end
    while index < len(words) and words[index].tag == "IN" and words[index].lower not in WH_WORDS:
        after = _noun_phrase_end(words, index + 1)
        if after == index + 1:
            return end
        index = after
    if index > end and index < len(words) and words[index].tag in FINITE_TAGS:
        return index
    return end


def _starts_noun_phrase(words: Sequence[Word], index: int) -> bool:
    """Whether the word after "what"/"which" starts a noun phrase ("which mountains separate")
    rather than being the verb ("what causes tides"): a word the tagger calls a verb is still a
    noun when the next word is a verb agreeing with it as its subject."""
    word = words[index]
    if _is_auxiliary(word) or word.tag in ("MD", "DT", "PRP", "PRP$"):
        return False  # "what a black hole is": "what" is the pronoun
    if word.tag not in ("VBD", "VBZ", "VBP"):
        return True
    if "VERB" not in lemmas_of(word.lower):
        return True  # a word the lexicon does not know as a verb ("organelles")
    if "NOUN" not in lemmas_of(word.lower) or index + 1 >= len(words):
        return False
    after = words[index + 1]
    if 0 < index < len(words) - 2 and _asks_for_things(words, index) and is_plural_noun(word.lower) and (
            agrees_as_verb(after, plural=True)):
        return True  # "which states | border texas": "which" asks for things, the plural its noun, a verb after it
    if after.tag == "RP" or (after.tag in ("NN", "NNS") and after.dep in ("compound", "dobj")):
        return False  # "what measures | air pressure", "what breaks | down food": the tagger's verb has its object
    return agrees_as_verb(after, plural=is_plural_noun(word.lower))


def _asks_for_things(words: Sequence[Word], index: int) -> bool:
    """Whether the wh-word before ``index`` asks for things of a kind: "which", or "what" when a
    name the lexicon does not know follows the verb ("what lakes border | michigan"; "what
    measures air pressure" has a common noun there)."""
    wh = words[index - 1].lower
    return wh == "which" or (wh == "what" and not lemmas_of(words[index + 2].lower) and words[index + 2].text.isalpha())


def agrees_as_verb(word: Word, plural: bool) -> bool:
    """Whether ``word`` can be the finite verb of a subject of that number."""
    lowered = word.lower
    if lowered in AUXILIARIES or word.tag == "MD":
        return True
    if "VERB" not in lemmas_of(lowered) or word.tag in ("DT", "IN", "PRP"):
        return False
    if lowered == inflect(lowered, "VBD") and lowered != inflect(lowered, "VB"):
        return True
    return lowered == inflect(lowered, "VBP" if plural else "VBZ")


def _with_verb_rescued(words: Sequence[Word], start: int, end: int) -> int:
    """The end of the wh-phrase's noun phrase; when no verb follows it, the verb the tagger took
    for a noun inside it ends it ("which countries | border Portugal")."""
    if end < len(words) and (words[end].tag.startswith("VB") or words[end].tag == "MD" or _is_auxiliary(words[end])):
        return end
    for word in words[end:]:
        if word.lower in _RELATIVE or word.tag in ("CC", "WRB") or word.lower in ("if", "while", "because", "as"):
            break  # the verb of a clause after the phrase ("... heat | when particles collide") is not its own
        if word.tag.startswith("VB") or word.tag == "MD":
            return end
    for index in range(start + 1, end):
        head = words[index - 1]
        if (head.tag in ("NN", "NNS") or "NOUN" in lemmas_of(head.lower)) and agrees_as_verb(words[index], plural=is_plural_noun(head.lower)) and (
                index + 1 < len(words)):
            return index
    return end


def _noun_phrase_end(words: Sequence[Word], start: int) -> int:
    """The end of a noun phrase starting at ``start``: determiners, adjectives, numbers, nouns,
    possessives and hyphens, an "of" complement ("type of rock"); never past an auxiliary."""
    end = start
    while end < len(words):
        word = words[end]
        if _is_auxiliary(word) or word.tag in ("MD", "WDT", "WP", "WRB", ",", ".", ":"):
            break
        if word.tag in ("VBD", "VBZ", "VBP") and end > start:
            break
        if word.tag.startswith("VB") and word.tag not in ("VBN", "VBG") and end > start and word.lower not in _lemmas_nouns(word):
            break
        if word.lower == "of" and end + 1 < len(words) and end > start:
            end += 1
            continue
        if (word.tag in ("IN", "TO") or word.tag == "RB") and not _inside_title(words, start, end):
            break
        end += 1
        if word.tag in ("NN", "NNS", "NNP", "NNPS") and end < len(words) and words[end].tag not in (
                "NN", "NNS", "NNP", "NNPS", "POS", "HYPH") and words[end].lower != "of":
            break
    return max(end, start)


def _inside_title(words: Sequence[Word], start: int, index: int) -> bool:
    """Whether a preposition or adverb at ``index`` of a noun phrase is a word of a title ("Which
    | Back to the Future | movies ..."): capitalised where the phrase starts, or lower-case between
    a capitalised word and the next one (a determiner between them)."""
    word = words[index]
    if index == start:
        return word.text[:1].isupper() and word.tag == "RB"  # "Back/RB": the tagger's adverb opens a name
    if not (word.text.islower() and words[index - 1].text[:1].isupper()):
        return False
    after = index + 1
    if after < len(words) and words[after].tag == "DT":
        after += 1
    return after < len(words) and words[after].text[:1].isupper() and words[after].tag in ("NNP", "NNPS", "JJ", "NN")


def _lemmas_nouns(word: Word) -> Tuple[str, ...]:
    return tuple(lemmas_of(word.lower).get("NOUN", ())) and (word.lower,)


def _inverted(lead, preposition, wh, phrase, after) -> Optional[Frame]:
    """The frame when ``after`` starts with a fronted auxiliary and a subject."""
    auxiliary = after[0]
    if not _is_auxiliary(auxiliary) and auxiliary.tag != "MD":
        return None
    rest = after[1:]
    negated = False
    if rest and rest[0].lower == "n't":
        negated, rest = True, rest[1:]
    if wh == "how" and phrase and phrase[0].lower in ("many", "much") and rest[:1] and rest[0].lower == "there":
        return None  # "how many rooms is there in X": the counted phrase is the subject of "is there"
    # "of which ...", and "What percentage of the students is | absent?": an adjective alone after the
    # copula is said of the wh-phrase's measured noun, no subject of its own
    partitive = bool(phrase) and (phrase[0].lower == "of" or (len(rest) == 1 and rest[0].tag == "JJ" and any(
        word.lower == "of" for word in phrase[1:])))
    if not rest or (not preposition and not _compared_degree(wh, phrase, rest) and _starts_predicate(
            auxiliary.lower, rest, wh, partitive)):
        return None  # the wh-phrase is the subject: "Who is older", "Which planet does not have"
    mode = "predicate" if preposition else ("adverbial" if wh in ("where", "when", "why", "how") else "")
    subject, verb_phrase, not_after = _subject_and_negation(auxiliary.lower, rest, need_predicate=mode)
    if auxiliary.lower in ("has", "have", "had", "do", "does", "did") and not verb_phrase:
        return None  # "Who has the keys?", "Who does the dishes?": a main verb, not an auxiliary
    if auxiliary.lower in ("has", "have", "had") and auxiliary.dep == "ROOT" and verb_phrase[0].dep == "acl":
        return None  # "Which gas has the greatest effect ... associated with ...": a main verb and a modifier
    if wh in ("who", "what") and not phrase and auxiliary.dep == "ROOT" and auxiliary.lower in ("do", "does", "did") and (
            any(word.tag == "IN" for word in subject) and not any(word.tag.startswith("VB") for word in verb_phrase)):
        return None  # "who did the music for the lion king": the parse's main verb, the "verb" a noun of its object
    subject, verb_phrase = _extraposed_relative(subject, verb_phrase)
    if auxiliary.lower in COPULAS:
        subject, verb_phrase = _participle_out(*_progressive_out(auxiliary, subject, verb_phrase))
        subject, verb_phrase = _attribute_out(auxiliary, subject, verb_phrase)
    return Frame(lead, preposition, wh, phrase, auxiliary.lower, negated or not_after, subject, verb_phrase)


def _progressive_out(auxiliary: Word, subject: Tuple[Word, ...],
                     verb_phrase: Tuple[Word, ...]) -> Tuple[Tuple[Word, ...], Tuple[Word, ...]]:
    """"What is John | carrying?", "What was she | reading?": where the parse makes the copula the
    auxiliary of an -ing verb after the subject, that verb starts the verb phrase, not the subject's
    last word ("John is carrying the football", not "John carrying is ...")."""
    verb = next((index for index in range(1, len(subject)) if subject[index].i == auxiliary.head
                 and subject[index].tag == "VBG"), None) if auxiliary.dep == "aux" else None
    if verb is None:
        verb = _name_compound_verb(subject)
    if verb is None:
        return subject, verb_phrase
    return subject[:verb], subject[verb:] + verb_phrase


def _name_compound_verb(subject: Tuple[Word, ...]) -> Optional[int]:
    """"Who is Mary | meeting/NN tomorrow?", "What was Alice | reading/NN?": a lower-case -ing word
    that can be a verb, after a name the parse hangs on it (as its compound or its subject), is the
    progressive's verb (a name does not modify an activity's noun inside a copular question); the
    index of that word, or None."""
    verb = next((index for index, word in enumerate(subject) if not word.tag.startswith("NNP")), None)
    if not verb:
        return None
    word = subject[verb]
    if not (word.text.islower() and word.lower.endswith("ing") and "VERB" in lemmas_of(word.lower)) or word.dep in (
            "compound", "amod"):
        return None  # "What is Beatles recording/compound studio": the -ing word modifies a noun after it
    return verb if all(name.head == word.i for name in subject[verb - 1:verb]) else None


def _attribute_out(auxiliary: Word, subject: Tuple[Word, ...],
                   verb_phrase: Tuple[Word, ...]) -> Tuple[Tuple[Word, ...], Tuple[Word, ...]]:
    """"What is Ottawa | the capital of?", "Who was Zeus | the father of?": where the parse gives the
    copula both a subject and, after it, an attribute whose preposition is stranded (or reads that
    noun phrase as the subject's apposition), it is the predicate ("Ottawa is the capital of
    Canada"), not the end of the subject."""
    if not verb_phrase or any(word.tag not in ("IN", "RP") for word in verb_phrase):
        return subject, verb_phrase
    attribute = next((index for index in range(1, len(subject)) if _predicate_noun(auxiliary, subject, index)), None)
    if attribute is None:
        return subject, verb_phrase
    start = attribute
    while start > 1 and subject[start - 1].head == subject[attribute].i and subject[start - 1].dep in ("det", "amod",
                                                                                                        "compound"):
        start -= 1
    return subject[:start], subject[start:] + verb_phrase


def _predicate_noun(auxiliary: Word, subject: Tuple[Word, ...], index: int) -> bool:
    word, before = subject[index], subject[:index]
    if not word.tag.startswith("NN"):
        return False
    if word.dep == "attr" and word.head == auxiliary.i:
        return any(other.dep == "nsubj" and other.head == auxiliary.i for other in before)
    return word.dep == "appos" and any(other.i == word.head for other in before)


def _participle_out(subject: Tuple[Word, ...], verb_phrase: Tuple[Word, ...]) -> Tuple[Tuple[Word, ...],
                                                                                       Tuple[Word, ...]]:
    """"What is the chair | made out of?", "Why is the wheel | squeaking?", "Why is the lawn |
    turning yellow?": a participle the parse hangs on the subject's noun, with nothing after it
    but particles, prepositions, adverbs or an adjective, is the verb phrase's ("The chair is made
    out of oak"); a passive one only before a stranded preposition ("What is the language spoken?"
    asks for the language)."""
    loose = ("IN", "RP", "RB", "JJ")
    if any(word.tag not in loose for word in verb_phrase):
        return subject, verb_phrase
    participle = next((index for index in range(1, len(subject)) if subject[index].tag in ("VBN", "VBG")
                       and subject[index].dep == "acl" and subject[index - 1].tag in ("NN", "NNS", "NNP", "NNPS")), None)
    if participle is None and not verb_phrase and len(subject) > 2 and _gerund_as_noun(subject[-1]) and (
            subject[-2].tag in ("NN", "NNS")):
        participle = len(subject) - 1  # "Why is the wheel squeaking/NN?": nothing else is the predicate
    if participle is None or any(word.tag not in loose for word in subject[participle + 1:]):
        return subject, verb_phrase
    if subject[participle].tag == "VBN" and not (verb_phrase and all(word.tag in ("IN", "RP") for word in verb_phrase)):
        return subject, verb_phrase
    return subject[:participle], subject[participle:] + verb_phrase


def _gerund_as_noun(word: Word) -> bool:
    """An -ing form of a verb the tagger read as a noun ("squeaking/NN"), not a noun of its own ("ring")."""
    return word.tag == "NN" and word.lower.endswith("ing") and lemmas_of(word.lower).get("VERB", (word.lower,))[0] != (
        word.lower) and "NOUN" not in lemmas_of(word.lower)


def _compared_degree(wh: str, phrase: Sequence[Word], rest: Sequence[Word]) -> bool:
    """"How much faster | is | light than sound?": a difference of degree with its "than" after
    the subject asks about the subject, whatever the tagger makes of it ("light/JJ"); the
    wh-phrase is no subject ("How many more people are needed?" has no "than")."""
    return wh == "how" and len(phrase) == 2 and phrase[0].lower in ("much", "many") and (
        phrase[1].tag in COMPARATIVE_TAGS or phrase[1].lower in COMPARATIVE_WORDS) and any(
        word.lower == "than" for word in rest[1:])


def _extraposed_relative(subject: Tuple[Word, ...], verb_phrase: Tuple[Word, ...]) -> Tuple[Tuple[Word, ...],
                                                                                          Tuple[Word, ...]]:
    """"When was the album | released that The Red Tour supported?": a relative clause put after
    the verb goes back to its noun, the subject ("the album that The Red Tour supported | released"),
    when only the verb and its adverbs or particles stand before it."""
    if not subject or subject[-1].tag not in ("NN", "NNS", "NNP", "NNPS") or len(verb_phrase) < 3:
        return subject, verb_phrase
    if verb_phrase[0].tag not in ("VBN", "VB"):
        return subject, verb_phrase
    index = 1
    while index < len(verb_phrase) and verb_phrase[index].tag in ("RB", "RP"):
        index += 1
    relative = verb_phrase[index] if index < len(verb_phrase) - 1 else None
    if relative is None or relative.lower not in _RELATIVE or not relative.text.islower() or not (
            relative.tag in ("WDT", "WP") or relative.lower == "that"):
        return subject, verb_phrase  # "that" may be tagged a complementizer: a clause of the noun all the same
    return subject + verb_phrase[index:], verb_phrase[:index]


def _subject_and_negation(auxiliary, rest, need_predicate=""):
    """(subject, verb phrase, negated) with a "not" after the subject taken out ("can the body
    not make" -> "the body", "make", True)."""
    subject, verb_phrase = split_subject(auxiliary, rest, need_predicate)
    if len(subject) > 1 and subject[-1].lower in _NOT:
        return subject[:-1], verb_phrase, True
    if subject and verb_phrase and verb_phrase[0].lower in _NOT:
        return subject, verb_phrase[1:], True
    return subject, verb_phrase, False


def _starts_predicate(auxiliary: str, rest: Sequence[Word], wh: str = "", phrase_is_partitive: bool = False) -> bool:
    """Whether the words after an auxiliary are a predicate, not a subject: a verb, a participle,
    an adjective or a comparative ("is older", "was built", "has won")."""
    first = rest[0]
    if first.lower in _NOT or first.lower == "never" or first.tag in ("JJR", "RBR"):
        return True
    after_adverbs = words_after_adverbs(rest)
    gerund_subject = auxiliary in ("do", "does", "did")  # "What does harming an organism cause?"
    if after_adverbs is not None and (after_adverbs.tag in ("VB", "VBN") or (after_adverbs.tag == "VBG" and not gerund_subject) or (
            auxiliary in COPULAS and after_adverbs.tag in ("TO", "JJ"))):
        return True  # "Which device would | most likely be used ...": the adverbs start the predicate
    if first.tag == "VBN" and is_participle(first.lower) or first.tag == "VBG" and not gerund_subject and (
            first.lower.endswith("ing") and "VERB" in lemmas_of(first.lower)):
        return True
    if auxiliary in COPULAS:
        if first.tag in ("IN", "RB") and first.lower not in ("there", "here"):
            return True
        if len(rest) == 1 and wh in ("what", "who", "whom") and not phrase_is_partitive:
            return False  # "What is entropy?", "What colour is chlorophyll?": the word is the subject
        if first.tag in ("JJ", "JJS") and len(rest) == 1:
            return is_adjective(first.lower)
        return looks_adjective(first.text, first.tag) and rest[1].tag in ("IN", "TO", ",", "CC")
    if auxiliary in ("has", "have", "had"):
        return is_participle(first.lower) and first.tag not in _NOUN_TAGS
    if auxiliary in MODALS and is_base_verb(first.lower) and first.tag in ("NN", "VB", "VBP") and not any(
            word.tag in ("VB", "VBP") and rest[index].tag != "TO" for index, word in enumerate(rest[1:])):
        return True  # "Which gas could | cause rust to form": no other verb for a subject "cause rust" to take
    if first.tag == "VB":
        if "NOUN" in lemmas_of(first.lower) and any(word.tag in ("VB", "VBP") for word in rest[2:]):
            return False  # "when does panic/VB at the disco album come/VBP out": a noun, and a verb follows
        return "VERB" in lemmas_of(first.lower) or not lemmas_of(first.lower)  # not "does kerosene/VB oil rise"
    return first.tag not in _NOUN_TAGS and first.tag not in ("DT", "PRP$", "JJ") and is_base_verb(first.lower)


def split_subject(auxiliary: str, words: Sequence[Word],
                  need_predicate: str = "") -> Tuple[Tuple[Word, ...], Tuple[Word, ...]]:
    """(subject, verb phrase) of the words after a fronted auxiliary. After a copula
    ``need_predicate`` says how much of a predicate to look for (``subjects.copula_subject``):
    "predicate" (a yes/no question, "Of which country is Ottawa the capital?"), "adverbial"
    (where / when / why / how: "When were the Normans | in Normandy?") or "" ("What is X?")."""
    words = tuple(words)
    if auxiliary in COPULAS or auxiliary == "am":
        return copula_subject(words, need_predicate)
    index = verb_index(words, perfect=auxiliary in ("has", "have", "had"))
    if index is None and auxiliary in ("do", "does", "did"):
        # "when did the steel mills closed": a verb in the wrong form after do-support
        index = next((i for i in range(1, len(words)) if (words[i].tag in ("VBD", "VBN", "VBZ", "VBP") or (
            not lemmas_of(words[i].lower) and words[i - 1].tag in ("NN", "NNS") and words[i].text.islower()
            and words[i].tag not in _FUNCTION_TAGS))
                      and words[i - 1].tag not in ("DT", "IN", "PRP$", "POS")), None)  # or a misspelt one: "arive"
    if index is None:
        return words, ()
    return words[:index], words[index:]


def _demonstrative_subject(word: Word) -> bool:
    """Whether ``word`` is a demonstrative standing as the subject ("would this | be", "does that |
    cost"): a determiner that blocks no verb after it, as it determines no noun."""
    return word.lower in DEMONSTRATIVES and word.dep in NOMINAL_SUBJECT_DEPS


def verb_index(words: Sequence[Word], perfect: bool = False) -> Optional[int]:
    """Where the verb after a subject starts: the first word the tagger calls a verb of the right
    form; else the first word the lexicon allows as one (a base form, or a participle after
    has/have/had) that does not follow a determiner, preposition or possessive. An adverb
    right before it stays with the verb phrase ("did X first develop")."""
    wanted = ("VBN",) if perfect else ("VB", "VBP")
    allowed = is_participle if perfect else is_base_verb
    # After a number a participle is an adjective ("has | 5 known species"), a base form a verb ("does 196 | have")
    blocking = ("DT", "PRP$", "POS", "IN", "CD") if perfect else ("DT", "PRP$", "POS", "IN")
    candidates = [index for index in range(1, len(words)) if (floating_quantifier(words, index - 1) or (
                  words[index - 1].lower not in _NOT_BEFORE_VERB and words[index - 1].tag not in blocking) or (
                  _demonstrative_subject(words[index - 1])))
                  and not words[index].text[:1].isupper() and (words[index].tag in wanted or (
                      allowed(words[index].lower) and words[index].tag not in ("DT", "IN", "PRP", "CD")))]
    if not candidates:
        return None
    index = next((i for i in candidates if words[i].tag in wanted), None)
    if index is None:
        index = next((i for i in candidates if "NOUN" not in lemmas_of(words[i].lower)), candidates[-1]
                     if len(candidates) == 1 else _last_before_object(words, candidates))
    while index > 1 and (words[index - 1].tag in ("RB", "RBS", "RBR") and words[index - 1].lower not in (
            "not", "n't", "never") or floating_quantifier(words, index - 1)):
        index -= 1  # "did X first develop", "can X and Y | both include"
    return index


def floating_quantifier(words: Sequence[Word], index: int) -> bool:
    """Whether ``words[index]`` is a quantifier floated after its subject ("Lennon and McCartney
    | both | wrote", "they all"): "both", "all" or "each" after a noun or pronoun, before a verb."""
    return 0 < index < len(words) - 1 and words[index].lower in FLOATING_QUANTIFIERS and words[index - 1].tag in (
        "NN", "NNS", "NNP", "NNPS", "PRP") and not words[index + 1].tag in ("DT", "NN", "NNS", "NNP", "NNPS", "JJ",
                                                                            "PRP$", "CD", "IN", "OF")


def _last_before_object(words, candidates):
    """Among verb candidates that are all nouns too ("the first world war end"), the first one not
    inside a compound noun, else the last before an object, a preposition or the end."""
    for index in candidates:
        previous = words[index - 1]
        compound = previous.tag in ("NN", "NNS") and previous.lower.islower() and "NOUN" in lemmas_of(previous.lower)
        modified = previous.tag in ("JJ", "JJS", "JJR", "CD") and index + 1 < len(words)
        if previous.tag == "PRP" or not (compound or modified):
            return index  # not "world war | 2 end", "the last stage | of": a noun after a noun or an adjective
    for index in reversed(candidates):
        if index == len(words) - 1 or words[index + 1].lower in DETERMINERS | PREPOSITIONS:
            return index
    return candidates[0]


_MAX_FRONTED = 30


def _fronted_clause(words: Sequence[Word]) -> bool:
    """"When water freezes, does it expand?": a "when/where" clause with its own subject and
    verb, fronted before a yes/no question, is no wh-question."""
    if words[0].lower not in ("when", "where", "whenever", "wherever"):
        return False
    comma = _fronted_comma(words)
    return comma is not None and any(word.tag in ("VBZ", "VBD", "VBP") and not _is_auxiliary(word)
                                     for word in words[2:comma])


def _fronted_comma(words: Sequence[Word]) -> Optional[int]:
    """The comma that ends a fronted clause or adverbial before an inverted auxiliary and its
    subject ("If X, could it ...", "When water freezes, does it ..."), or None."""
    for index, word in enumerate(words[1:_MAX_FRONTED], start=1):
        if word.text != ",":
            continue
        if index + 2 < len(words) and (_is_auxiliary(words[index + 1]) or words[index + 1].tag == "MD") and words[
                index + 2].tag in ("PRP", "DT", "NNP", "NNPS", "NN", "NNS", "PRP$", "CD", "JJ", "RB"):
            return index
    return None


def _polar(words: Sequence[Word]) -> Optional[Frame]:
    """A yes/no question: "Is the Sun a star?", "Did X win Y?", "Can't penguins fly?"; after a
    fronted clause or adverbial that ends in a comma ("If a penguin lived in the Sahara, could it
    survive?", "In 1990, did ..."), which is the frame's lead."""
    first = words[0]
    if not (_is_auxiliary(first) or first.tag == "MD"):
        comma = _fronted_comma(words)
        if comma is None:
            return None
        frame = _polar(words[comma + 1:])
        return frame._replace(lead=tuple(words[:comma + 1])) if frame is not None else None
    rest = words[1:]
    negated = False
    if rest and rest[0].lower in _NOT:
        negated, rest = True, rest[1:]
    if not rest:
        return None
    subject, verb_phrase, not_after = _subject_and_negation(first.lower, rest, need_predicate="predicate")
    return Frame((), "", "", (), first.lower, negated or not_after, subject, verb_phrase)
