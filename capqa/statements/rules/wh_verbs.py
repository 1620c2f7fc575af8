"""wh-questions with a verb: do-support ("What does X measure?"), a wh-subject ("What carries
oxygen?"), "What N V ...", "How many ...", "how/where/when/why" + auxiliary."""

import re

from capqa.statements.rules.lexicon import (
    _PREDICATE_ADJECTIVES, _AUXILIARIES, _COPULAS, _DEGREE_ADVERBS, _DETERMINERS, _PREPOSITIONS, _PRONOUNS,
)
from capqa.statements.rules.morphology import (
    _agree, _indefinite_article, _inflect, _is_adjective, _is_adverb, _is_base_verb, _is_mass_noun, _is_participle,
    _is_plural_noun, _is_clause, _is_finite_verb, _is_third_person_verb, _lemmas,
    _plural_phrase, _with_article,
)
from capqa.statements.rules.clauses import (
    _adverbial, _fronted_auxiliary_clause, _list_or_single, _never_clause, _split_verb, _unfronted_verb,
)
from capqa.statements.rules.agreement import NEVER, agree, as_subject, is_no_one, no_determiner

_DO_QUESTION = re.compile(r"^(what|which|who|whom) (do|does|did) (.+)$", re.IGNORECASE)
_WH_MODAL = re.compile(r"^(what|who|whom) (can|could|will|would|shall|should|may|might|must|has|have|had) (.+)$",
                       re.IGNORECASE)
_HOW_MANY = re.compile(r"^how (many|much) (.+)$", re.IGNORECASE)
_WH_AUX = re.compile(r"^(where|when|why|how) (\w+) (.+)$", re.IGNORECASE)
_WHOSE = re.compile(r"^whose (\w+) (.+)$", re.IGNORECASE)
_WHO_COPULA = re.compile(r"^(?:who|whom) (is|are|was|were) (.+)$", re.IGNORECASE)
_WHO = re.compile(r"^(who|what|which) (.+)$", re.IGNORECASE)
_WHICH_NOUN = re.compile(r"^(what|which) (.+)$", re.IGNORECASE)
_NUMERAL_NOUNS = frozenset("dozens hundreds thousands millions billions trillions scores".split())
_PLACE_PREPOSITIONS = frozenset("in on at inside within aboard".split())
_PREPOSITION_WH = re.compile(r"^(in|during|from|at|to|for|through|on|by|with|into|under|of|against|about|"
                             r"after|before|since|until|between|among|near|across|onto|towards?|over|"
                             r"without|within|behind|beside|along) (?:whom|(?:which|what) (.+?)) "
                             r"(is|are|was|were|do|does|did|can|could|will|would|should|might|may|"
                             r"must|has|have|had) (.+)$", re.IGNORECASE)


def _wh_modal(match, answer):
    """"Who will host X?" (the wh-word is the subject) or "What should you do if X?" (the object)."""
    auxiliary, words = match.group(2).lower(), match.group(3).split()
    perfect = auxiliary in ("has", "have", "had")
    first = words[0].lower()
    if (_is_participle(first) if perfect else _is_base_verb(first) and first not in _PRONOUNS) or (
            perfect and not any(_is_participle(word) for word in words[1:])):
        return as_subject(answer, [auxiliary] + words)
    return _do_question(match, answer)


def _do_question(match, answer):
    """"What does X state?", "What do acids release in solution?", "What can you see from X?"."""
    auxiliary, rest = match.group(2).lower(), match.group(3).split()
    if rest[0].lower() == "not" and match.group(1).lower() in ("who", "what"):
        return as_subject(answer, [auxiliary] + rest)  # "Who does not like X?" + "my sister"
    clause = _unfronted_verb(auxiliary, rest)
    if clause is None:
        return None
    subject_text, verb, verb_phrase = clause
    complement = verb_phrase[1:]
    if verb_phrase[0].lower() == "do" and auxiliary not in ("do", "does", "did"):
        return " ".join([subject_text, auxiliary, answer] + complement)
    if verb_phrase[0].lower() == "do":
        return f"{subject_text} {answer}" if not answer.split()[0].lower() in ("it", "they") else \
            f"{subject_text} {' '.join(answer.split()[1:])}"
    if complement == ["like"] and _is_adjective(answer.split()[-1]):
        return f"{subject_text} {verb} {answer}"  # "What does a lemon taste like?" -> "tastes sour"
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
    if wh_word == "which" and verb not in ("do", "does", "did"):
        # Adverbs inside the wh-phrase stay: "Which object most likely has" -> "A most likely has".
        adverbs = next((words[index:verb_index] for index in range(verb_index)
                        if words[index].lower() in _DEGREE_ADVERBS or _is_adverb(words[index])), [])
        if is_no_one(answer):
            return " ".join(["no", noun_phrase] + adverbs + [verb] + rest)
        return as_subject(answer, adverbs + [verb] + rest) if not adverbs else " ".join(
            [answer] + adverbs + [agree(verb, answer)] + rest)
    if verb in ("do", "does", "did"):
        subject, verb_phrase = _split_verb(rest)
        if not subject:
            return None
        subject_text = " ".join(subject)
        inflected = _agree(verb_phrase[0], _plural_phrase(subject_text) or verb == "do", verb == "did")
        if _is_adjective(answer) and len(words[:verb_index]) == 1:
            # "What charge do electrons carry?" + positive -> "Electrons carry a positive charge."
            noun = words[0]
            article = [] if _is_plural_noun(noun) or _is_mass_noun(noun) else [_indefinite_article(answer)]
            return " ".join([subject_text, inflected] + article + [answer, noun] + verb_phrase[1:])
        relative = " ".join([subject_text, inflected] + verb_phrase[1:])
    elif verb in _COPULAS:
        # "What metal is liquid at X?" -> "the metal that is liquid at X"; "the organ found in X"
        relative = " ".join(rest if _is_participle(rest[0]) or rest[0].lower() in _PREDICATE_ADJECTIVES
                            or rest[0].lower() in _PREPOSITIONS else ["that", verb] + rest)
    else:
        relative = " ".join(["that", verb] + rest)
    subject = f"the {noun_phrase} {relative}"
    if _plural_phrase(noun_phrase):
        return _list_or_single(subject, answer)
    copula = "was" if verb in ("did", "was") else "is"
    return f"{subject} {copula} {_with_article(answer, noun_phrase)}"


def _what_subject(match, answer):
    """"What carries oxygen in the blood?" -> "Oxygen in the blood is carried by hemoglobin."."""
    words = match.group(2).split()
    who = match.group(1).lower() == "who" and _is_finite_verb(words[0]) and words[0].lower() not in _AUXILIARIES
    if not who and not _opens_with_verb(words):
        return None
    verb, rest = words[0], " ".join(words[1:])
    if match.group(1).lower() == "what" and rest and not rest.split()[0].lower() in (
            _PREPOSITIONS | {"that", "if", "whether"}) and not _is_clause(rest):
        past = verb.lower() != _inflect(verb, "VBZ") and verb.lower() == _inflect(verb, "VBD")
        plural = _plural_phrase(rest)
        copula = ("were" if plural else "was") if past else ("are" if plural else "is")
        return f"{rest} {copula} {_inflect(verb, 'VBN')} by {answer}"
    return as_subject(answer, words)


def _preposition_wh(match, answer):
    """"In which layer does weather occur?" + "troposphere" -> "Weather occurs in troposphere."."""
    preposition, _, auxiliary, rest = match.groups()
    return _fronted_auxiliary_clause(auxiliary.lower(), rest.split(), f"{preposition.lower()} {answer}")


def _who_copula(match, answer):
    """"Who is X?": a name is the subject ("Poseidon is the god of the sea"), a description the
    predicate ("The Beatles were a rock band")."""
    if answer.split()[0].lower() in ("a", "an") and len(answer.split()) > 1:
        return f"{match.group(2)} {match.group(1).lower()} {answer}"
    return as_subject(answer, [match.group(1).lower(), match.group(2)])


def _whose(match, answer):
    owner = re.sub(r"[’']s?$", "", answer)  # "Darwin's" answers "whose": not "Darwin's's"
    return f"{owner}'s {match.group(1)} {match.group(2)}"


def _how_many(match, answer):
    quantifier, words = match.group(1).lower(), match.group(2).split()
    answer = no_determiner(answer)
    auxiliary_index = next((index for index, word in enumerate(words) if word.lower() in _AUXILIARIES), None)
    if auxiliary_index is None:
        return " ".join([answer] + _missing_noun(answer, words[:1], quantifier) + words[1:])
    noun_phrase, auxiliary, rest = words[:auxiliary_index], words[auxiliary_index].lower(), words[auxiliary_index + 1:]
    if not rest:
        return None
    counted = " ".join([answer] + _missing_noun(answer, noun_phrase, quantifier))
    if auxiliary in _COPULAS and rest[0].lower() == "there":
        return " ".join(["there", auxiliary, counted] + rest[1:])
    if auxiliary in _COPULAS and noun_phrase and rest[0].lower() in _PLACE_PREPOSITIONS:
        # "How many bones are in the body?" -> "There are 206 bones in the body."
        return " ".join(["there", auxiliary, counted] + rest)
    if auxiliary in _COPULAS:
        return " ".join([counted, auxiliary] + rest)
    subject, verb_phrase = _split_verb(rest, perfect=auxiliary in ("has", "have", "had"))
    if not subject:
        return None
    subject_text = " ".join(subject)
    verb = _agree(verb_phrase[0], _plural_phrase(subject_text) or auxiliary == "do", auxiliary == "did") \
        if auxiliary in ("do", "does", "did") else f"{auxiliary} {verb_phrase[0]}"
    if noun_phrase and noun_phrase[-1].lower() == "times":
        return " ".join([subject_text, verb] + verb_phrase[1:] + [counted])  # "has won the Cup five times"
    return " ".join([subject_text, verb, counted] + verb_phrase[1:])


def _missing_noun(answer, noun_phrase, quantifier="many"):
    """The counted noun, unless the answer already names it ("8 legs") or a measure ("2 litres")."""
    if noun_phrase and noun_phrase[0].lower() == "of":
        return noun_phrase  # "How much of the Earth ...?" -> "71 percent of the Earth"
    if not noun_phrase or (quantifier == "much" and len(answer.split()) > 1):
        return []
    answer_lower = answer.lower()
    head = noun_phrase[-1].lower()
    lemma = _lemmas(head).get("NOUN", (head,))[0]
    if head in answer_lower or lemma in answer_lower:
        return []
    # "hundreds of thousands", "billions": a numeral noun takes "of" before the counted noun.
    return ["of"] + noun_phrase if answer_lower.split()[-1] in _NUMERAL_NOUNS else noun_phrase


def _wh_adverbial(match, answer):
    """where/when/why/how with an auxiliary: the answer goes where the adverbial belongs."""
    wh_word, auxiliary, rest = match.group(1).lower(), match.group(2).lower(), match.group(3).split()
    if auxiliary not in _AUXILIARIES:
        return None
    if wh_word == "when" and answer.lower() in NEVER:
        return _never_clause(auxiliary, rest)
    if wh_word in ("where", "when") and auxiliary in _COPULAS and not _is_adjective(rest[-1]) and not any(
            word.islower() and _is_participle(word) for word in rest[1:]):
        # "When is the next solar eclipse?": with no participle or adjective to predicate, all
        # of it is the subject ("the next solar eclipse"), however its modifiers look.
        return " ".join(rest + [auxiliary, _adverbial(wh_word, answer)])
    return _fronted_auxiliary_clause(auxiliary, rest, _adverbial(wh_word, answer), wh_word == "where")
