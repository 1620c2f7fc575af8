"""An answer that is a course of action (an imperative: "Take lessons and practise every day.")
to a question that asks for one ("Best way to learn guitar as an adult?", "What is the easiest
way to X?", "Tips for a first job interview?"): the imperative is the infinitive its subject is,
"The best way to learn guitar as an adult is to take lessons ...", never an imperative left
standing without the question's frame."""

from typing import Optional, Sequence

from capqa.statements.rules.analysis import Frame, render
from capqa.statements.rules.declarative import join
from capqa.statements.rules.howto import is_imperative
from capqa.statements.rules.lexicon import COPULAS, COURSE_NOUNS, FINITE_TAGS, PREPOSITIONS, WH_TAGS
from capqa.statements.rules.morphology import lemmas_of, plural_phrase
from capqa.statements.rules.parser import Parse, Word, parse
from capqa.statements.rules.prompt_statements import fragment_subject


def course_statement(frame: Optional[Frame], words: Parse, content: str) -> Optional[str]:
    """"The best way to X is to VP" for an imperative answer to "What is the best way to X?" or
    the noun-phrase query "Best way to X?"; None for any other question or answer."""
    opening = content.lower().split()[:2]
    if not any("VERB" in lemmas_of(word) for word in opening):
        return None  # no verb to open an imperative (after a lead adverb: "Gently fold ..."): nothing to parse
    if frame is not None:
        partitive = frame.wh == "which" and frame.phrase[:1] and frame.phrase[0].lower == "of"
        if not (frame.wh == "what" and not frame.phrase or partitive) or frame.auxiliary not in COPULAS or (
                not frame.subject or frame.rest):
            return None  # "Which of the following is the next step?" asks for a course as "What is ...?" does
        subject_words, subject, copula = frame.subject, render(frame.subject), frame.auxiliary
    else:
        if any(word.tag in _CLAUSE_TAGS for word in words):
            return None  # "..., enzymes must do what?": a clause, not a noun phrase to name the course
        subject = fragment_subject(words)
        if subject is None:
            return None
        subject_words, copula = words, "are" if plural_phrase(subject) else "is"
    if not asks_course(subject_words) or not is_imperative(parse(content)):
        return None  # the answer is parsed only for a question that asks for a course of action
    # "The thing to do is put it in a compost pile": after "do" the infinitive is bare, as in a pseudo-cleft
    marker = "" if any(word.tag == "TO" and following.lower == "do" for word, following in zip(
        subject_words, subject_words[1:])) else "to"
    return join(subject, copula, marker, content[:1].lower() + content[1:])


# A finite verb, a modal or a wh-word: the query is a clause of its own.
_CLAUSE_TAGS = FINITE_TAGS | WH_TAGS


def asks_course(words: Sequence[Word]) -> bool:
    """Whether a noun phrase names a course of action: a head noun that is one ("the best way to
    learn", "tips for X", "the cure"), or any noun with "to do" after it ("the first thing to do").
    An infinitive alone is not enough: "the best books to learn Python" asks for books, and a title
    ("Automate the Boring Stuff") would be read as an imperative."""
    head = None
    for word in words:
        if word.lower in PREPOSITIONS or word.tag == "TO":
            break
        if word.tag.startswith("NN"):
            head = word
    if head is None:
        return False
    if any(word.tag == "TO" and following.lower == "do" for word, following in zip(words, words[1:])):
        return True
    return bool(set(lemmas_of(head.lower).get("NOUN", (head.lower,))) & COURSE_NOUNS)
