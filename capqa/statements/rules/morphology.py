"""Word-level knowledge: lemmas, inflection, number, articles, heads of noun phrases.

Everything here is cached: the same words recur across a corpus."""

import functools
import re

from lemminflect import getAllLemmas, getInflection

from capqa.statements.rules.lexicon import (
    _AUXILIARIES, _CLAUSE_WORDS, _COUNT_EXCEPTIONS, _DEFINITE_HEADS, _DETERMINERS, _LIST_ANSWER,
    _MASS_NOUNS, _MASS_SUFFIXES, _NOUN_OF, _PREDICATE_ADJECTIVES, _PREPOSITIONS, _PRONOUNS, _VOWEL_SOUND,
    _WHITESPACE, strip_trailing,
)

# --- Word-level helpers (cached: the same words recur across a corpus) ------------------------
@functools.lru_cache(maxsize=65536)
def _lemmas(word):
    return getAllLemmas(word.lower())


@functools.lru_cache(maxsize=65536)
def _inflect(verb, tag):
    """``verb`` (any form) in the Penn tag ``tag`` (VBZ, VBP, VBD, VBN, VBG)."""
    lowered = verb.lower()
    if lowered in ("be", "is", "are", "was", "were", "am"):
        return {"VBZ": "is", "VBP": "are", "VBD": "was", "VBN": "been", "VBG": "being"}.get(tag, "be")
    lemma = _lemmas(lowered).get("VERB", (lowered,))[0]
    forms = getInflection(lemma, tag)
    return forms[0] if forms else lowered


@functools.lru_cache(maxsize=65536)
def _is_plural_noun(word):
    lowered = word.lower()
    noun_lemmas = _lemmas(lowered).get("NOUN")
    if noun_lemmas:
        return noun_lemmas[0] != lowered
    if lowered.endswith(("ia", "ae", "ra")) and len(lowered) > 4 and word.islower():  # "bacteria", not "Sahara"
        return True
    return lowered.endswith("s") and not lowered.endswith(("ss", "us", "is", "ics"))


@functools.lru_cache(maxsize=65536)
def _is_base_verb(word):
    return "VERB" in _lemmas(word) and _lemmas(word)["VERB"][0] == word.lower()


@functools.lru_cache(maxsize=65536)
def _is_third_person_verb(word):
    """A present-tense third-person form ("carries", "absorbs"), not a plural-only noun."""
    lowered = word.lower()
    if not lowered.endswith("s") or "VERB" not in _lemmas(lowered):
        return False
    return _inflect(lowered, "VBZ") == lowered


@functools.lru_cache(maxsize=65536)
def _is_finite_verb(word):
    lowered = word.lower()
    if lowered in _AUXILIARIES:
        return True
    if "VERB" not in _lemmas(lowered):
        return False
    return lowered in (_inflect(lowered, "VBZ"), _inflect(lowered, "VBD"), _inflect(lowered, "VBP"))


@functools.lru_cache(maxsize=65536)
def _is_participle(word):
    lowered = word.lower()
    if "VERB" not in _lemmas(lowered) or _inflect(lowered, "VBN") != lowered:
        return False
    # An irregular participle differs from its lemma ("held", "won", "taught"); one that equals
    # its lemma ("come", "put") is read as a participle only by a participle ending.
    return _lemmas(lowered)["VERB"][0] != lowered or lowered.endswith(
        ("ed", "en", "wn", "de", "nt", "lt", "pt", "ng", "ft"))


@functools.lru_cache(maxsize=65536)
def _is_predicate_word(word):
    """Could start the predicate of a copula after its subject ("consumed", "unreactive")."""
    lowered = word.lower()
    if lowered in _DETERMINERS or lowered in _PREPOSITIONS or _is_adverb(lowered):
        return True
    lemmas = _lemmas(lowered)
    if _is_participle(lowered) or ("ADJ" in lemmas and "NOUN" not in lemmas):
        return True
    if not lemmas:
        return lowered.endswith(("ive", "ous", "able", "ible", "ful", "less", "ant", "ent"))
    # The lexicon knows some adjectives only as nouns ("visible"); these endings are adjectival.
    return lowered.endswith(("ous", "able", "ible", "ful", "less"))


def _plural_phrase(phrase):
    """Whether a noun phrase is plural: a conjunction, or a plural head noun."""
    words = phrase.split()
    head_part = re.split(r" (?:that|which|who|where|of|in|on|at|with|for|from) ", f" {phrase} ")[0]
    if " and " in f"{head_part} ":
        return True  # a conjunction of heads, not one inside a modifier ("reads backwards and forwards")
    if words and all(word[:1].isupper() for word in words) and words[0].lower() not in _DETERMINERS:
        # A name is singular ("Serena Williams", "Paris") unless its head is a known plural noun
        # (a sentence-initial "Honeybees").
        noun_lemmas = _lemmas(words[-1]).get("NOUN", ())
        return bool(noun_lemmas) and words[-1].lower() not in noun_lemmas
    head = _head_noun(words)
    return bool(head) and _is_plural_noun(head)


def _head_noun(words):
    """The last word before the first preposition, relative pronoun or verb after word 0."""
    for index, word in enumerate(words):
        lowered = word.lower()
        if index == 0:
            continue
        if lowered in _PREPOSITIONS or lowered in ("that", "which", "who", "where"):
            return words[index - 1]
        after_determiner = words[index - 1].lower() in _DETERMINERS
        followed_by_determiner = index + 1 < len(words) and words[index + 1].lower() in _DETERMINERS
        if not after_determiner and (_is_participle(lowered) or _is_finite_verb(lowered)) and (
                "NOUN" not in _lemmas(lowered) or followed_by_determiner):
            return words[index - 1]
    return words[-1] if words else ""


def _is_adjective(answer):
    """A one-word lower-case answer that is first of all an adjective ("positive", "sweet")."""
    lemmas = _lemmas(answer) if " " not in answer and answer.islower() else {}
    return bool(lemmas) and next(iter(lemmas)) == "ADJ"


def looks_adjective(text: str, tag: str) -> bool:
    """Whether a word the tagger calls ``tag`` is an adjective: the lexicon agrees, or the word
    is unknown to it and tagged as one ("unreactive")."""
    if tag not in ("JJ", "JJR", "JJS", "NNP"):
        return False
    lowered = text.lower()
    if tag == "NNP":
        return _is_adjective(lowered)
    return ("ADJ" in _lemmas(lowered) or (not _lemmas(lowered) and text.islower())
            or lowered in _PREDICATE_ADJECTIVES or lowered.endswith(_ADJECTIVE_SUFFIXES))


# Endings that make a word the tagger calls an adjective one, where the lexicon knows it only as
# a noun ("responsible", "visible").
_ADJECTIVE_SUFFIXES = ("ible", "able", "ous", "ful", "less", "ive", "ic", "ary", "ant", "ent")


@functools.lru_cache(maxsize=65536)
def _is_adverb(word):
    lowered = word.lower()
    return lowered.endswith("ly") and "NOUN" not in _lemmas(lowered) and "ADJ" not in _lemmas(lowered)


def _is_clause(text):
    """Whether ``text`` is a clause with a subject and a finite verb rather than a noun phrase."""
    words = text.lower().split()
    if len(words) < 2:
        return False
    if words[0] in _PRONOUNS - {"this", "these", "those"} or "=" in words:
        return True
    if any(word in _CLAUSE_WORDS for word in words[1:]):
        return True
    if len(words) == 2 and _is_plural_noun(words[1]) and ({"NOUN", "ADJ"} & set(_lemmas(words[0]))):
        # "animal products" or "pH decreases": a modifier and a plural noun, or a subject and a
        # verb; the tagger tells them apart.
        from capqa.statements.rules.parser import parse

        return parse(text)[-1].tag == "VBZ"
    first_nouns = _lemmas(words[0]).get("NOUN", ())
    if len(words) > 2 and first_nouns and words[0] not in first_nouns and _is_base_verb(words[1]) and (
            "NOUN" not in _lemmas(words[1])):
        return True  # "rivers carry dissolved minerals": a plural noun and a verb that is no noun
    return words[0] not in _DETERMINERS and _is_third_person_verb(words[1]) and not _is_base_verb(words[0])


def _capitalize(text):
    return text[:1].upper() + text[1:] if text else text


def _sentence(text):
    """Whitespace collapsed, first letter capitalised, exactly one final full stop."""
    text = strip_trailing(_WHITESPACE.sub(" ", text).strip())
    return _capitalize(text) + "."


def _indefinite_article(phrase):
    """"a" or "an" by the sound of the first word; acronyms read as words ("a LAN") or as
    letters ("an SQL query")."""
    word = phrase.split()[0]
    if word.isupper() and len(word) > 1:
        if any(letter in "AEIOU" for letter in word[1:3]):
            return "an" if word[0] in "AEIOU" else "a"
        return "an" if word[0] in "AEFHILMNORSX" else "a"
    return "an" if _VOWEL_SOUND.match(word) else "a"


def _is_bare_noun_phrase(answer):
    """A short lower-case noun phrase with no determiner, number or formula."""
    head_part = re.split(r",| which | that | who ", answer, maxsplit=1)[0]
    words = head_part.split()
    if not words or len(words) > 3 or not words[0][:1].islower() or not head_part.replace(" ", "").replace(
            "-", "").isalpha():
        return False
    if len(words) == 1 and _is_adjective(words[0]):
        return False  # "negative" is a predicate adjective, not "a negative"
    return words[0] not in _DETERMINERS and words[0] not in _PRONOUNS and (
        not _is_finite_verb(words[0]) or "NOUN" in _lemmas(words[0]))  # "drone", "cell" are nouns too


def _is_mass_noun(word):
    lowered = word.lower()
    if lowered in _MASS_NOUNS:
        return True
    if lowered.endswith(_COUNT_EXCEPTIONS):
        return False
    return lowered.endswith(_MASS_SUFFIXES)


def _with_article(answer, subject):
    """The answer with the article its role needs: a definite part or unit ("the heart"), a
    description by a noun and its complement ("the loss of electrons"), an instance of a kind the
    question names with "a" or "type of" ("a neuron"), or none (mass nouns, plurals, names)."""
    if _NOUN_OF.match(answer) and not _is_plural_noun(answer.split()[0]) and not _LIST_ANSWER.search(answer):
        return f"the {answer}"
    if not _is_bare_noun_phrase(answer):
        return answer
    head = re.split(r",| which | that | who ", answer, maxsplit=1)[0].split()[-1]
    subject_words = subject.lower().split()
    if subject_words and _head_noun(subject_words).lower() in _DEFINITE_HEADS:
        return f"the {answer}"
    if _is_plural_noun(head) or _is_mass_noun(head):
        return answer
    if any(word in ("a", "an", "type", "kind") for word in subject_words):
        return f"{_indefinite_article(answer)} {answer}"
    return _definite_if_unique(answer, subject_words)


def _definite_if_unique(answer, phrase_words):
    """"the" before a bare singular answer that a superlative makes one of a kind ("The largest
    mammal is the blue whale"); a substance stays a mass noun ("The hardest mineral is diamond")."""
    if any(_is_superlative(word) for word in phrase_words) and _head_noun(phrase_words) not in _SUBSTANCE_HEADS:
        return f"the {answer}"
    return answer


def definite_subject(answer: str, predicate: str) -> str:
    """A bare singular count-noun answer made definite when ``predicate`` is a superlative
    ("Cheetah" + "the fastest land animal" -> "the cheetah")."""
    if not _is_bare_noun_phrase(answer) or _is_plural_noun(answer.split()[-1]) or _is_mass_noun(answer.split()[-1]):
        return answer
    return _definite_if_unique(answer, predicate.lower().split())


_SUBSTANCE_HEADS = frozenset("substance material element metal gas liquid mineral compound fuel food drink "
                             "ingredient acid".split())


def _is_superlative(word):
    return word in ("most", "least", "first", "last") or (
        word.endswith("est") and "ADJ" in _lemmas(word) and _lemmas(word)["ADJ"][0] != word)


def _singular(phrase):
    """A plural noun phrase made singular at its head ("factors that affect" -> "factor that affects")."""
    words = phrase.split()
    index = next((i for i, word in enumerate(words) if word.lower() in _PREPOSITIONS
                  or word.lower() in ("that", "which", "who") or _is_plural_noun(word)), None)
    if index is None or not _is_plural_noun(words[index]):
        return phrase
    head = words[index]
    words[index] = _lemmas(head).get("NOUN", (re.sub(r"s$", "", head),))[0]
    if index + 2 < len(words) and words[index + 1] in ("that", "which", "who"):
        words[index + 2] = _agree(words[index + 2], plural=False)
    return " ".join(words)


def _agree(verb, plural, past=False):
    if past:
        return _inflect(verb, "VBD")
    return _inflect(verb, "VBP" if plural else "VBZ")


def _strip_determiner(phrase):
    words = phrase.split()
    return " ".join(words[1:]) if words and words[0].lower() == "the" else phrase
