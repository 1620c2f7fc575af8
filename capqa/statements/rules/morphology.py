"""Word-level knowledge: lemmas, inflection, number, articles, heads of noun phrases.

Everything here is cached: the same words recur across a corpus."""

import functools
import re
from typing import List, Optional

from capqa.statements.rules.lexicon import (AUXILIARIES, CHEMICAL_ENDINGS, CLAUSE_WORDS, COUNT_EXCEPTIONS,
                                            DEFINITE_HEADS, DETERMINERS, FINITE_TAGS, INDEFINITE_PRONOUNS, LIST_ANSWER,
                                            MASS_NOUNS, MASS_SUFFIXES, NOUN_OF, PLURAL_LEMMAS, PREDICATE_ADJECTIVES,
                                            PREPOSITIONS, PRONOUNS, VOWEL_SOUND, WHITESPACE, strip_trailing)
from capqa.statements.rules.parser import parse


# --- Word-level helpers (cached: the same words recur across a corpus) ------------------------
@functools.lru_cache(maxsize=65536)
def lemmas_of(word):
    # Deferred: lemminflect imports spacy (and spaCy thinc and torch): 3.5 s that only a statement needs.
    from lemminflect import getAllLemmas

    return getAllLemmas(word.lower())


@functools.lru_cache(maxsize=65536)
def inflect(verb, tag):
    """``verb`` (any form) in the Penn tag ``tag`` (VBZ, VBP, VBD, VBN, VBG)."""
    lowered = verb.lower()
    if lowered in ("be", "is", "are", "was", "were", "am"):
        return {"VBZ": "is", "VBP": "are", "VBD": "was", "VBN": "been", "VBG": "being"}.get(tag, "be")
    lemma = lemmas_of(lowered).get("VERB", (lowered,))[0]
    from lemminflect import getInflection  # Deferred: spacy, through lemminflect (see lemmas_of)

    forms = getInflection(lemma, tag)
    return forms[0] if forms else lowered


@functools.lru_cache(maxsize=65536)
def is_count_noun(word):
    """Whether ``word`` is a singular noun that is only ever counted ("thermometer", "skull"):
    lemminflect's plurals of a noun list the noun itself where the corpus it was built from used
    it uncounted ("yeast", "honey", "heart"), so a noun whose only plural is another word, that
    is no adjective or mass noun by the lexicon, needs an article as a subject ("A thermometer
    measures ..."). Conservative: an unknown word, a name, a code word is never one."""
    from lemminflect import getAllInflections  # Deferred: spacy, through lemminflect (see lemmas_of)

    lowered = word.lower()
    if not lowered.isalpha() or word != lowered or set(lemmas_of(lowered)) - {"NOUN", "VERB"} or (
            lowered in INDEFINITE_PRONOUNS or lowered.endswith(CHEMICAL_ENDINGS)):
        return False
    forms = getAllInflections(lowered, upos="NOUN")
    plurals = forms.get("NNS", ())
    return lowered in forms.get("NN", ()) and bool(plurals) and lowered not in plurals and lowered not in MASS_NOUNS


@functools.lru_cache(maxsize=65536)
def is_plural_noun(word):
    lowered = word.lower()
    if lowered in PLURAL_LEMMAS:
        return True
    noun_lemmas = lemmas_of(lowered).get("NOUN")
    if noun_lemmas:
        return noun_lemmas[0] != lowered
    if lowered.endswith(("ia", "ae", "ra")) and len(lowered) > 4 and word.islower():  # "bacteria", not "Sahara"
        return True
    return lowered.endswith("s") and not lowered.endswith(("ss", "us", "is", "ics"))


@functools.lru_cache(maxsize=65536)
def is_base_verb(word):
    return "VERB" in lemmas_of(word) and lemmas_of(word)["VERB"][0] == word.lower()


@functools.lru_cache(maxsize=65536)
def is_third_person_verb(word):
    """A present-tense third-person form ("carries", "absorbs"), not a plural-only noun."""
    lowered = word.lower()
    if not lowered.endswith("s") or "VERB" not in lemmas_of(lowered):
        return False
    return inflect(lowered, "VBZ") == lowered


@functools.lru_cache(maxsize=65536)
def is_finite_verb(word):
    lowered = word.lower()
    if lowered in AUXILIARIES:
        return True
    if "VERB" not in lemmas_of(lowered):
        return False
    return lowered in (inflect(lowered, "VBZ"), inflect(lowered, "VBD"), inflect(lowered, "VBP"))


@functools.lru_cache(maxsize=65536)
def is_participle(word):
    lowered = word.lower()
    if "VERB" not in lemmas_of(lowered) or inflect(lowered, "VBN") != lowered:
        return False
    # An irregular participle differs from its lemma ("held", "won", "taught"); one that equals
    # its lemma ("come", "put") is read as a participle only by a participle ending.
    return lemmas_of(lowered)["VERB"][0] != lowered or lowered.endswith(
        ("ed", "en", "wn", "de", "nt", "lt", "pt", "ng", "ft"))


@functools.lru_cache(maxsize=65536)
def is_predicate_word(word):
    """Could start the predicate of a copula after its subject ("consumed", "unreactive")."""
    lowered = word.lower()
    if lowered in DETERMINERS or lowered in PREPOSITIONS or is_adverb(lowered):
        return True
    lemmas = lemmas_of(lowered)
    if is_participle(lowered) or ("ADJ" in lemmas and "NOUN" not in lemmas):
        return True
    if not lemmas:
        return lowered.endswith(("ive", "ous", "able", "ible", "ful", "less", "ant", "ent"))
    # The lexicon knows some adjectives only as nouns ("visible"); these endings are adjectival.
    return lowered.endswith(("ous", "able", "ible", "ful", "less"))


def plural_phrase(phrase):
    """Whether a noun phrase is plural: a conjunction, or a plural head noun."""
    words = phrase.split()
    head_part = re.split(r" (?:that|which|who|where|of|in|on|at|with|for|from) ", f" {phrase} ")[0]
    if " and " in f"{head_part} ":
        return True  # a conjunction of heads, not one inside a modifier ("reads backwards and forwards")
    if words and all(word[:1].isupper() for word in words) and words[0].lower() not in DETERMINERS:
        # A name is singular ("Serena Williams", "Paris") unless its head is a known plural noun
        # (a sentence-initial "Honeybees").
        noun_lemmas = lemmas_of(words[-1]).get("NOUN", ())
        return bool(noun_lemmas) and words[-1].lower() not in noun_lemmas
    head = head_noun(words)
    return bool(head) and is_plural_noun(head)


def head_noun(words):
    """The last word before the first preposition, relative pronoun or verb after word 0."""
    for index, word in enumerate(words):
        lowered = word.lower()
        if index == 0:
            continue
        if lowered in PREPOSITIONS or lowered in ("that", "which", "who", "where"):
            return words[index - 1]
        after_determiner = words[index - 1].lower() in DETERMINERS
        followed_by_determiner = index + 1 < len(words) and words[index + 1].lower() in DETERMINERS
        if not after_determiner and (is_participle(lowered) or is_finite_verb(lowered)) and (
                "NOUN" not in lemmas_of(lowered) or followed_by_determiner):
            return words[index - 1]
    return words[-1] if words else ""


def is_adjective(answer):
    """A one-word lower-case answer that is first of all an adjective ("positive", "sweet")."""
    lemmas = lemmas_of(answer) if " " not in answer and answer.islower() else {}
    return bool(lemmas) and next(iter(lemmas)) == "ADJ"


def looks_adjective(text: str, tag: str) -> bool:
    """Whether a word the tagger calls ``tag`` is an adjective: the lexicon agrees, or the word
    is unknown to it and tagged as one ("unreactive")."""
    if tag not in ("JJ", "JJR", "JJS", "NNP"):
        return False
    lowered = text.lower()
    if tag == "NNP":
        return is_adjective(lowered)
    return ("ADJ" in lemmas_of(lowered) or (not lemmas_of(lowered) and text.islower())
            or lowered in PREDICATE_ADJECTIVES or lowered.endswith(_ADJECTIVE_SUFFIXES))


# Endings that make a word the tagger calls an adjective one, where the lexicon knows it only as
# a noun ("responsible", "visible").
_ADJECTIVE_SUFFIXES = ("ible", "able", "ous", "ful", "less", "ive", "ic", "ary", "ant", "ent")


@functools.lru_cache(maxsize=65536)
def is_adverb(word):
    lowered = word.lower()
    return lowered.endswith("ly") and "NOUN" not in lemmas_of(lowered) and "ADJ" not in lemmas_of(lowered)


def clause_texts(text: str) -> List[str]:
    """The texts ``looks_like_clause(text)`` parses (so that a batch can parse them first)."""
    words = text.lower().split()
    return [text] if _clause_by_words(words) is None and _tagger_decides(words) else []


def _clause_by_words(words: List[str]) -> Optional[bool]:
    """Whether the words of ``looks_like_clause`` are a clause, where a word tells; else None."""
    if len(words) < 2:
        return False
    if words[0] in PRONOUNS - {"this", "these", "those"} or "=" in words:
        return True
    if any(word in CLAUSE_WORDS for word in words[1:]):
        return True
    return None


def _tagger_decides(words: List[str]) -> bool:
    """"animal products" or "pH decreases": a modifier and a plural noun, or a subject and a verb;
    the tagger tells them apart."""
    return len(words) == 2 and is_plural_noun(words[1]) and bool({"NOUN", "ADJ"} & set(lemmas_of(words[0])))


def looks_like_clause(text):
    """Whether ``text`` is a clause with a subject and a finite verb rather than a noun phrase."""
    words = text.lower().split()
    read = _clause_by_words(words)
    if read is not None:
        return read
    if _tagger_decides(words):
        return parse(text)[-1].tag == "VBZ"
    first_nouns = lemmas_of(words[0]).get("NOUN", ())
    if len(words) > 2 and first_nouns and words[0] not in first_nouns and is_base_verb(words[1]) and (
            "NOUN" not in lemmas_of(words[1])):
        return True  # "rivers carry dissolved minerals": a plural noun and a verb that is no noun
    return words[0] not in DETERMINERS and is_third_person_verb(words[1]) and not is_base_verb(words[0])


# An identifier of code opening a sentence ("x_1 denotes ...", "a*b*c is 8"): its case is the code's.
_CODE_WORD_START = re.compile(r"^[a-z][A-Za-z0-9]*+(?:[_*][A-Za-z0-9]++)++\b")


def name_capital_only(text: str) -> str:
    """``text`` with its first word's capital lowered unless the parse reads that word as a name or
    "I": a clause that lands after "because" keeps "Paris" and "NASA" but not "Air" or "It's"."""
    words = parse(text)
    if not words or words[0].tag in ("NNP", "NNPS") or words[0].text == "I" or not text[1:2].islower():
        return text
    return text[:1].lower() + text[1:]


def parsed_clause(text: str) -> bool:
    """Whether the parse of ``text`` has a subject of a finite verb ("Background apps drain it."),
    where the word lists of ``looks_like_clause`` cannot tell a compound subject from a noun phrase."""
    words = parse(text)
    finite = {word.i for word in words if word.tag in FINITE_TAGS}
    return any(word.dep in ("nsubj", "nsubjpass") and word.head in finite for word in words)


def capitalize(text):
    if not text or _CODE_WORD_START.match(text):
        return text
    return text[:1].upper() + text[1:]


def as_sentence(text):
    """Whitespace collapsed, first letter capitalised, exactly one final full stop."""
    text = strip_trailing(WHITESPACE.sub(" ", text).strip())
    return capitalize(text) + "."


def indefinite_article(phrase):
    """"a" or "an" by the sound of the first word; acronyms read as words ("a LAN") or as
    letters ("an SQL query")."""
    word = phrase.split()[0]
    if word.isupper() and len(word) > 1:
        if any(letter in "AEIOU" for letter in word[1:3]):
            return "an" if word[0] in "AEIOU" else "a"
        return "an" if word[0] in "AEFHILMNORSX" else "a"
    return "an" if VOWEL_SOUND.match(word) else "a"


def is_bare_noun_phrase(answer):
    """A short lower-case noun phrase with no determiner, number or formula."""
    head_part = re.split(r",| which | that | who ", answer, maxsplit=1)[0]
    words = head_part.split()
    if not words or len(words) > 3 or not words[0][:1].islower() or not head_part.replace(" ", "").replace(
            "-", "").isalpha():
        return False
    if len(words) == 1 and is_adjective(words[0]):
        return False  # "negative" is a predicate adjective, not "a negative"
    return words[0] not in DETERMINERS and words[0] not in PRONOUNS and (
        not is_finite_verb(words[0]) or "NOUN" in lemmas_of(words[0]))  # "drone", "cell" are nouns too


def is_mass_noun(word):
    lowered = word.lower()
    if lowered in MASS_NOUNS:
        return True
    if lowered.endswith(COUNT_EXCEPTIONS):
        return False
    return lowered.endswith(MASS_SUFFIXES)


# A coordination inside the noun's complement ("combination of a loop and a roll") is no list answer:
# both its parts are determined noun phrases, so the description still takes "the".
_NOUN_OF_PAIR = re.compile(r"(?<= of )(?:a|an|the) [a-z]+ (?:and|or) (?:a|an|the) [a-z]+$")


def with_article(answer, subject):
    """The answer with the article its role needs: a definite part or unit ("the heart"), a
    description by a noun and its complement ("the loss of electrons"), an instance of a kind the
    question names with "a" or "type of" ("a neuron"), or none (mass nouns, plurals, names)."""
    if NOUN_OF.match(answer) and not is_plural_noun(answer.split()[0]) and not LIST_ANSWER.search(
            _NOUN_OF_PAIR.sub("", answer)):
        return f"the {answer}"
    if not is_bare_noun_phrase(answer):
        return answer
    head = re.split(r",| which | that | who ", answer, maxsplit=1)[0].split()[-1]
    subject_words = subject.lower().split()
    if subject_words and head_noun(subject_words).lower() in DEFINITE_HEADS:
        return f"the {answer}"
    if is_plural_noun(head) or is_mass_noun(head):
        return answer
    if _kind_of_mass(subject_words):
        return answer  # "the type of music" + jazz: a kind of a substance or an art is no count noun
    if any(word in ("a", "an", "type", "kind") for word in subject_words):
        return f"{indefinite_article(answer)} {answer}"
    return _definite_if_unique(answer, subject_words)


def _kind_of_mass(phrase_words: List[str]) -> bool:
    """Whether the phrase asks for a kind of a mass noun ("type of music", "kind of food")."""
    return any(word in ("type", "kind", "sort") and phrase_words[index + 1:index + 2] == ["of"] and (
        phrase_words[index + 2:index + 3] and phrase_words[index + 2] in MASS_NOUNS)
        for index, word in enumerate(phrase_words))


def _definite_if_unique(answer, phrase_words):
    """"the" before a bare singular answer that a superlative makes one of a kind ("The largest
    mammal is the blue whale"); a substance stays a mass noun ("The hardest mineral is diamond")."""
    if any(is_superlative(word) for word in phrase_words) and head_noun(phrase_words) not in _SUBSTANCE_HEADS:
        return f"the {answer}"
    return answer


def definite_subject(answer: str, predicate: str) -> str:
    """A bare singular count-noun answer made definite when ``predicate`` is a superlative
    ("Cheetah" + "the fastest land animal" -> "the cheetah")."""
    if not is_bare_noun_phrase(answer) or is_plural_noun(answer.split()[-1]) or is_mass_noun(answer.split()[-1]):
        return answer
    return _definite_if_unique(answer, predicate.lower().split())


_SUBSTANCE_HEADS = frozenset("substance material element metal gas liquid mineral compound fuel food drink "
                             "ingredient acid".split())


def is_superlative(word):
    return word in ("most", "least", "first", "last") or (
        word.endswith("est") and "ADJ" in lemmas_of(word) and lemmas_of(word)["ADJ"][0] != word)


def singular_of(phrase):
    """A plural noun phrase made singular at its head ("factors that affect" -> "factor that affects")."""
    words = phrase.split()
    index = next((i for i, word in enumerate(words) if word.lower() in PREPOSITIONS
                  or word.lower() in ("that", "which", "who") or is_plural_noun(word)), None)
    if index is None or not is_plural_noun(words[index]):
        return phrase
    head = words[index]
    words[index] = lemmas_of(head).get("NOUN", (re.sub(r"s$", "", head),))[0]
    if index + 2 < len(words) and words[index + 1] in ("that", "which", "who"):
        words[index + 2] = agree(words[index + 2], plural=False)
    return " ".join(words)


def agree(verb, plural, past=False):
    if past:
        return inflect(verb, "VBD")
    return inflect(verb, "VBP" if plural else "VBZ")


def strip_determiner(phrase):
    words = phrase.split()
    return " ".join(words[1:]) if words and words[0].lower() == "the" else phrase
