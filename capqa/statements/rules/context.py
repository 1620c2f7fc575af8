"""What surrounds the question proper: context sentences in front of it, labels such as
"Passage:" or "Question:", instructions ("Read the passage."), answer options ("A) ... B) ..."),
and pronouns in the question that the context names ("She won ..." -> "Marie Curie won ...")."""

import re
from typing import List, NamedTuple, Optional, Tuple

from capqa.statements.rules.answer_sentences import split_sentences
from capqa.statements.rules.conditions import is_task
from capqa.statements.rules.howto import is_imperative
from capqa.statements.rules.lexicon import (ARTICLES, AUXILIARIES, CONDITION_WORDS, DEFINITE_ADJECTIVES, DEMONSTRATIVES,
                                            DETERMINERS, EXTRAPOSING_VERBS, FEMALE_NAMES, FEMALE_TITLES, MALE_NAMES,
                                            MALE_TITLES, MODALS, OPTION_LABEL_PATTERN, PREPOSITIONS, RELATIVE_PRONOUNS,
                                            WHITESPACE)
from capqa.statements.rules.morphology import capitalize, is_finite_verb, plural_phrase
from capqa.statements.rules.parser import parse

_LABEL = re.compile(r"(?:^|(?<=\s))(?:passage|context|paragraph|text|background|story|article|question|q)\s*:\s*",
                    re.IGNORECASE)
_QUESTION_LABEL = re.compile(r"(?:^|(?<=\s))(?:question|q)\s*:\s*", re.IGNORECASE)
_INSTRUCTION = re.compile(r"^(?:read|answer|use|consider|look at|based on)\b.*\b(?:passage|text|question|paragraph|"
                          r"context|following|below|story|article)\b[^.]*[.:]?$", re.IGNORECASE)
_INSTRUCTION_CHARS = 200  # an instruction is short; a longer sentence is context, whatever its words
_ANSWER_WORD = re.compile(r"\byour answers?\b", re.IGNORECASE)  # "Express your answer in base 8."
_TRAILING_INSTRUCTION = re.compile(r"^(?:answer|respond|reply|be|keep|give|explain|use|please|think|show|"
                                  r"justify|only)\b[^.?!]{0,60}[.!]?$", re.IGNORECASE)
# An option marker: "A)", "(B)", "c.", "D:" after a space, followed by the option's text; a bracket may
# touch the text ("A)12 B)15"); a labelled one: "Sentence A: x", "Option B: x" (its label word goes with it).
_OPTION_MARKER = re.compile(rf"(?:^|(?<=\s))(?:(?:{OPTION_LABEL_PATTERN})\s+(?=[A-Ha-h]:))?\(?([A-Ha-h])"
                            r"(?:[).:]\s+|\)(?=[^\s)]))", re.IGNORECASE)
# Unlettered options after the question or its label ("...? 1. x 2. y", "Choices: - x - y"): numbered
# or bulleted items, read only where they follow a "?" or a ":" (a count or a dash in a sentence is no option).
_NUMBER_MARKER = re.compile(r"(?:^|(?<=\s))\(?([1-9])[.)]\s+")
_BULLET_MARKER = re.compile(r"(?:^|(?<=\s))([-•*])\s+")
_LIST_OPENING = re.compile(r"[?:]$")
_SUBJECT_PRONOUN = re.compile(r"\b(he|she|it|they|his|her|its|their)\b", re.IGNORECASE)
_PERSONAL = frozenset(("he", "she", "his", "her"))


class QuestionParts(NamedTuple):
    context: list      # the sentences before the question, labels and instructions removed
    question: str      # the question proper, options removed
    options: dict      # option letter (lower-case) -> option text


# A text after its label ('Claim: "Tokyo is ..."', "Sentence 2: ..."): what the question asks about, no instruction.
_LABELLED_TEXT = re.compile(r"^[A-Z][a-z]+(?:\s+\d)?\s*:\s+\S")
_TRAILING_LABEL = re.compile(r"(?<!\S)(?:options|choices|answer choices|answers?|a)\s*+:\s*+$", re.IGNORECASE)
# The answer's format after a yes/no question: "Q: Is X Y? A: yes or no", "Does P entail H? yes or no".
# ("X. True or false?" keeps its verdict prompt: it says what is judged; after "A:" it only says the format.)
_ANSWER_FORMAT = re.compile(r"(?<=\?)\s*+(?:(?:(?:a|answer)\s*+:\s*+)?(?:answer\s+)?(?:yes\s*+(?:or|/)\s*+no)|"
                            r"(?:a|answer)\s*+:\s*+(?:true\s*+(?:or|/)\s*+false))\W*$", re.IGNORECASE)
_LEADING_INSTRUCTION = re.compile(r"^(?:(?:choose|select|pick|circle|give) the (?:correct|best|right|most appropriate) "
                                  r"(?:answer|option|choice|response)s?|(?:complete|finish) the (?:sentence|statement)|"
                                  r"fill in the blanks?|multiple choice|answer the following question)\s*[:.!-]?\s+",
                                  re.IGNORECASE)
# Items of an unlettered list of choices: short, separated by commas and "or".
_LIST_SEPARATOR = re.compile(r"\s*,\s*(?:or\s+)?|\s+or\s+")
_WH_WORDS = frozenset("what which who whom whose where when why how".split())
_COMPARATIVES = frozenset("more less fewer better worse earlier later first last older younger bigger smaller "
                          "larger longer shorter taller higher lower heavier lighter faster slower".split())


def split_question(text: str) -> QuestionParts:
    """Context sentences, the question proper and its answer options."""
    text, options = _take_options(_unquoted(WHITESPACE.sub(" ", text).strip()))
    text = _TRAILING_LABEL.sub("", _ANSWER_FORMAT.sub("", text))
    labelled = list(_QUESTION_LABEL.finditer(text))
    if labelled and text[labelled[-1].end():].strip():
        context_text, question = text[:labelled[-1].start()], text[labelled[-1].end():].strip()
    else:
        sentences = split_sentences(text)
        if not sentences:  # only labels and options ("Answer:", "Options: A) x B) y"): no question proper
            return QuestionParts([], "", options)
        sentences, notes = _without_trailing(sentences)
        context_text, question = " ".join(sentences[:-1] + notes), _LABEL.sub("", sentences[-1]).strip()
    context = [sentence for sentence in split_sentences(_LABEL.sub("", context_text))
               if len(sentence) > _INSTRUCTION_CHARS or not _INSTRUCTION.match(sentence)]
    question = _LEADING_INSTRUCTION.sub("", question)
    question, listed = _take_listed_choices(question, context)
    if listed and not question.endswith("?") and context and context[-1].endswith("?"):
        question = context.pop()  # "Which of these planets is the largest? Mercury, Earth, Jupiter"
    return QuestionParts(context, question, options)


def _without_trailing(sentences: List[str]) -> Tuple[List[str], List[str]]:
    """The sentences up to the question proper, and the notes that followed it. After a question
    ("... ?") or a task ("Find X."), an instruction ("Answer briefly.", "Express your answer as a common fraction.": an
    imperative) is no part of it and goes; an imperative about "your answer" ("Enter your answer in
    the form $(r,\\theta)$.") goes after a task too. A bracketed note after the question goes when it
    instructs ("(Do not use a calculator!)"), and is a premise that joins the context when it states
    ("(Rotations are treated as the same.)", "(Note that terms may not be rearranged.)")."""
    notes: List[str] = []
    while len(sentences) > 1 and not sentences[-1].endswith("?"):
        last = sentences[-1]
        # an instruction after a task is no part of it either ("..., then find all $n$. Enter them separated by commas.")
        after_question = sentences[-2].endswith("?") or (is_task(sentences[-2]) and not is_task(last))
        if last.startswith("(") and last.rstrip(".!").endswith(")"):
            note = _premise(last.rstrip(".!")[1:-1].strip())
            if note:
                notes.insert(0, note)
        elif not (after_question and _TRAILING_INSTRUCTION.match(last)) and not (
                (after_question or _ANSWER_WORD.search(last)) and not _LABELLED_TEXT.match(last)
                and is_imperative(parse(last))):
            break
        sentences = sentences[:-1]
    return sentences, notes


def _premise(note: str) -> str:
    """What a note says of the problem: a statement as it is, the clause an imperative states
    ("Note that X" -> "X"), and nothing for an instruction ("Do not use a calculator!")."""
    words = parse(note)
    negative = len(words) > 2 and words[0].dep == "aux" and words[1].dep == "neg" and words[2].tag == "VB" and not any(
        word.dep.startswith("nsubj") for word in words)  # "Do not use a calculator!"
    if negative:
        return ""
    if not is_imperative(words):
        return note
    if len(words) > 2 and words[1].lower == "that":
        return capitalize(note[note.index(" that ") + len(" that "):]) if " that " in note else ""
    return ""


def _unquoted(text: str) -> str:
    """A prompt quoted as a whole, with its inner quotes doubled as a CSV cell writes them
    ('"What film ... tag line ""On The Air""?"'), without the quoting."""
    if len(text) > 2 and text[0] == '"' and text[-1] == '"' and text[1:-1].count('""') % 2 == 0 and (
            '""' in text or '"' not in text[1:-1]):
        return text[1:-1].replace('""', '"')
    return text


def _take_listed_choices(question: str, context: list):
    """The question without an unlettered list of choices after a colon ("Which of these is a
    mammal: shark, dolphin or trout?") or making up the whole last sentence ("... largest?
    Mercury, Earth, Jupiter, Mars"); a comparison keeps its choices ("Which is heavier: X or Y?"
    + X -> "X is heavier than Y"). Returns (question, whether a list was taken)."""
    if context and context[-1].endswith("?") and not question.endswith("?") and "__" not in question:
        items = [item for item in _LIST_SEPARATOR.split(question.rstrip(" .")) if item]
        if len(items) >= 2 and all(len(item.split()) <= 4 for item in items) and not any(
                is_finite_verb(word.lower()) for item in items for word in item.split()[1:]):
            return "", True
    words = {word.lower().strip("?,.:") for word in question.split()}
    if "__" in question or not (question.endswith("?") or words & _WH_WORDS):
        return question, False  # a sentence with blanks lists its own items
    if words & _COMPARATIVES or any(word.endswith("er") and word in _COMPARATIVES for word in words):
        return question, False
    colon = question.rfind(": ")
    if colon > 0:
        items = [item for item in _LIST_SEPARATOR.split(question[colon + 2:].rstrip(" ?.")) if item]
        if len(items) >= 2 and all(len(item.split()) <= 5 for item in items) and (
                " or " in question[colon:] or len(items) >= 3):
            return question[:colon].rstrip() + "?", True
    return question, False


def _take_options(text):
    """The text without a trailing run of options, and the options by key: lettered ("A) x B) y
    ...", by lower-case letter) anywhere, numbered ("1. x 2. y", by digit) or bulleted ("- x - y",
    by letter in order) after a question or a label's colon."""
    taken = _option_run(text, _OPTION_MARKER, lambda mark: ord(mark.lower()) - ord("a"))
    for marker, order in ((_NUMBER_MARKER, lambda mark: int(mark) - 1), (_BULLET_MARKER, None)):
        if taken[1]:
            break
        listed = _option_run(text, marker, order)
        # the list follows the question ("Steps: 1. x 2. y. How long ...?" lists no options)
        if listed[1] and _LIST_OPENING.search(listed[0]) and not any("?" in item for item in listed[1].values()):
            taken = listed
    return taken


def _option_run(text, marker_pattern, order):
    """The text without the last run of markers in order (``order`` gives a marker's place: 0
    starts a run; None: every marker is the next, as bullets are) that ends the text, and the
    options it marks. Each of the last ``_OPTION_SCAN`` first markers starts a run of the markers
    after it, looked for among the next ``_OPTION_SCAN``: a text of a million "a)" stays linear."""
    markers = list(marker_pattern.finditer(text))
    place = order or (lambda mark: 0)
    starts = [index for index, marker in enumerate(markers) if place(marker.group(1)) == 0 and marker.start() > 0]
    for start in starts[-_OPTION_SCAN:]:  # options end the text: the last first markers are the candidates
        first = markers[start]
        run = [first]
        for marker in markers[start + 1:start + 1 + _OPTION_SCAN]:
            if order is None or order(marker.group(1)) == order(run[-1].group(1)) + 1:
                run.append(marker)
        if len(run) < 2:
            continue
        ends = [marker.start() for marker in run[1:]] + [len(text)]
        keys = [marker.group(1).lower() if order else chr(ord("a") + index) for index, marker in enumerate(run)]
        options = {key: _TRAILING_LABEL.sub("", text[marker.end():end]).strip(" ,;")
                   for key, marker, end in zip(keys, run, ends)}
        return _TRAILING_LABEL.sub("", text[:first.start()]).strip(), options
    return text, {}


_OPTION_SCAN = 32


_POSSESSIVE_END = re.compile(r"['’]s$")
# The first words of a phrase fronted before the subject ("In the morning,", "Every day,", "If it rains,").
_FRONTED_OPENINGS = PREPOSITIONS | CONDITION_WORDS | DETERMINERS | DEFINITE_ADJECTIVES
# An "it" that stands for an infinitive after it: "does it take him to get back", "is it possible to".
_EXTRAPOSED_IT = re.compile(r"\bit\s++(?:(?:%s)\b[^?.]*?\bto\s++\w|(?:is|was|be)\s++\w+\s++to\s++\w)"
                            % "|".join(sorted(EXTRAPOSING_VERBS)), re.IGNORECASE)


def resolve_pronoun(question: str, context: list) -> str:
    """The question with its first third-person pronoun replaced by the subject of the context
    sentence it most likely refers to ("his dog" -> "Tom's dog"); unchanged without one."""
    if not context:
        return question
    match = _SUBJECT_PRONOUN.search(question)
    if not match:
        return question
    pronoun = match.group(1).lower()
    if pronoun == "it" and _EXTRAPOSED_IT.match(question, match.start()):
        return question  # no referent: "it" is the infinitive's place-holder
    antecedent = _antecedent(pronoun, context)
    if not antecedent:
        return question
    possessive = pronoun in ("his", "its", "their") or (pronoun == "her" and _precedes_noun(question, match.end()))
    # "their" for "Darrell and Allen's (ages)": the antecedent's own "'s" is the possessive already
    replacement = f"{antecedent}'s" if possessive and not _POSSESSIVE_END.search(antecedent) else antecedent
    if match.start() > 0 and replacement.split()[0] in ("The", "A", "An"):
        replacement = replacement[0].lower() + replacement[1:]
    return question[:match.start()] + replacement + question[match.end():]


def _precedes_noun(text, position):
    following = text[position:].split()[:1]
    return bool(following) and following[0].isalpha() and following[0].lower() not in ("?", "to", "with", "for")


def _antecedent(pronoun, context):
    """The first context subject that agrees with ``pronoun``: a name for he/she, a plural for
    they, a singular for it."""
    for sentence in context:
        subject = _subject_of(sentence)
        if not subject or _SUBJECT_PRONOUN.fullmatch(subject):
            continue
        plural = plural_phrase(subject)
        if pronoun in ("they", "their"):
            if plural:
                return subject
        elif pronoun in _PERSONAL:
            if subject[0].isupper() and subject.split()[0].lower() not in DETERMINERS and not plural:
                person = _POSSESSIVE_END.sub("", _owner(subject))  # "Uriah's book bag is ...": "he" is Uriah
                if _gender(person) in ("", _PRONOUN_GENDER[pronoun]):
                    return person
                # "Lisa met John at the park. What is his job?": the nearest person of the pronoun's gender
                return _person_of_gender(context, _PRONOUN_GENDER[pronoun])
        elif pronoun == "its" and _names_person(subject):
            thing = _object_of(sentence, subject)  # "Tom bought a bike. What was its price?": the bike's
            if thing:
                return thing
        elif not plural:
            return _owner(subject) if pronoun == "its" else subject
    return None


_PRONOUN_GENDER = {"he": "m", "his": "m", "she": "f", "her": "f"}
# A person's name in a sentence: an optional title, then capitalised words ("Mr. Brown", "Mary", "John Smith").
_NAME = re.compile(r"\b(?:(?:Mr|Mrs|Ms|Miss|Sir|Lady|King|Queen|Prince|Princess|Madam)\.?\s)?[A-Z][a-z]+(?:\s[A-Z][a-z]+)*")


def _gender(person: str) -> str:
    """"m" or "f" when a title or a given name of the lexicon says it, else ""."""
    first = person.split()[0].lower()
    if first in MALE_TITLES or first in MALE_NAMES:
        return "m"
    if first in FEMALE_TITLES or first in FEMALE_NAMES:
        return "f"
    return ""


def _person_of_gender(context: list, gender: str) -> Optional[str]:
    """The name nearest the question (the last context sentence's last first) of ``gender``."""
    for sentence in reversed(context):
        for name in reversed(_NAME.findall(sentence)):
            if _gender(name) == gender:
                return name
    return None


def _names_person(subject: str) -> bool:
    """Whether a subject is a person's name ("Tom", "Kate's brother", "Mr. Brown"): capitalised,
    with no determiner; "its" never refers to one."""
    return subject[0].isupper() and subject.split()[0].lower() not in DETERMINERS


# Where an object's noun phrase ends: a preposition, a clause's word or a time adverb after it.
_OBJECT_ENDS = PREPOSITIONS | RELATIVE_PRONOUNS | frozenset("and or but last next every each yesterday today".split())


def _object_of(sentence: str, subject: str) -> Optional[str]:
    """The noun phrase with a determiner right after the subject's verb (and a name it is given
    to: "gave Mary a book"), made definite: "Tom bought a bike." -> "the bike"."""
    words = sentence[sentence.find(subject) + len(subject):].split()
    start = next((index for index, word in enumerate(words[:4]) if word.lower() in DETERMINERS - DEMONSTRATIVES
                  or word.lower() in PREPOSITIONS), None)  # past the verb group and a name ("has given Mary")
    if start is None or start == 0 or words[start].lower() in PREPOSITIONS:
        return None  # "went to the store": a place, no object
    words = words[start:]
    phrase = [words[0]]
    for word in words[1:]:
        if word.lower() in _OBJECT_ENDS or not word[:1].isalpha():
            break
        phrase.append(word.rstrip(".,;:!?"))
        if word != phrase[-1]:
            break
    if len(phrase) < 2:
        return None
    if phrase[0].lower() in ARTICLES:
        phrase[0] = "the"
    return " ".join(phrase)


_OWNED = re.compile(r"^(?P<owner>.+?)['’]s\s++\S")


def _owner(subject: str) -> str:
    """The owner of a possessed subject ("Joe" of "Joe's income", "A rectangle" of "A rectangle's
    length"): what "his" / "its" after it owns with it ("Joe's income is $3000 and his expenses ...",
    "A rectangle's length is twice its width"); the subject itself when nothing owns it."""
    owned = _OWNED.match(subject)
    return owned.group("owner") if owned else subject


def _subject_of(sentence):
    """The words before the sentence's first verb ("The Amazon River | flows ...")."""
    words = sentence.split()
    start = 0
    for index in range(1, len(words)):
        word, previous = words[index], words[index - 1].lower()
        if previous.endswith(",") and words[start].lower() in _FRONTED_OPENINGS:
            start = index  # "In the morning, she gives ...": a fronted phrase is no part of the subject
        elif start == 0 and words[0].lower() in PREPOSITIONS and word[:1].isupper() and words[index - 1].islower():
            start = index  # "At the arcade Dave won ...": a name after the fronted phrase's own noun opens the subject
        if word[:1].isupper() or previous in DETERMINERS or word.endswith(","):
            continue
        if is_finite_verb(word.lower()):
            if start == 0 and words[0].lower() in PREPOSITIONS:
                return None  # "For Halloween Debby and her sister combined ...": where the subject starts is unknown
            return " ".join(words[start:index]).strip(",") if index > start else None
    return None


# The questioner's first person, as the statement's reader: "I have 10 liters" -> "You have 10
# liters", "How old is my brother if I am 10?" -> "... your brother ... you are 10". The
# answerer's "I" (in the answer) stays; "we" may be anyone's and stays; quoted text is never changed.
_QUESTIONER_WORDS = {"i": "you", "me": "you", "my": "your", "mine": "yours", "myself": "yourself", "i'm": "you're",
                     "i’m": "you’re", "i've": "you've", "i’ve": "you’ve", "i'd": "you'd", "i’d": "you’d",
                     "i'll": "you'll", "i’ll": "you’ll"}
_FIRST_PERSON = re.compile(r"(?<![\w'’])(?:(?P<verb_before>[Aa]m|[Ww]as)\s++(?P<subject>I)(?![\w'’])|(?P<word>I(?:['’](?:m|ve|d|ll))?"
                           r"|[Mm]e|[Mm]y|[Mm]ine|[Mm]yself)(?![\w'’])(?P<after>\s++(?:am|was)(?![\w'’]))?)")
# (a single-quoted text opens after no letter and closes before none: "I'm" and "dogs' owners" are no quotes)
_QUOTED = re.compile(r"\"[^\"\n]{0,400}+\"|“[^”\n]{0,400}+”|(?<![\w'’])'[^'\n]{1,400}+'(?!\w)|‘[^’\n]{0,400}+’")
_TITLE_AFTER = re.compile(r"\s++[A-Z]")


def questioner_swapped(text: str) -> str:
    """``text`` with the questioner's "I", "me", "my" ... as "you", "your" (and "I am", "am I",
    "I was" as "you are", "are you", "you were"), outside quotes and titles ("I Will Always Love
    You" stays)."""
    if not _MAY_HAVE_FIRST_PERSON.search(text) or text == text.lower():
        return text  # a lower-case search query cannot tell a title ("i can't take my eyes off of you") from it
    out, last = [], 0
    for quoted in _QUOTED.finditer(text):
        out.append(_swapped(text[last:quoted.start()]))
        out.append(quoted.group(0))
        last = quoted.end()
    out.append(_swapped(text[last:]))
    return "".join(out)


_MAY_HAVE_FIRST_PERSON = re.compile(r"(?<![\w'’])(?:I|[Mm]e|[Mm]y|[Mm]ine|[Mm]yself)(?![\w])")


_OPENERS = frozenset("if when and but so then because while after before as since although though once what which "
                     "who whom whose where why how is are was were do does did can could will would shall should may "
                     "might must have has had am".split())


def _after_name(segment: str, position: int) -> bool:
    """Whether the word before ``position`` is a capitalised word that is no opener ("War" in
    "World War I", not "Can" in "Can I ...")."""
    before = segment[:position].rstrip()
    previous = before.rsplit(None, 1)[-1] if before else ""
    return previous[:1].isupper() and previous.lower().strip(",;:") not in _OPENERS and not previous.endswith(
        (",", ";", ":", ".", "?", "!"))


def _swapped(segment: str) -> str:
    def replace(match: re.Match) -> str:
        if match.group("subject"):
            verb = match.group("verb_before")
            swapped_verb = "are" if verb.lower() == "am" else "were"
            return f"{swapped_verb.capitalize() if verb[0].isupper() else swapped_verb} you"  # "am I" -> "are you"
        word = match.group("word")
        if word == "I" and not match.group("after") and (_TITLE_AFTER.match(segment, match.end()) or _after_name(
                segment, match.start()) or segment[match.end():match.end() + 1] in (".", ")")):
            return match.group(0)  # "I Will Always Love You", "World War I", "I. Perfect competition": no person
        swapped = _QUESTIONER_WORDS[word.lower()]
        # "I", "I'm" are capitalised wherever they stand: "you", "you're" only where they open the text
        if word[:1].isupper() and not word.startswith("I") or (word.startswith("I") and match.start() == 0):
            swapped = swapped[:1].upper() + swapped[1:]
        after = match.group("after")
        if after:
            swapped += " are" if after.strip() == "am" else " were"
        return swapped

    return _FIRST_PERSON.sub(replace, segment)


# The system's "you" of a question, as the answer's speaker: "Do you have feelings?" + "No, I am a
# language model ..." -> "I do not have feelings". Only a question with no questioner's "I" in it
# (then "you" can only be the system), and only where the answer speaks as "I" (a verb after it).
_SYSTEM_ADDRESSED = re.compile(r"(?<![\w'’])(?:you|your|yours|yourself)(?![\w'’])", re.IGNORECASE)
# The answer says what it is or can do ("I am", "I don't", "I can't", "I have"), not what it would
# advise ("I would recommend ..." to a generic "Should you ...?").
_SPEAKS_AS_I = re.compile(r"(?<![\w'’])I(?:['’](?:m|ve)(?![\w'’])|\s++(?:am|was|do|did|don['’]t|didn['’]t|do not|"
                          r"did not|can|cannot|can['’]t|have|will not|won['’]t)(?![\w'’]))")
_SECOND_PERSON = re.compile(r"(?<![\w'’])(?P<word>you(?:['’](?:re|ve|d|ll))?|your|yours|yourself)(?![\w'’])"
                            r"(?P<after>\s++(?:are|were|aren['’]t|weren['’]t)(?![\w'’]))?", re.IGNORECASE)
_SPEAKER_WORDS = {"you": "I", "you're": "I'm", "you’re": "I’m", "you've": "I've", "you’ve": "I’ve", "you'd": "I'd",
                  "you’d": "I’d", "you'll": "I'll", "you’ll": "I’ll", "your": "my", "yours": "mine",
                  "yourself": "myself"}
_SPEAKER_VERBS = {"are": "am", "were": "was", "aren't": "am not", "aren’t": "am not", "weren't": "wasn't",
                  "weren’t": "wasn’t"}


def speaks_to_system(question: str, answer: str) -> bool:
    """Whether ``question`` addresses the answering system as "you" (it has no "I" of its own
    asker) and ``answer`` speaks as "I" outside quotes."""
    unquoted = _QUOTED.sub("", answer)
    return bool(_SYSTEM_ADDRESSED.search(question)) and not _MAY_HAVE_FIRST_PERSON.search(
        _QUOTED.sub("", question)) and bool(_SPEAKS_AS_I.search(unquoted))


def says_you(text: str) -> bool:
    """Whether ``text`` has "you" or "your" outside quotes (an answer's own "you" is the reader)."""
    return bool(_SYSTEM_ADDRESSED.search(_QUOTED.sub("", text)))


def speaker_swapped(text: str) -> str:
    """``text`` (built from the question's words) with the system's "you", "your" as the answer's
    "I", "my" (or "me" where "you" is an object: before no verb), outside quotes."""
    out, last = [], 0
    for quoted in _QUOTED.finditer(text):
        out.append(_SECOND_PERSON.sub(_speaker_word, text[last:quoted.start()]))
        out.append(quoted.group(0))
        last = quoted.end()
    out.append(_SECOND_PERSON.sub(_speaker_word, text[last:]))
    return "".join(out)


def _speaker_word(match: re.Match) -> str:
    word, after = match.group("word"), match.group("after")
    lowered = word.lower()
    swapped = _SPEAKER_WORDS[lowered]
    if lowered == "you" and not after:
        following = match.string[match.end():].split(None, 1)
        verb = following[0].strip(",.;:").lower() if following else ""
        opening = not match.string[:match.start()].strip()
        if not opening and not (verb in AUXILIARIES or verb in MODALS or verb.endswith(("n't", "n’t")) or (
                verb in ("cannot", "never", "also", "only", "just")) or is_finite_verb(verb)):
            swapped = "me"  # "They do not pay you well": an object
    if swapped == "my" and match.start() == 0:
        swapped = "My"
    if after:
        swapped += " " + _SPEAKER_VERBS[after.strip().lower()]
    return swapped
