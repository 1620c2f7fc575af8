"""The offline rule-based statement converter: ``statement_model="rules"``.

Turns a question and an answer into one declarative sentence with no model and no download:
regular expressions find the question's shape, ``lemminflect`` inflects the verbs. Shapes, tried
in order (the first that applies wins):

1. the answer is already a full sentence: kept as it is;
2. fill-in-the-blank (``___``): the answer fills the first blank;
3. wh-words in situ ("... in order to do what?"): the answer replaces them;
4. imperatives: "Give an example of X.", "Name one X.", "Name three X.", "List the X.";
5. sentence completions ("The freezing point of water is"): the answer is appended;
6. wh-questions (what/which/who/whom/whose/when/where/why/how/how many/how much) with the
   auxiliary inversion undone: "When did the Berlin Wall fall?" + "in 1989" ->
   "The Berlin Wall fell in 1989.";
7. yes/no questions: "Can penguins fly?" + "no" -> "Penguins cannot fly.".

Anything else gets the safe form ``The answer to "QUESTION" is ANSWER.``, which keeps the whole
question and the whole answer. Text before the last sentence of a question (a context
paragraph) is kept in front of the statement.
"""

import functools
import re

from lemminflect import getAllLemmas, getInflection

from capqa.statements.text_metrics import normalize_statement
from capqa.validation import check_same_length, check_text, check_text_list

# --- Closed word classes ---------------------------------------------------------------------
_DETERMINERS = frozenset("a an the this that these those its their his her our my your some any "
                         "each every all both no one".split())
_PRONOUNS = frozenset("it they he she we you i there this these those".split())
_PREPOSITIONS = frozenset("of to as for with by from in on at into onto about like than over under "
                          "between through during after before without within across".split())
_AUXILIARIES = frozenset("is are was were am be been being do does did can could will would shall "
                         "should may might must has have had".split())
_NEGATIONS = frozenset("not no cannot can't don't doesn't didn't isn't aren't wasn't weren't won't".split())
_MODALS = frozenset("can could will would shall should may might must".split())
_COPULAS = frozenset("is are was were".split())
_NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                 "nine": 9, "ten": 10}
_NEGATIVE_ANSWERS = frozenset("no false incorrect wrong never nope".split())
_POSITIVE_ANSWERS = frozenset("yes true correct right yeah yep".split())
# Nouns whose instances are unique parts of a whole or units of measure: "the heart", "the ohm".
_DEFINITE_HEADS = frozenset("organ organelle part structure site boundary layer bone gland "
                            "powerhouse unit".split())
# Adjectives that take a complement and end a question's predicate: "proportional to".
_PREDICATE_ADJECTIVES = frozenset("proportional equal similar related equivalent responsible "
                                  "composed subject due close opposite".split())
# Nominal predicates that end a copular question: "What is sound a type of?".
_DEGREE_ADVERBS = frozenset("best most least likely probably usually often also".split())
_PREDICATE_NOUNS = frozenset("type kind form part example unit measure sort member".split())
# Suffixes of nouns that are usually uncountable (abstract nouns, processes, substances): such a
# bare answer gets no article ("is photosynthesis", "is oxygen"), others do ("is a neuron").
_MASS_SUFFIXES = ("tion", "sion", "sis", "ism", "ity", "ment", "ness", "ance", "ence", "ing", "gy",
                  "ics", "phyll", "gen", "in", "ose", "ide", "ium", "ure", "age", "ia", "ine", "ity",
                  "ogy", "ship", "dom", "hood", "ur", "um", "ol", "ene", "ane", "ate", "ite",
                  "ar", "ic", "ine", "ty", "al", "er", "sm", "ph", "ice", "ed", "acid", "tissue")
_COUNT_EXCEPTIONS = ("reaction", "cation", "anion", "mirror", "motor", "lens", "circuit", "cell",
                     "molecule")
_VOWEL_SOUND = re.compile(r"^(?:[aeioAEIO]|[uU](?!ni|se|su|ra|ro|re|ti)|[hH](?:our|onest|onor|eir)|"
                          r"[FHLMNRSX](?:[A-Z0-9]|$))")
# Answers that describe by a noun and its complement are definite: "is the loss of electrons".
_NOUN_OF = re.compile(r"^([a-z]+) of ")
# Subjects whose content is a proposition: "Ohm's law states that ...".
_PROPOSITION_HEADS = frozenset("law principle rule theorem theory hypothesis postulate".split())

# --- Precompiled patterns --------------------------------------------------------------------
_BLANK = re.compile(r"_{2,}")
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'(])")
_WHITESPACE = re.compile(r"\s+")
_TRAILING_PUNCTUATION = re.compile(r"[\s.?!:;,]+$")
_LIST_ANSWER = re.compile(r",| and | or |;")
_YES_NO = re.compile(r"^(yes|no|true|false|correct|incorrect|wrong|right|never)\b[\s,.;:!-]*(.*)$",
                     re.IGNORECASE)
_SECOND_QUESTION = re.compile(r"^(.+?),? and (?:what|how|why|where|when|which|who)\b.*$", re.IGNORECASE)
_APPROXIMATELY = re.compile(r"^(approximately|roughly|about) |,? (approximately|roughly)$", re.IGNORECASE)
_EXAMPLE = re.compile(r"^(?:give|provide|name|state|identify|mention|list|cite) (?:an? |one |some |two |"
                      r"three |several )?(examples?) of (.+)$", re.IGNORECASE)
_NAME_ONE = re.compile(r"^(?:name|give|list|state|identify|mention|cite) (?:one|a|an|any|a single) (.+)$",
                       re.IGNORECASE)
_NAME_COUNT = re.compile(r"^(?:name|give|list|state|identify|mention|cite) (\d+|two|three|four|five|six|"
                         r"seven|eight|nine|ten) (.+)$", re.IGNORECASE)
_NAME_THE = re.compile(r"^(?:name|give|list|state|identify|mention|cite) (?:(the|some|all) )?(.+)$",
                       re.IGNORECASE)
_WHICH_OF_FOLLOWING = re.compile(r"^which (?:one )?of the following(?: (\w+))? (.+)$", re.IGNORECASE)
_WHAT_HAPPENS = re.compile(r"^what (?:happens|happened|(?:will|would|might|could|can) happen) (?:to (.+?) )?"
                           r"(when|as|if|after|during|in|while|before|once|at) (.+)$", re.IGNORECASE)
_WHAT_HAPPENS_TO = re.compile(r"^what (?:happens|happened|(?:will|would|might|could|can) happen) to (.+)$",
                              re.IGNORECASE)
_FUNCTION = re.compile(r"^what (?:is|are) (the (?:main |primary |major )?(?:function|role|purpose|job)s? "
                       r"of (.+?))(?: (in|during|within) .+)?$", re.IGNORECASE)
_CALLED_WITH_PHRASE = re.compile(r"^what (is|are|was|were) (.+?) ((?:\w+ly |also )*(?:called|known as|"
                                 r"named|termed)) ((?:in|by|among) .+)$", re.IGNORECASE)
_WE_CALL = re.compile(r"^what (?:do|does|did) (?:we|you|people|scientists|they) call (.+)$", re.IGNORECASE)
_TERM_DESCRIBES = re.compile(r"^what (term|word|name) (?:describes|refers to|is used for|means) (.+)$",
                             re.IGNORECASE)
_COPULA_QUESTION = re.compile(r"^(?:what|which) (is|are|was|were) (.+)$", re.IGNORECASE)
_DO_QUESTION = re.compile(r"^(what|which|who|whom) (do|does|did) (.+)$", re.IGNORECASE)
_HOW_MANY = re.compile(r"^how (many|much) (.+)$", re.IGNORECASE)
_HOW_ADJECTIVE = re.compile(r"^how (\w+) (is|are|was|were) (.+)$", re.IGNORECASE)
_WH_AUX = re.compile(r"^(where|when|why|how) (\w+) (.+)$", re.IGNORECASE)
_WHOSE = re.compile(r"^whose (\w+) (.+)$", re.IGNORECASE)
_WHO_COPULA = re.compile(r"^(?:who|whom) (is|are|was|were) (.+)$", re.IGNORECASE)
_WHO = re.compile(r"^(who|what|which) (.+)$", re.IGNORECASE)
_WHICH_NOUN = re.compile(r"^(what|which) (.+)$", re.IGNORECASE)
_YES_NO_QUESTION = re.compile(r"^(is|are|was|were|do|does|did|can|could|will|would|shall|should|may|"
                              r"might|must|has|have|had) (.+)$", re.IGNORECASE)
_IN_SITU = re.compile(r"\b(?:do what|what happens|what|which (?:\w+)(?: of \w+)?)(?=[\s,?]|$)", re.IGNORECASE)
_WH_START = re.compile(r"^(?:what|which|who|whom|whose|when|where|why|how)\b", re.IGNORECASE)
_IMPERATIVE_START = re.compile(r"^(?:name|give|list|state|identify|mention|cite|provide|describe|explain)\b",
                               re.IGNORECASE)
# How a question without a question mark still shows it is one ("what is sonar used for").
_QUESTION_START = re.compile(r"^(?:(?:what|which|who|whom|whose|how)\b|(?:when|where|why) (?:is|are|was|were|do|"
                             r"does|did|can|could|will|would|should|has|have|had)\b|(?:is|are|was|were|do|"
                             r"does|did|can|could|will|would|shall|should|may|might|must|has|have|had) )",
                             re.IGNORECASE)
# "When X happens, what ...?": a fronted clause or phrase before the wh-question proper.
_FRONTED = re.compile(r"^([^,]{3,}), ((?:what|which|who|where|when|why|how)\b.+)$", re.IGNORECASE)
# "In which layer does weather occur?": a preposition before the wh-phrase.
_PREPOSITION_WH = re.compile(r"^(in|during|from|at|to|for|through|on|by|with|into|under) (?:which|what) "
                             r"(.+?) (is|are|was|were|do|does|did|can|could|will|would|should|might|may|"
                             r"must|has|have|had) (.+)$", re.IGNORECASE)
_AUX_START = re.compile(r"^(?:is|are|was|were|do|does|did|can|could|will|would|shall|should|may|might|"
                        r"must|has|have|had)\b", re.IGNORECASE)
_CLAUSE_WORDS = frozenset("is are was were can cannot will must may might should has have had does do "
                          "did equals means becomes".split())
_TIME_POINT = re.compile(r"^(?:\d{3,4}s?|\d+(?:st|nd|rd|th) century|(?:january|february|march|april|may|"
                         r"june|july|august|september|october|november|december|spring|summer|autumn|"
                         r"fall|winter)\b.*)$", re.IGNORECASE)
_CAUSE_START = re.compile(r"^(?:because|since|as|due to|to|in order to|so that)\b", re.IGNORECASE)
_MANNER_START = re.compile(r"^(?:by|through|via|with|using|in|from|on|at)\b", re.IGNORECASE)
_PLACE_START = re.compile(r"^(?:in|on|at|inside|within|near|under|above|below|between|along|across|"
                          r"from|into|onto|to|toward|towards|around|beside|behind|outside|off)\b", re.IGNORECASE)


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
    if lowered.endswith(("ia", "ae", "ra")) and len(lowered) > 4:  # Latin and Greek plurals
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
    return "VERB" in _lemmas(lowered) and _inflect(lowered, "VBN") == lowered and lowered.endswith(
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
    return not lemmas and lowered.endswith(("ive", "ous", "able", "ible", "ful", "less", "ant", "ent"))


def _plural_phrase(phrase):
    """Whether a noun phrase is plural: a conjunction, or a plural head noun."""
    words = phrase.split()
    if " and " in f" {phrase} ":
        return True
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
    return words[0] not in _DETERMINERS and _is_third_person_verb(words[1]) and not _is_base_verb(words[0])


def _capitalize(text):
    return text[:1].upper() + text[1:] if text else text


def _sentence(text):
    """Whitespace collapsed, first letter capitalised, exactly one final full stop."""
    text = _TRAILING_PUNCTUATION.sub("", _WHITESPACE.sub(" ", text).strip())
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
    return words[0] not in _DETERMINERS and words[0] not in _PRONOUNS and not _is_finite_verb(words[0])


def _is_mass_noun(word):
    lowered = word.lower()
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
    return answer


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


def _split_subject(words):
    """Subject and predicate after a fronted copula: "a catalyst | consumed during a reaction"."""
    for index in range(1, len(words)):
        word = words[index].lower()
        if word in ("a", "an", "the") and index < len(words) - 1:
            return words[:index], words[index:]
        if _is_predicate_word(word) and word not in ("a", "an", "the"):
            return words[:index], words[index:]
    return words, []


def _split_verb(words, perfect=False):
    """Subject and verb phrase after a fronted do/modal ("penguins | fly", "a whale | breathe air"),
    or after a fronted has/have/had with ``perfect`` ("the invention | helped people").

    A word that can only be a verb wins over one that is also a noun ("vanes on an electric fan |
    do"); a verb never follows a determiner, a preposition or a possessive.
    """
    is_verb_form = _is_participle if perfect else _is_base_verb
    candidates = [index for index in range(1, len(words))
                  if is_verb_form(words[index]) and not words[index][:1].isupper()
                  and words[index - 1].lower() not in _DETERMINERS | _PREPOSITIONS
                  and not words[index - 1].lower().endswith("'s")]
    if not candidates:
        return None, None
    index = next((i for i in candidates if "NOUN" not in _lemmas(words[i])), candidates[0])
    return words[:index], words[index:]


# --- Shapes ----------------------------------------------------------------------------------
def _when_matches(pattern):
    """A shape ``build(match, answer)`` that applies only where ``pattern`` matches the question."""
    def decorate(build):
        @functools.wraps(build)
        def shape(question, answer):
            match = pattern.match(question)
            return build(match, answer) if match else None
        return shape
    return decorate


def _list_or_single(subject, answer, article_subject=None):
    """"The X include A, B and C." / "One X is A." / "One X is that <clause>." for plural X."""
    if _is_clause(answer):
        return f"one {_singular(_strip_determiner(subject))} is that {answer}"
    if _LIST_ANSWER.search(answer):
        return f"{subject} include {answer}"
    if _is_plural_noun(answer.split()[-1]) and not answer.split()[-1].lower() == answer.split()[-1].upper():
        return f"{subject} are {answer}"
    bare = _strip_determiner(subject)
    first = bare.split()[0].lower() if bare.split() else ""
    if _is_plural_noun(first) or first.endswith("s"):
        return f"one {_singular(bare)} is {answer}"
    return f"one of {subject} is {answer}"


def _answer_is_sentence(question, answer):
    """The answer itself, when it is a full sentence answering a question (not completing one)."""
    if _BLANK.search(question) or not (question.rstrip().endswith("?") or _QUESTION_START.match(question)):
        return None
    words = answer.split()
    if len(words) < 3 or not answer[0].isupper() or not answer.rstrip().endswith((".", "!")):
        return None
    if not any(_is_finite_verb(word.strip(",;:")) for word in words[1:]):
        return None
    return answer


def _blank(question, answer):
    blank = _BLANK.search(question)
    if not blank:
        return None
    if _repeats_stem(question[:blank.start()], answer):
        return answer
    return _BLANK.sub(lambda _: answer, question, count=1)


def _repeats_stem(stem, answer):
    """Whether the answer already starts with the (at least three-word) stem: it is the sentence."""
    if answer[:1].lower() != stem.lstrip()[:1].lower():  # the cheap test first: most answers differ here
        return False
    stem_words = normalize_statement(stem).split()
    return len(stem_words) >= 3 and normalize_statement(answer).split()[:len(stem_words)] == stem_words


def _join_overlapping(stem_words, answer):
    """Stem and answer joined, without the words the answer repeats from the stem's end
    ("... is the concept of" + "the concept of autonomy")."""
    answer_words = answer.split()
    lowered_stem = [word.lower() for word in stem_words]
    lowered_answer = [word.lower() for word in answer_words]
    overlap = next((size for size in range(min(len(stem_words), len(answer_words) - 1), 1, -1)
                    if lowered_stem[-size:] == lowered_answer[:size]), 0)
    return " ".join(stem_words + answer_words[overlap:])


def _in_situ(question, answer):
    if _WH_START.match(question) or _AUX_START.match(question) or _IMPERATIVE_START.match(question):
        return None
    match = _IN_SITU.search(question)
    if not match or len(question[:match.start()].split()) < 2:
        return None
    return question[:match.start()] + answer + question[match.end():]


def _imperative(question, answer):
    if not _IMPERATIVE_START.match(question):
        return None
    question = _TRAILING_PUNCTUATION.sub("", question)
    match = _EXAMPLE.match(question)
    if match:
        if match.group(1).lower() == "examples" or _LIST_ANSWER.search(answer) and len(answer.split()) > 3:
            return f"examples of {match.group(2)} include {answer}"
        return f"an example of {match.group(2)} is {_clause_or_noun(answer, match.group(2))}"
    match = _NAME_ONE.match(question)
    if match:
        return f"one {match.group(1)} is {_clause_or_noun(answer, match.group(1))}"
    match = _NAME_COUNT.match(question)
    if match:
        return f"{match.group(1)} {match.group(2)} are {answer}"
    match = _NAME_THE.match(question)
    if match:
        determiner, subject = match.group(1) or "the", match.group(2)
        if not _plural_phrase(subject):
            return f"{determiner} {subject} is {_clause_or_noun(answer, subject)}"
        if any(word.lower() in _NUMBER_WORDS or word.isdigit() for word in subject.split()):
            return f"the {subject} include {answer}"
        return f"some of the {subject} are {answer}"
    return None


def _clause_or_noun(answer, subject):
    if _is_clause(answer):
        return f"that {answer}"
    return _with_article(answer, subject)


def _completion(question, answer):
    if question.rstrip().endswith("?") or _QUESTION_START.match(question):
        return None
    stem = _TRAILING_PUNCTUATION.sub("", question)
    if _repeats_stem(stem, answer):
        return answer
    if question.rstrip().endswith((".", "!")):
        # A complete sentence before the answer stays one: "X needs food." + "it hunts".
        return f"{stem}. {_capitalize(answer)}"
    words = stem.split()
    # A stem ending in an article agrees with the answer: "... is an" + "queue" -> "is a queue".
    if words and words[-1].lower() in ("a", "an") and answer[:1].isalnum():
        words[-1] = _indefinite_article(answer)
    return _join_overlapping(words, answer)


@_when_matches(_WHICH_OF_FOLLOWING)
def _which_of_following(match, answer):
    first, rest = match.group(1), match.group(2)
    if first and first.lower() not in _AUXILIARIES and not _is_finite_verb(first):
        # "Which of the following statements is true" + a clause: the clause is the statement.
        if _is_clause(answer) and re.match(r"^(is|are) (true|correct|accurate)", rest, re.IGNORECASE):
            return answer
        return f"{answer} {rest}"
    return f"{answer} {first} {rest}" if first else f"{answer} {rest}"


def _what_happens(question, answer):
    match = _WHAT_HAPPENS.match(question)
    if match:
        topic, connective, condition = match.groups()
        outcome = _replace_pronoun(answer, topic) if topic else (
            answer if _is_clause(answer) else f"the result is {answer}")
        return f"{connective} {condition}, {outcome}"
    match = _WHAT_HAPPENS_TO.match(question)
    if match:
        return _replace_pronoun(answer, match.group(1))
    return None


def _replace_pronoun(answer, topic):
    words = answer.split()
    if words and words[0].lower() in ("it", "they"):
        return " ".join([topic] + words[1:])
    return answer if _is_clause(answer) else f"{topic} {answer}"


@_when_matches(_FUNCTION)
def _function(match, answer):
    noun_phrase, owner = match.group(1), match.group(2)
    first = answer.split()[0]
    if first.lower() in ("it", "they"):
        return f"{owner} {answer.split(' ', 1)[1]}"
    second = answer.split()[1] if len(answer.split()) > 1 else ""
    if _is_third_person_verb(first) or (_plural_phrase(owner) and _is_base_verb(first)
                                        and not second.endswith("ing") and not _is_finite_verb(second)):
        return f"{owner} {answer}"
    return f"{noun_phrase}{match.string[match.end(2):]} is {answer}"


@_when_matches(_CALLED_WITH_PHRASE)
def _called_with_phrase(match, answer):
    copula, subject, predicate, phrase = match.groups()
    return f"{subject} {copula.lower()} {predicate} {answer} {phrase}"


@_when_matches(_WE_CALL)
def _we_call(match, answer):
    subject = match.group(1)
    copula = "are" if _plural_phrase(subject) else "is"
    return f"{subject} {copula} called {answer}"


@_when_matches(_TERM_DESCRIBES)
def _term_describes(match, answer):
    return f"the {match.group(1).lower()} for {match.group(2)} is {answer}"


@_when_matches(_COPULA_QUESTION)
def _copula(match, answer):
    copula, rest = match.group(1).lower(), match.group(2)
    if match.string[:5].lower() == "which":
        if copula in ("is", "are"):
            copula = "are" if _plural_phrase(answer) else "is"
        return f"{answer} {copula} {rest}"
    words = rest.split()
    predicate_start = _predicate_suffix_start(words)
    if predicate_start is not None:
        subject, predicate = " ".join(words[:predicate_start]), " ".join(words[predicate_start:])
        return f"{subject} {copula} {predicate} {_with_article(answer, subject)}"
    if copula in ("are", "were") and words[0].lower() == "the":
        return _list_or_single(rest, answer)
    if _is_third_person_verb(answer.split()[0]) and copula == "is":
        return f"{rest} {answer}"
    if _head_noun(words).lower() in _PROPOSITION_HEADS and _is_clause(answer) and "=" not in answer:
        return f"{rest} states that {answer}"
    return f"{rest} {copula} {_with_article(answer, rest)}"


def _predicate_suffix_start(words):
    """Where a question-final predicate starts ("... | also known as"), or None."""
    last = words[-1].lower()
    if not (last in _PREPOSITIONS or _is_participle(last)) or len(words) < 2:
        return None
    index = len(words) - 1
    while index > 1:
        previous = words[index - 1].lower()
        if (previous in _PREPOSITIONS and previous not in ("into", "between", "through")
                or previous in _PREDICATE_ADJECTIVES or previous in _PREDICATE_NOUNS
                or previous in ("a", "an", "also") or _is_adverb(previous)
                or _is_participle(previous) and words[index].lower() in _PREPOSITIONS):
            index -= 1
            continue
        break
    if words[index].lower() in _PREPOSITIONS and index == len(words) - 1 and last not in ("of", "to", "as"):
        return None
    return index


@_when_matches(_DO_QUESTION)
def _do_question(match, answer):
    """"What does X state?", "What do acids release in solution?", "When did the wall fall?"."""
    auxiliary, rest = match.group(2).lower(), match.group(3).split()
    subject, verb_phrase = _split_verb(rest)
    if not subject:
        return None
    subject_text = " ".join(subject)
    verb = _agree(verb_phrase[0], _plural_phrase(subject_text) or auxiliary == "do", auxiliary == "did")
    complement = verb_phrase[1:]
    if verb_phrase[0].lower() == "do":
        return f"{subject_text} {answer}" if not answer.split()[0].lower() in ("it", "they") else \
            f"{subject_text} {' '.join(answer.split()[1:])}"
    if complement and complement[-1].lower() in _PREPOSITIONS:
        return f"{subject_text} {verb} {' '.join(complement)} {answer}"
    link = "that " if _is_clause(answer) and not answer.lower().startswith("that ") else ""
    return " ".join([subject_text, verb, link + answer] + complement)


def _verb_of_noun_phrase(words):
    """Index of the finite verb after the noun phrase that opens ``words`` ("organ | pumps"), or None.

    A verb cannot follow a determiner, preposition or possessive, and it agrees with the head:
    a base form ("affect") needs a plural head, an -s form ("pumps") a singular one.
    """
    for index in range(1, len(words)):
        word, previous = words[index].lower(), words[index - 1].lower()
        if previous in _DETERMINERS or previous in _PREPOSITIONS or previous.endswith("'s"):
            continue
        if word in _AUXILIARIES:
            return index
        if not _is_finite_verb(word) or words[index][:1].isupper():
            continue
        plural_head = _plural_phrase(" ".join(words[:index]))
        if _is_third_person_verb(word) and not plural_head:
            return index
        if word == _inflect(word, "VBP") and word != _inflect(word, "VBZ") and plural_head:
            return index
        if word == _inflect(word, "VBD") and word != _inflect(word, "VBP"):
            return index
    return None


def _opens_with_verb(words):
    """Whether "what" is the subject ("What carries oxygen"), not a determiner ("What gas ...")."""
    first = words[0].lower()
    if first in _AUXILIARIES or not _is_finite_verb(first):
        return False
    following = words[1].lower() if len(words) > 1 else ""
    return "NOUN" not in _lemmas(first) or following in _DETERMINERS or following in _PRONOUNS or not following


@_when_matches(_WHICH_NOUN)
def _which_noun(match, answer):
    """"What organ pumps blood?" -> "The organ that pumps blood is the heart."; with "which" the
    answer becomes the subject: "Which process results in X?" -> "Growth results in X."."""
    wh_word, words = match.group(1).lower(), match.group(2).split()
    if words[0].lower() in _AUXILIARIES:
        # "Which would be the result of X?" -> "A would be the result of X."
        return " ".join([answer] + words)
    if _opens_with_verb(words):
        return None
    verb_index = _verb_of_noun_phrase(words)
    if verb_index is None:
        return None
    noun_phrase = " ".join(words[:verb_index])
    verb, rest = words[verb_index].lower(), words[verb_index + 1:]
    if wh_word == "which":
        # Adverbs inside the wh-phrase stay: "Which object most likely has" -> "A most likely has".
        adverbs = next((words[index:verb_index] for index in range(verb_index)
                        if words[index].lower() in _DEGREE_ADVERBS or _is_adverb(words[index])), [])
        return " ".join([answer] + adverbs + [verb] + rest)
    if verb in ("do", "does", "did"):
        subject, verb_phrase = _split_verb(rest)
        if not subject:
            return None
        subject_text = " ".join(subject)
        inflected = _agree(verb_phrase[0], _plural_phrase(subject_text) or verb == "do", verb == "did")
        relative = " ".join([subject_text, inflected] + verb_phrase[1:])
    elif verb in _COPULAS:
        relative = " ".join(rest)
    else:
        relative = " ".join(["that", verb] + rest)
    subject = f"the {noun_phrase} {relative}"
    if _plural_phrase(noun_phrase):
        return _list_or_single(subject, answer)
    return f"{subject} is {_with_article(answer, noun_phrase)}"


@_when_matches(_WHO)
def _what_subject(match, answer):
    """"What carries oxygen in the blood?" -> "Oxygen in the blood is carried by hemoglobin."."""
    words = match.group(2).split()
    if not _opens_with_verb(words):
        return None
    verb, rest = words[0], " ".join(words[1:])
    if match.group(1).lower() == "what" and rest and not rest.split()[0].lower() in (
            _PREPOSITIONS | {"that", "if", "whether"}) and not _is_clause(rest):
        past = verb.lower() != _inflect(verb, "VBZ") and verb.lower() == _inflect(verb, "VBD")
        plural = _plural_phrase(rest)
        copula = ("were" if plural else "was") if past else ("are" if plural else "is")
        return f"{rest} {copula} {_inflect(verb, 'VBN')} by {answer}"
    return f"{answer} {verb} {rest}"


@_when_matches(_PREPOSITION_WH)
def _preposition_wh(match, answer):
    """"In which layer does weather occur?" + "troposphere" -> "Weather occurs in troposphere."."""
    preposition, _, auxiliary, rest = match.groups()
    return _fronted_auxiliary_clause(auxiliary.lower(), rest.split(), f"{preposition.lower()} {answer}")


@_when_matches(_WHO_COPULA)
def _who_copula(match, answer):
    return f"{answer} {match.group(1).lower()} {match.group(2)}"


@_when_matches(_WHOSE)
def _whose(match, answer):
    return f"{answer}'s {match.group(1)} {match.group(2)}"


@_when_matches(_HOW_MANY)
def _how_many(match, answer):
    quantifier, words = match.group(1).lower(), match.group(2).split()
    auxiliary_index = next((index for index, word in enumerate(words) if word.lower() in _AUXILIARIES), None)
    if auxiliary_index is None or auxiliary_index == 0:
        return " ".join([answer] + _missing_noun(answer, words[:1], quantifier) + words[1:])
    noun_phrase, auxiliary, rest = words[:auxiliary_index], words[auxiliary_index].lower(), words[auxiliary_index + 1:]
    counted = " ".join([answer] + _missing_noun(answer, noun_phrase, quantifier))
    if auxiliary in _COPULAS and rest and rest[0].lower() == "there":
        return " ".join(["there", auxiliary, counted] + rest[1:])
    if auxiliary in _COPULAS:
        return " ".join([counted, auxiliary] + rest)
    subject, verb_phrase = _split_verb(rest)
    if not subject:
        return None
    subject_text = " ".join(subject)
    verb = _agree(verb_phrase[0], _plural_phrase(subject_text) or auxiliary == "do", auxiliary == "did") \
        if auxiliary in ("do", "does", "did") else f"{auxiliary} {verb_phrase[0]}"
    return " ".join([subject_text, verb, counted] + verb_phrase[1:])


def _missing_noun(answer, noun_phrase, quantifier="many"):
    """The counted noun, unless the answer already names it ("8 legs") or a measure ("2 litres")."""
    if not noun_phrase or (quantifier == "much" and len(answer.split()) > 1):
        return []
    answer_lower = answer.lower()
    head = noun_phrase[-1].lower()
    lemma = _lemmas(head).get("NOUN", (head,))[0]
    return [] if head in answer_lower or lemma in answer_lower else noun_phrase


def _how_adjective(question, answer):
    match = _HOW_ADJECTIVE.match(question)
    if not match or match.group(1).lower() in ("many", "much", "is", "are", "was", "were", "do", "does", "did"):
        return None
    adjective, copula, subject = match.groups()
    if "VERB" in _lemmas(adjective) and "ADJ" not in _lemmas(adjective):
        return None
    return f"{subject} {copula.lower()} {answer} {adjective}"


@_when_matches(_WH_AUX)
def _wh_adverbial(match, answer):
    """where/when/why/how with an auxiliary: the answer goes where the adverbial belongs."""
    wh_word, auxiliary, rest = match.group(1).lower(), match.group(2).lower(), match.group(3).split()
    if auxiliary not in _AUXILIARIES:
        return None
    return _fronted_auxiliary_clause(auxiliary, rest, _adverbial(wh_word, answer), wh_word == "where")


def _fronted_auxiliary_clause(auxiliary, rest, adverbial, after_verb=True):
    """The clause behind a fronted auxiliary in declarative order, with the adverbial after the
    verb (a place, when the verb has no object) or at the end."""
    if auxiliary in _COPULAS:
        subject, predicate = _split_subject(rest)
        if after_verb and predicate and _is_participle(predicate[0]):
            return " ".join(subject + [auxiliary, predicate[0], adverbial] + predicate[1:])
        return " ".join(subject + [auxiliary] + predicate + [adverbial])
    subject, verb_phrase = _split_verb(rest, perfect=auxiliary in ("has", "have", "had"))
    if not subject:
        return None
    subject_text = " ".join(subject)
    if auxiliary in ("do", "does", "did"):
        verb = _agree(verb_phrase[0], _plural_phrase(subject_text) or auxiliary == "do", auxiliary == "did")
    else:
        verb = f"{auxiliary} {verb_phrase[0]}"
    if after_verb and (len(verb_phrase) == 1 or (verb_phrase[1].lower() in _PREPOSITIONS
                                                 and not _is_infinitive(verb_phrase[1:]))):
        return " ".join([subject_text, verb, adverbial] + verb_phrase[1:])
    return " ".join([subject_text, verb] + verb_phrase[1:] + [adverbial])


def _is_infinitive(words):
    """"to boil" in "begin to boil": the adverbial goes after the whole verb, not inside it."""
    return len(words) > 1 and words[0].lower() == "to" and _is_base_verb(words[1])


def _adverbial(wh_word, answer):
    if wh_word == "where":
        return answer if _PLACE_START.match(answer) or _is_clause(answer) else f"in {answer}"
    if wh_word == "when":
        return f"in {answer}" if _TIME_POINT.match(answer) else answer
    if wh_word == "why":
        return answer if _CAUSE_START.match(answer) else f"because {answer}"
    if _MANNER_START.match(answer) or _is_clause(answer):
        return answer
    first = answer.split()[0].lower()
    return f"by {answer}" if first.endswith("ing") and "VERB" in _lemmas(first) else f"through {answer}"


@_when_matches(_YES_NO_QUESTION)
def _yes_no(match, answer):
    auxiliary, rest = match.group(1).lower(), match.group(2)
    words = rest.split()
    polarity = _YES_NO.match(answer)
    if not polarity:
        # "Are noble gases reactive or unreactive?" + "highly reactive": the answer picks one.
        if "or" not in words[2:] or auxiliary not in _COPULAS:
            return None
        return " ".join(words[:words.index("or", 2) - 1] + [auxiliary, answer])
    negative = polarity.group(1).lower() in _NEGATIVE_ANSWERS
    explanation = polarity.group(2).strip()
    statement = _affirm(auxiliary, words, negative)
    if statement is None:
        return None
    if explanation and not _echoes(explanation, match.string):
        statement = f"{statement}; {explanation}"
    return statement


def _affirm(auxiliary, words, negative):
    if auxiliary in _COPULAS:
        subject, predicate = _split_subject(words)
        return " ".join(subject + [auxiliary + (" not" if negative else "")] + predicate)
    if auxiliary in ("has", "have", "had"):
        subject, predicate = _split_subject(words)
        return " ".join(subject + [auxiliary + (" not" if negative else "")] + predicate)
    subject, verb_phrase = _split_verb(words)
    if not subject:
        return None
    if auxiliary in _MODALS:
        modal = ("cannot" if auxiliary == "can" else f"{auxiliary} not") if negative else auxiliary
        return " ".join(subject + [modal] + verb_phrase)
    if negative:
        return " ".join(subject + [f"{auxiliary} not"] + verb_phrase)
    plural = auxiliary == "do"
    verb = _agree(verb_phrase[0], plural, auxiliary == "did")
    return " ".join(subject + [verb] + verb_phrase[1:])


def _echoes(explanation, question):
    """Whether an explanation after yes/no only repeats the question ("yes, it is consumed")."""
    question_words = set(question.lower().split())
    return all(word in question_words or word in _PRONOUNS or word in _AUXILIARIES or word in _NEGATIONS
               for word in explanation.lower().strip(" .").split())


def _fallback(question, answer):
    return f'The answer to "{question.strip()}" is {answer}'


# Shapes of the question's last sentence, in the order they are tried.
_QUESTION_SHAPES = (
    _which_of_following, _what_happens, _function, _called_with_phrase, _we_call, _term_describes,
    _preposition_wh, _who_copula, _whose, _how_many, _how_adjective, _wh_adverbial, _copula, _do_question, _which_noun,
    _what_subject, _yes_no,
)


# --- Entry points ----------------------------------------------------------------------------
def _clean_answer(answer):
    """Whitespace collapsed, final punctuation dropped, a capitalised leading article or pronoun
    lowered (the answer usually lands mid-sentence; the sentence start is capitalised later)."""
    answer = _TRAILING_PUNCTUATION.sub("", _WHITESPACE.sub(" ", answer).strip())
    first, _, rest = answer.partition(" ")
    if rest and first in ("A", "An", "The", "It", "They", "This", "These", "Their", "Its"):
        return f"{first.lower()} {rest}"
    return answer


def _convert_question(question, answer):
    """The statement for a single question sentence, or None."""
    question = _TRAILING_PUNCTUATION.sub("", question)
    first_clause = _SECOND_QUESTION.match(question)
    if first_clause and _WH_START.match(question):
        question = first_clause.group(1)
    adverb = _APPROXIMATELY.search(question)
    if adverb and _WH_START.match(_APPROXIMATELY.sub("", question).strip()):
        question = _APPROXIMATELY.sub("", question).strip()
        answer = f"{(adverb.group(1) or adverb.group(2)).lower()} {answer}"
    for shape in _QUESTION_SHAPES:
        statement = shape(question, answer)
        if statement:
            return statement
    fronted = _FRONTED.match(question)
    if fronted:
        statement = _convert_question(fronted.group(2), answer)
        if statement:
            return f"{fronted.group(1)}, {_lower_first_article(statement)}"
    return None


def _lower_first_article(text):
    first, _, rest = text.partition(" ")
    return f"{first.lower()} {rest}" if first in ("The", "A", "An", "It", "They") else text


def rule_statement(question, answer):
    """One declarative sentence for ``question`` answered by ``answer``."""
    check_text(question, "question")
    check_text(answer, "answer")
    question = _WHITESPACE.sub(" ", question).strip()
    cleaned_answer = _clean_answer(answer)
    if not cleaned_answer:
        return _sentence(_fallback(question, answer.strip()))
    kept = _answer_is_sentence(question, answer.strip())
    if kept:
        return _sentence(kept)
    filled = _blank(question, cleaned_answer)
    if filled:
        return _sentence(filled)
    sentences = _SENTENCE_SPLIT.split(question)
    context, last = " ".join(sentences[:-1]), sentences[-1]
    statement = None
    for shape in (_in_situ, _imperative, _completion, _convert_question):
        statement = shape(last, cleaned_answer)
        if statement:
            break
    if not statement:
        return _sentence(_fallback(question, cleaned_answer))
    return _sentence(f"{context} {_capitalize(statement)}" if context else statement)


def rule_statements(questions, answers):
    """``rule_statement`` over two equally long lists."""
    questions = check_text_list(questions, "questions")
    answers = check_text_list(answers, "answers")
    check_same_length(questions, "questions", answers, "answers")
    return [rule_statement(question, answer) for question, answer in zip(questions, answers)]


def naive_statement(question, answer):
    """The baseline the converter is measured against: the blank filled, or the answer appended."""
    question, answer = _WHITESPACE.sub(" ", question).strip(), _clean_answer(answer)
    if _BLANK.search(question):
        return _sentence(_BLANK.sub(lambda _: answer, question, count=1))
    return _sentence(f"{_TRAILING_PUNCTUATION.sub('', question)} {answer}")
