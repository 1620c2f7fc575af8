"""Goals and the steps that reach them: how-to questions, imperative titles and code tasks.

A prompt that names a goal rather than asking for a fact:

- "How do I / you / we / one VP?", "How can I VP?", "How to VP?": the goal is VP;
- "To VP," or "To VP" (a goal to complete), "To VP, you can" (the goal and its modal);
- an imperative title or search query: "Make outdoor pillow.", "Neatly wrap up an extension
  cord.", "convert int to string" (its first word a verb in its base form, no subject).

An answer that reaches it with steps (imperatives: "Fold the paper in half.", "Don't use glue —
press tape on the jar.", "1. Wrap the cord ... 2. Secure it ...") is stated in the goal's frame,
with the reader as the subject of every step: "To VP, you fold the paper in half. You secure
it ...". An answer that is only code, or code after a short lead ("With pandas:", "In Python:"),
reads "You can VP with CODE". The questioner's "my" in the goal becomes "your". Other answers
(a full clause: "Dryer sheets work well") are left to the other builders.
"""

import functools
import re
from typing import List, NamedTuple, Optional, Sequence, Tuple

from capqa.statements.rules.code import CODE_ONLY, after_call, calls_masked, is_code, is_code_line
from capqa.statements.rules.lexicon import (ABSTRACT_SUFFIXES, AUX_START, DEFINITE_ADJECTIVES, DETERMINERS, FINITE_TAGS,
                                            MASS_NOUNS, MODALS, PREPOSITIONS, PRONOUNS, WH_START)
from capqa.statements.rules.morphology import indefinite_article, is_finite_verb, lemmas_of
from capqa.statements.rules.parser import Parse, parse
from capqa.statements.rules.sentences import sentence_head

_HOW = re.compile(r"^how\s++(?:(?:do|can|should|would|could|might|does|must)\s++(?:i|you|we|one|someone|a person)"
                  r"|to)\s++(?P<goal>\S.*)$", re.IGNORECASE)
_TO = re.compile(r"^to\s++(?P<goal>[a-z]\S*+\s.*?)(?:,\s*+you(?P<modal>\s++(?:can|could|should|must|may|might|"
                 r"need\s++to|have\s++to|would))?)?$", re.IGNORECASE)
_END = re.compile(r"(?<![\s,?.!:;])[\s,?.!:;]++$")  # starts only where the run starts: linear
_QUESTIONER = {"my": "your", "me": "you", "myself": "yourself", "mine": "yours", "i": "you", "i'm": "you're",
               "our": "your", "us": "you", "ourselves": "yourselves"}
_QUESTIONER_WORD = re.compile(r"(?<![\w'])(?:my|me|myself|mine|i|i'm|our|us|ourselves)(?![\w'])", re.IGNORECASE)
_NEGATIVE_STEP = re.compile(r"^(?:don[’']t|do\s++not|never)\s++(?P<rest>\S.*)$", re.IGNORECASE)
_LEAD_ADVERB = re.compile(r"^(?P<adverb>(?:(?:then|next|first|finally|afterwards|after that|also|now|lastly|second|"
                          r"third|meanwhile)\s*+,?|(?:after|before|when|while|once|if|for|in|with)\s[^,]{1,60}+,)"
                          r"\s++)(?P<rest>\S.*)$", re.IGNORECASE)  # "Then, place it", "After a shower, hang it"
_CODE_LEAD = re.compile(r"^(?P<lead>(?:with|using|in|via)\s++[^:\n]{1,40}?)\s*+:\s*+(?P<code>\S.*)$",
                        re.IGNORECASE | re.DOTALL)
_STEP_BREAK = re.compile(r"(?<!\s)\s*+;\s*+|(?<!\s)\s++(?:[—–]|--)\s++")
_JOINED_STEP = re.compile(r"(,\s++(?:and\s++)?|(?<!\s)\s++and\s++)([A-Z][a-z]++)\b")
_PREPOSITIONS = frozenset("to by in on at of for from with into onto as via per".split())
_DETERMINERS = frozenset("a an the my your his her its our their this that these those".split())
# A sentence whose subject is code: "math.sqrt(x) returns ...", "sys.executable is ...".
_CODE_PATH = r"(?:[\w.]*+\([^\s)]*+\)[\w.()]*+|\w++(?:\.\w++)++)"
_CODE_SUBJECT = re.compile(rf"^{_CODE_PATH}\s++[a-z]")
# Code, then a relative clause that says what it does: "Color.RED.name, which gives 'RED'".
_CODE_THEN_CLAUSE = re.compile(rf"^{_CODE_PATH},\s++(?:which|that)\s")
_SUBJECTS = frozenset(("nsubj", "nsubjpass", "expl", "csubj"))


class Goal(NamedTuple):
    """What the prompt asks to reach: the verb phrase and the modal the prompt gives it."""
    text: str        # "make tissue paper window decorations"
    modal: str = ""  # "can" in "To quarter biscuits, you can"
    stem: bool = False  # "To VP," or "To VP, you can": the prompt is a sentence to complete


def goal_of(proper: str, words: Optional[Parse]) -> Optional[Goal]:
    """The goal ``proper`` names (see the module docstring), or None; ``words``: its parse, for
    an imperative title (None when the prompt was not parsed)."""
    text = _END.sub("", proper.strip())
    how = _HOW.match(text)
    if how:
        goal = _questioner_swapped(how.group("goal"))
        return Goal(with_articles(goal) if text == text.lower() else goal)  # "how to get current date"
    to = _to_goal(text)
    if to:
        modal = " ".join((to.group("modal") or "").split())
        return Goal(_questioner_swapped(to.group("goal")), modal, stem=True)
    if words and not proper.rstrip().endswith("?") and not _awaits_complement(text) and (
            is_imperative(words) or _verb_query(text)):
        return Goal(with_articles(_questioner_swapped(text[:1].lower() + text[1:])))
    return None


def _awaits_complement(text: str) -> bool:
    """Whether a prompt (its end marks dropped) ends in a preposition ("... in terms of:", "...
    such as"): it waits for its complement, a sentence to complete and no goal whose steps the
    answer gives, even where its first word could be a bare verb ("Interest theories of the good
    define goodness in terms of:")."""
    words = text.rstrip(" …").split()  # "in terms of …": the end marks leave an ellipsis character
    return bool(words) and words[-1].lower() in PREPOSITIONS


def _to_goal(text: str) -> Optional[re.Match]:
    """``_TO``'s match of a prompt that opens with a goal ("To VP", "To VP, you can"), or None
    where "to" opens something else: a preposition before a wh-word ("To which of the phenomena
    do humans contribute?"), or a goal that is only the lead of a stem with a subject of its own
    ("To raise revenue, owners should": the stem is completed, not read as the reader's steps)."""
    to = _TO.match(text)
    if not to or WH_START.match(to.group("goal")) or _OWN_SUBJECT_STEM.search(to.group("goal")):
        return None
    return to


# A goal's comma, then a subject and its modal that end the prompt ("..., owners should").
_OWN_SUBJECT_STEM = re.compile(rf",\s*+[^\s,][^,]*?\s(?:{'|'.join(sorted(MODALS))})$", re.IGNORECASE)


def with_articles(goal: str) -> str:
    """A telegraphic goal ("save list to file", "Make outdoor pillow", "get current date") with the
    articles English needs: before each bare singular count noun phrase after the verb or a
    preposition, "the" when it is one of a kind ("the current date", "the name of ...") and "a" or
    "an" otherwise ("save a list to a file"). A goal that has a determiner anywhere is written
    with its articles and stays as it is; mass and abstract nouns ("soap scum", "encryption"),
    plurals, names the lexicon does not know ("json", "sql") and "line by line" take none."""
    words = goal.split(" ")
    if len(words) < 2 or any(word.lower() in DETERMINERS or word.lower() in PRONOUNS for word in words):
        return goal
    out, index = words[:1], 1
    while index < len(words):
        end = index
        while end < len(words) and _noun_phrase_word(words[end], first=end == index):
            end += 1
        if end > index:
            following = words[end].lower() if end < len(words) else ""
            # "line by line", "step by step": the repeated noun takes no article, nor ends the phrase before it
            twice = end + 1 < len(words) and following in _PREPOSITIONS and words[end + 1].lower() == words[end - 1]
            phrase = words[index:end - 1] if twice else words[index:end]
            if phrase and (index == 1 or words[index - 1].lower() in _PREPOSITIONS) and _count_singular(phrase[-1]):
                definite = (following == "of" and not twice) or phrase[0].lower() in DEFINITE_ADJECTIVES
                out.append("the" if definite else indefinite_article(" ".join(phrase)))
            out += phrase
            if twice:
                out += words[end - 1:end + 2]
                index = end + 2
            else:
                index = end
            continue
        out.append(words[index])
        index += 1
    return " ".join(out)


def _noun_phrase_word(word: str, first: bool) -> bool:
    """A lower-case word that can stand in a noun phrase: a noun or an adjective the lexicon knows,
    or a word it does not know (a name such as "json"), not a preposition nor an adverb."""
    if not word.isalpha() or not word.islower() or word in _PREPOSITIONS:
        return False
    lemmas = lemmas_of(word)
    if not lemmas:
        return True
    if word.endswith("ed") and "VERB" in lemmas:
        return True  # a participle before its noun: "an enumerated value", "a sorted list"
    return bool({"NOUN", "ADJ"} & set(lemmas)) and not (first and set(lemmas) == {"ADJ", "ADV"} and word.endswith("ly"))


def _count_singular(word: str) -> bool:
    nouns = lemmas_of(word).get("NOUN")
    gerund = word.endswith("ing") and lemmas_of(word).get("VERB", (word,))[0] != word  # "clustering", not "string"
    return bool(nouns) and nouns[0] == word and word not in MASS_NOUNS and not word.endswith(ABSTRACT_SUFFIXES) and (
        not gerund)


def _verb_query(text: str) -> bool:
    """A lower-case search query that opens with a verb and its object ("save list to file",
    "set working directory"), which the tagger, reading telegraphic words, often takes for a
    noun phrase: a base-form verb, then a noun, an adjective, a determiner or a word the lexicon
    does not know (a name: "json"), not a verb form of its own, nor a preposition
    ("string to date", "group by count" are noun phrases); three words at least ("scatter plot"),
    unless the lexicon knows the first word only as a verb ("encode url", "connect to sql")."""
    words = text.split()
    if text != text.lower() or len(words) < 2 or not _base_verb(words[0]):
        return False
    second = words[1]
    if set(lemmas_of(words[0])) == {"VERB"} and not is_finite_verb(second):
        return True  # a word the lexicon knows only as a verb opens a task: "encode url", "connect to sql"
    lemmas = lemmas_of(second)
    finite = is_finite_verb(second) and "NOUN" not in lemmas  # "string" in "convert string to number" is a noun
    return len(words) >= 3 and second not in _PREPOSITIONS and not finite and (
        second in _DETERMINERS or not lemmas or bool({"NOUN", "ADJ"} & set(lemmas)))  # "json": a name


@functools.lru_cache(maxsize=65536)
def may_name_goal(proper: str) -> bool:
    """Whether ``proper`` may name a goal, before it is parsed (so that the answer's steps are
    parsed in the batch)."""
    text = proper.strip()
    if _HOW.match(text) or _to_goal(_END.sub("", text)):
        return True
    first = text.split(" ", 1)[0].strip(",.").lower()
    return not text.endswith("?") and _base_verb(first)


def code_sentences(sentences: Sequence[str]) -> Optional[List[str]]:
    """An answer whose first sentence has code for its subject ("`bool(n)` is False for 0"),
    kept as it is for a task or a title: it states what the code does, and the title's words
    are no subject ("One convert int to bool is that ...")."""
    return list(sentences) if sentences and (_CODE_SUBJECT.match(sentences[0]) or _call_subject(sentences[0])) else None


def _call_subject(sentence: str) -> bool:
    """Whether a call is the sentence's subject: a finite verb follows it ("scipy.stats.binom(n,
    p) gives ..."; "int[] a = ..." is a declaration)."""
    rest = after_call(sentence).split(" ", 1)
    return bool(rest[0]) and rest[0].islower() and is_finite_verb(rest[0])


def topic_code(proper: str, sentences: Sequence[str], answer: str) -> Optional[List[str]]:
    """A search query that names a topic, not a task ("scatter plot", "priority queue",
    "initializing array"), answered with code as a whole: "For a scatter plot, you can use:
    CODE" (the query is no subject: "The scatter plot include CODE" said nothing). None for a
    question or a long query (``goal_of`` has found no task in it)."""
    text = _END.sub("", proper.strip())
    words = text.split()
    if proper.rstrip().endswith("?") or not sentences or not is_code(answer) or not words or len(
            words) > _MAX_TOPIC_WORDS or WH_START.match(text) or AUX_START.match(text):
        return None
    text = text[:1].lower() + text[1:]
    first = words[0].lower()
    gerund = first.endswith("ing") and lemmas_of(first).get("VERB", (first,))[0] != first  # not "string"
    # A gerund's object takes its articles as a verb's ("initializing an array"), a noun phrase as one
    topic = with_articles(text) if gerund else with_articles(f"use {text}")[len("use "):]
    with_code = ":" if "```" in answer else ""  # a block of code follows a colon
    return [f"for {topic}, you can use{with_code} {' '.join(sentences)}"]


_MAX_TOPIC_WORDS = 6


def steps_texts(proper: str, sentences: Sequence[str], answer: str) -> List[str]:
    """The texts ``steps_statement(goal, sentences, answer)`` parses, when ``proper`` may name a
    goal: the head of each sentence as a step reads it (after its lead adverb and its "don't"),
    and of the parts a dash or a semicolon may split it into (so that a batch parses them with
    the rest, not round by round); none for an answer that is code."""
    if not may_name_goal(proper) or not sentences or _code_answer(sentences, answer):
        return []
    return [text for sentence in sentences for text in _split_texts(sentence)]


def steps_decide(proper: str, sentences: Sequence[str], answer: str) -> bool:
    """Whether the answer's steps (``steps_statement``) are likely to make the statement, so that
    what the other builders would parse is not parsed, as far as can be told before a parse: a
    goal seen without its parse ("How do I", "To X", "convert int to string") and an answer
    that is code or opens with a verb a step can open with."""
    if not sentences or not _goal_seen(proper):
        return False
    return _code_answer(sentences, answer) or _may_be_step(_step_text(sentences[0]))


@functools.lru_cache(maxsize=65536)
def _goal_seen(proper: str) -> bool:
    """Whether ``goal_of(proper, words)`` finds a goal whatever the parse ``words`` (kept by
    question: a question has many answers)."""
    text = _END.sub("", proper.strip())
    return bool(_HOW.match(text) or _to_goal(text) or (not proper.rstrip().endswith("?") and _verb_query(text)))


def _split_texts(sentence: str) -> List[str]:
    """The texts ``_split_steps(sentence)`` and the steps it makes parse: the sentence's own when
    it is not split, and, when a break may split it, its two parts' and those of the rest's
    split (which of them are read depends on the parses)."""
    texts = _with_reader_texts([_step_text(sentence)])
    parts = _STEP_BREAK.split(sentence, maxsplit=1)
    if len(parts) == 2:
        texts += _with_reader_texts([_step_text(parts[1]), _step_text(parts[0])])
        # The rest is split only after two steps (``_split_steps``)
        if _may_be_step(_step_text(parts[1])):
            if _may_be_step(_step_text(parts[0])):
                texts += _split_texts(parts[1][:1].upper() + parts[1][1:])
    return texts


def _with_reader_texts(texts: List[str]) -> List[str]:
    """``texts`` and, for each that may be a step, the text ``_imperative_step`` parses besides."""
    return texts + [_with_reader(text) for text in texts if _may_be_step(text)]


def _may_be_step(text: str) -> bool:
    """Whether ``text`` may parse as a step, before it is parsed: a verb in its base form first,
    or after an adverb ("just cut"), as ``is_imperative`` wants it."""
    words = [word.strip(",.;:!?\"'()").lower() for word in text.split()[:2]]
    if words and (words[0].endswith("ly") or words[0] in _STEP_ADVERBS):
        words = words[1:]
    return bool(words) and (words[0] == "be" or _base_verb(words[0]))


# Adverbs a step may open with before its verb ("just cut", "also add"), besides those in -ly.
_STEP_ADVERBS = frozenset("just also only always never still even first then now again".split())


def _step_text(sentence: str) -> str:
    """The text ``_as_step(sentence)`` parses: the head of the sentence after its lead adverbs,
    or of what follows its "don't", its code read as "it" (code's pieces parse as names: "Use
    sorted(d.items())" would be no imperative)."""
    text = sentence.strip()
    adverb = _LEAD_ADVERB.match(text)
    if adverb:
        return _step_text(adverb.group("rest"))
    negative = _NEGATIVE_STEP.match(text)
    return sentence_head(calls_masked(negative.group("rest") if negative else text))


def _code_answer(sentences: Sequence[str], answer: str) -> bool:
    """Whether the answer is code, or code after a short lead or before a clause on it, which
    ``steps_statement`` states without reading steps."""
    lead = _CODE_LEAD.match(sentences[0])
    return bool(CODE_ONLY.match(answer) or (len(sentences) == 1 and is_code_line(sentences[0])) or (
        lead and "`" in answer and len(sentences) == 1) or ("`" in answer and _CODE_THEN_CLAUSE.match(sentences[0])))


def steps_statement(goal: Goal, sentences: Sequence[str], answer: str) -> Optional[List[str]]:
    """The answer's sentences in the goal's frame, or None when the answer neither gives steps
    nor is code. ``sentences``: the answer's claims (its first reduced to its content);
    ``answer``: the answer as written (for its code)."""
    if not sentences:
        return None
    if CODE_ONLY.match(answer) or (len(sentences) == 1 and is_code_line(sentences[0])):
        with_code = "with:" if "```" in answer else "with"  # a block of code follows a colon
        return [f"you {goal.modal or 'can'} {goal.text} {with_code} {' '.join(sentences)}"]
    if "`" in answer and _CODE_THEN_CLAUSE.match(sentences[0]):
        # "Color.RED.name, which gives 'RED'": the code, and what the answer says of it
        return [f"you {goal.modal or 'can'} {goal.text} with {sentences[0]}"] + list(sentences[1:])
    lead = _CODE_LEAD.match(sentences[0])
    if lead and "`" in answer and len(sentences) == 1:
        opening = lead.group("lead")
        if opening.lower().startswith("in "):
            return [f"{opening}, you {goal.modal or 'can'} {goal.text} with: {lead.group('code')}"]
        return [f"you {goal.modal or 'can'} {goal.text} {opening[:1].lower()}{opening[1:]}: {lead.group('code')}"]
    sentences = [part for sentence in sentences for part in _split_steps(sentence)]
    steps = [_as_step(sentence) for sentence in sentences]
    if steps[0] is None:
        return None
    front, step = steps[0]
    out = [f"to {goal.text}, {front[:1].lower()}{front[1:]}you {goal.modal + ' ' if goal.modal else ''}{step}"]
    for sentence, made in zip(sentences[1:], steps[1:]):
        out.append(f"{made[0]}you {made[1]}" if made is not None else sentence)
    return out


def _split_steps(sentence: str) -> List[str]:
    """"Don't use glue — press tape on the jar" -> two steps: a clause after a dash or a
    semicolon is a sentence of its own when it is an imperative."""
    parts = _STEP_BREAK.split(sentence, maxsplit=1)
    if len(parts) == 2 and _as_step(parts[1]) is not None and _as_step(parts[0]) is not None:
        return [parts[0]] + _split_steps(parts[1][:1].upper() + parts[1][1:])
    if len(parts) == 2 and _as_step(sentence) is None and _as_step(parts[0]) is not None:
        # "use a BehaviorSubject and read it; a plain Observable has none": the step, then a claim
        return [parts[0], parts[1][:1].upper() + parts[1][1:]]
    return [sentence]


def _as_step(sentence: str) -> Optional[Tuple[str, str]]:
    """(a fronted adverb, the imperative with its verb lower-cased, ready to follow "you"):
    ("Then, ", "place it ..."), ("", "should not use glue") for "Don't use glue"; None when the
    sentence is no imperative."""
    text = sentence.strip()
    adverb = _LEAD_ADVERB.match(text)
    if adverb:
        made = _as_step(adverb.group("rest"))
        front = adverb.group("adverb")
        return None if made is None else (front[:1].upper() + front[1:], made[1])
    negative = _NEGATIVE_STEP.match(text)
    if negative:
        rest = negative.group("rest")
        return ("", f"should not {rest[:1].lower()}{rest[1:]}") if _imperative_step(_step_text(text)) else None
    if not _imperative_step(_step_text(text)):
        return None
    first = text.split(" ", 1)[0]
    lowered = first.lower() if first[1:].islower() or len(first) == 1 else first
    rest = _JOINED_STEP.sub(lambda match: match.group(1) + _lowered_verb(match.group(2)), text[len(first):])
    if lowered == "be":
        return "", "should be" + rest
    return "", lowered + rest


def _imperative_step(text: str) -> bool:
    """Whether a step's text (``_step_text``) is an imperative: by its own parse, or, where the
    small tagger misreads a bare verb first ("Spray/NN with water", "Draw/VB ghost/nsubj faces/VBZ
    ..."), by the parse of the clause with the reader as its subject: an imperative's verb is the
    one that takes "you" ("you spray with water")."""
    if is_imperative(parse(text)):
        return True
    if not _may_be_step(text):
        return False
    words = parse(_with_reader(text))
    if not (len(words) > 2 and words[1].tag in ("VBP", "VB") and words[0].dep == "nsubj" and words[0].head == words[1].i):
        return False
    # The main clause is the reader's: the verb that takes "you", or one whose subject is "you" too
    # ("buy a pass, so you can go ..."); not a claim of its own ("use X and read it; a plain
    # Observable has none" is a step, then a claim)
    root = next((word for word in words if word.dep == "ROOT"), words[1])
    return root.i == words[1].i or all(word.lower == "you" for word in words if word.head == root.i and word.dep in _SUBJECTS)


def _with_reader(text: str) -> str:
    """A step's text with "you" as its subject, its verb lowered ("Spray ..." -> "you spray ...")."""
    first, _, rest = text.partition(" ")
    return f"you {first.lower() if first[1:].islower() else first} {rest}"


def _lowered_verb(word: str) -> str:
    """A step's capital verb inside a list of steps joined as one ("put the egg in, Wait ...")."""
    return word.lower() if _base_verb(word.lower()) else word


def is_imperative(words: Parse) -> bool:
    """Whether a parse is an imperative: a verb in its base form first (after adverbs), and no
    subject or finite verb of its own (the tagger's "Toast/NNP" and "Chill/NNP" are verbs when
    the lexicon knows them as verbs and nothing else is the clause's verb)."""
    index = 0
    while index < len(words) and words[index].tag in ("RB", ",") and words[index].dep != "ROOT":
        index += 1  # a lead adverb ("Gently fold ..."); an "adverb" that is the root is the verb
    if index >= len(words) or not words[index].text[:1].isalpha():
        return False
    first = words[index]
    if any(word.dep in _SUBJECTS for word in words[index:]) and not (
            first.tag == "VB" and first.dep == "ROOT"):
        return False
    if len(words) - index < 2 or not (first.lower == "be" or _base_verb(first.lower)):
        return False  # "fungi": one word, and no verb the lexicon knows, is no step
    if first.tag == "VB":
        return True
    rest = words[index + 1:]
    if any(word.tag in FINITE_TAGS for word in rest[:4]):
        return False
    following = rest[0] if rest else None
    # The tagger reads a title's capital verb as a name or a noun ("Toast/NNP"), and as an adverb
    # or adjective when it is the clause's root before an object ("Sort/RB a dict by value")
    mistagged = first.tag in ("NNP", "NN", "VBP", "VBD") or (first.tag in ("RB", "JJ") and first.dep == "ROOT")
    return following is not None and following.tag in ("DT", "PRP$", "PRP", "NN", "NNS", "RP", "JJ") and (
        mistagged and len(words) >= 3)


def _base_verb(word: str) -> bool:
    lemmas = lemmas_of(word)
    return word in lemmas.get("VERB", ()) and word not in _NOT_STEPS


# Base-form verbs that open noun phrases and statements more often than steps.
_NOT_STEPS = frozenset("be have do is are was were will can may might must shall should would could "
                       "need dare ought".split())


def _questioner_swapped(goal: str) -> str:
    """The questioner's "my", "me", "I" in a goal become the reader's ("your", "you")."""
    return _QUESTIONER_WORD.sub(lambda match: _cased(_QUESTIONER[match.group(0).lower()], match.group(0)), goal)


def _cased(word: str, model: str) -> str:
    return word.capitalize() if model[:1].isupper() and model.lower() != "i" else word
