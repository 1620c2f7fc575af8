"""An option that is a clause or a bare verb phrase, put into the question's frame.

An exam's options are often sentences ("(C) Planetary days will become shorter.") or verb
phrases ("(C) blow up a beach ball"). Kept alone, a clause drops the question's frame ("Which is
the most likely effect of X?": the effect is the claim), and put in a subject's place as it is, it
makes no sentence ("Blow up a beach ball could be done ..."). Here the option becomes a noun
phrase the frame can take: a clause or verb phrase as a subject becomes a gerund phrase ("A
construction crew building an iron bridge shows ...", "Blowing up a beach ball could be done
..."), and a clause after "Which is the N?" becomes "that CLAUSE" ("The most likely effect of X
is that planetary days will become shorter."). A question that asks only which statement is true
("Which statement best describes X?", "Which is a fact about X?", "Which would happen next?") keeps
the option's own sentence, which is the claim it asks for.
"""

from typing import Dict, List, Optional

from capqa.statements.rules.analysis import Frame
from capqa.statements.rules.lexicon import (COPULAS, EVENT_VERBS, NOMINAL_SUBJECT_DEPS, POSITIVE_VERDICTS,
                                            STATEMENT_NOUNS, TRUTH_WORDS, strip_trailing)
from capqa.statements.rules.morphology import inflect, is_base_verb, is_finite_verb, lemmas_of
from capqa.statements.rules.parser import Parse, Word, parse

_FINITE_TAGS = ("VBZ", "VBD", "VBP")
_MIN_PHRASE_WORDS = 2  # with the full stop the option was parsed with


def is_option_text(content: str, options: Dict[str, str]) -> bool:
    """Whether the answer's content is one of the options' texts (its letter resolved, or written out)."""
    wanted = strip_trailing(content).strip().lower()
    return bool(wanted) and any(strip_trailing(text).strip().lower() == wanted for text in options.values())


def option_clause_answer(frame: Optional[Frame], content: str, options: Dict[str, str]) -> Optional[str]:
    """The option ``content`` as the noun phrase the wh-frame needs (a gerund phrase for the
    subject's place, "that CLAUSE" after "Which is the N?"), or None: not an option, not a
    clause or verb phrase, or a question that asks for a statement (module docstring)."""
    if frame is None or frame.wh not in ("which", "what") or frame.preposition or not options or not is_option_text(
            content, options):
        return None
    text = strip_trailing(content).strip()
    # Parsed as a sentence: capitalised and ended, as the small parser reads a clause best
    words = parse(f"{text[:1].upper()}{text[1:]}.")
    lowered = text[:1].lower() + text[1:] if _lowered_opening(text) else text
    if frame.wh_is_subject:
        if _asks_for_statement(_head_phrase(frame.phrase), frame.rest):
            return _quoted_option(frame, text)
        return _case_kept(gerund_phrase(words), lowered)
    if frame.auxiliary in COPULAS and not frame.rest and frame.subject:
        clause = _is_clause(words)
        if _asks_for_statement(_head_phrase(frame.subject), ()) or (frame.wh != "which" and not clause):
            return None  # "What is the main function of X?" + "carry oxygen": X carries it, the builders say
        gerund = gerund_phrase(words)
        if gerund:
            return _case_kept(gerund, lowered)  # "An example of X is a tiger hunting a deer"
        return f"that {lowered}" if clause else None
    return None


def _quoted_option(frame: Frame, text: str) -> Optional[str]:
    """'the sentence "X"' for "Which of these sentences is against common sense?" (a copula's
    predicate other than truth: the option is what it is said of, not a claim), else None (the
    option's own sentence is the claim: "Which statement is true?", "Which statement best describes X?")."""
    rest = [word.lower for word in frame.rest]
    if not rest or rest[0] not in COPULAS or any(word in POSITIVE_VERDICTS for word in rest):
        return None
    noun = next((word for word in reversed(_head_phrase(frame.phrase)) if word.tag.startswith("NN")), None)
    if noun is None:
        return None
    singular = lemmas_of(noun.lower).get("NOUN", (noun.lower,))[0]
    return f'the {singular} "{strip_trailing(text.strip(chr(34) + "“”"))}"'


def _case_kept(made: Optional[str], text: str) -> Optional[str]:
    """``made`` with the answer's own case of its first letter (the parse was of it capitalised)."""
    return made[:1].lower() + made[1:] if made and text[:1].islower() else made


def _asks_for_statement(phrase: List[Word], rest) -> bool:
    """Whether the question asks which statement holds: its noun names a statement ("which
    statement", "which of these statements", "a fact"), its predicate is truth ("... is true"), or
    its verb an event ("Which would happen next?")."""
    if any(word.tag.startswith("NN") and (word.lower in STATEMENT_NOUNS or lemmas_of(word.lower).get(
            "NOUN", ("",))[0] in STATEMENT_NOUNS) for word in phrase):
        return True
    if any(word.lower in TRUTH_WORDS for word in list(rest) + list(phrase)):
        return True  # "Which of these is TRUE according to ...?": a capital "TRUE" is parsed as the subject's noun
    verbs = [word for word in rest if word.tag.startswith("VB")]
    return bool(verbs) and lemmas_of(verbs[-1].lower).get("VERB", (verbs[-1].lower,))[0] in EVENT_VERBS


def _head_phrase(words) -> List[Word]:
    """A phrase's words up to its first preposition after a noun ("the most likely effect" of "the
    most likely effect of this increase", "of the following statements" of "of the following
    statements about DNA": a partitive "of" opens it)."""
    head: List[Word] = []
    for word in words:
        if word.tag == "IN" and head and word.i != words[0].i:
            break
        head.append(word)
    return head


def _is_clause(words: Parse) -> bool:
    root = next((word for word in words if word.dep == "ROOT"), None)
    return root is not None and any(word.head == root.i and word.dep in NOMINAL_SUBJECT_DEPS and word.i < root.i
                                    for word in words) and (root.tag in _FINITE_TAGS + ("MD",) or any(
        word.head == root.i and word.dep in ("aux", "auxpass") for word in words))


def gerund_phrase(words: Parse) -> Optional[str]:
    """A clause with a plain finite verb ("A tiger hunts a deer") or a bare verb phrase ("blow up
    a balloon") as a gerund phrase ("A tiger hunting a deer", "blowing up a balloon"); the verbs
    it joins with "and" / "or" too. None for a clause with an auxiliary or a modal, a passive or a
    copula (no gerund reads as its claim), and for anything else."""
    mistagged = _mistagged_verb(words)
    root = mistagged or next((word for word in words if word.dep == "ROOT"), None)
    if root is None or any(word.head == root.i and word.dep in ("aux", "auxpass", "neg") for word in words):
        return None
    if lemmas_of(root.lower).get("VERB", (root.lower,))[0] in ("be", "have"):
        return None  # "Air is a mixture": a copula's gerund ("Air being a mixture") says no more
    has_subject = mistagged is not None or any(
        word.head == root.i and word.dep in NOMINAL_SUBJECT_DEPS and word.i < root.i for word in words)
    if has_subject and root.tag not in _FINITE_TAGS and mistagged is None:
        return None
    if not has_subject and not (root.tag == "VB" and root.i == words[0].i and len(words) > _MIN_PHRASE_WORDS
                                and is_base_verb(root.lower)):
        return None  # a verb and what it takes ("blow up a balloon"), not a noun the tagger called a verb ("Wind.")
    verbs = {root.i} | {word.i for word in words if word.dep == "conj" and word.head == root.i and word.tag == root.tag}
    made = []
    for word in words[:-1] if words[-1].text == "." else words:
        form = inflect(word.text, "VBG") if word.i in verbs else word.text
        if word.i == words[0].i and not has_subject:
            form = form.lower()
        made.append(form + (" " if word.space else ""))
    return "".join(made).strip()


def _mistagged_verb(words: Parse) -> Optional[Word]:
    """A clause's verb the small parser took for a plural noun ("Chlorophyll in the leaf
    captures/NNS light energy."): in a parse with no verb, the first word after a noun, and before
    its object, that the lexicon knows as a finite verb; or None."""
    if any(word.tag.startswith("VB") or word.tag == "MD" for word in words):
        return None
    # the verb has an object or a complement after it: a last word is the noun it seems ("dry brake pads")
    return next((word for previous, word, following in zip(words[1:], words[2:], words[3:]) if word.tag == "NNS"
                 and previous.tag in ("NN", "NNS", "NNP") and following.tag in ("DT", "JJ", "NN", "NNS", "IN", "PRP$")
                 and is_finite_verb(word.lower)), None)


def _lowered_opening(text: str) -> bool:
    """Whether the clause's capital only opened the sentence (a common word, not a name)."""
    first = text.split(" ", 1)[0]
    return len(first) > 1 and first[1:].islower() and bool(lemmas_of(first.lower())) or first in ("The", "A", "An")
