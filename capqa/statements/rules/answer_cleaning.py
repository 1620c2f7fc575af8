"""Answer normalisation: what is not content goes before the answer reaches a sentence.

Dropped: markdown emphasis, labels ("Answer:", "The answer is"), option letters ("C) neon", or a
bare "B" resolved to the option's text), hedges ("I think", "probably", ", I believe"), and
openers that only restate the question's subject ("It's", "That would be", "There are", "They
make ..." when the question asks what they make). Kept: the answer's own words.
"""

import re
from typing import List

from capqa.statements.rules.lexicon import (AUXILIARIES, COMPARATIVE_WORDS, DETERMINERS, OPTION_LABEL_PATTERN,
                                            PREPOSITIONS, PRONOUNS, QUESTION_START, WHITESPACE, strip_trailing)
from capqa.statements.rules.morphology import is_finite_verb, is_participle, lemmas_of

_WORDS = re.compile(r"[\w'’-]+")
_OUTER_QUOTES = ('"', '“', '”')
_LABEL = re.compile(r"^(?:(?:(?:so|thus|therefore|hence),? )?(?:the |my |final |correct |short )*answer(?: is)?|"
                    r"the correct (?:one|option|choice) is|(?:the )?(?:correct )?(?:option|choice) is)\s*[:\-]?\s+",
                    re.IGNORECASE)
_HEDGE = re.compile(
    r"^(?:i (?:think|believe|guess|suppose|reckon)(?: that(?! (?:is|was|'s|would)\b))?|i(?:'d| would) say|"
    r"i(?:'m| am) (?:fairly |pretty |quite |almost |reasonably )?(?:sure|certain|confident)(?: that)?|"
    r"i(?:'m| am) not (?:sure|certain|positive),? but|not sure,? but|"
    r"maybe|perhaps|probably|possibly|most likely|likely|definitely|certainly|surely|obviously|clearly|"
    r"of course|if i (?:remember|recall) (?:correctly|rightly|right)|if memory serves(?: me)?(?: right| correctly)?|"
    r"if i(?:'m| am) not mistaken|as far as i (?:know|remember)|my guess is(?: that)?|"
    r"i can (?:tell you|say|confirm)(?: that)?|to (?:the best of )?my knowledge|based on my (?:knowledge|training)|"
    r"according to my (?:knowledge|training data)|as of my (?:last )?(?:knowledge|training)[^,]{0,40}|"
    r"it (?:seems|appears)(?: that)?|well|sure|ok|okay|hmm+|so|oh|good question|"
    r"i (?:get|got|make it|calculate|count)(?=\s+[$€£]?\d))\b[,!:.]?\s+(?!to\b)",  # "I get 366 downloads": the working's own "I"
    re.IGNORECASE)  # "likely to be false": "likely" is the content there, not a hedge
_TRAILING_HEDGE = re.compile(r"(?:,\s*+|(?<![\s,])\s++)(?:i think|i believe|i guess|i suppose|probably|maybe|perhaps|of course|"
                             r"i(?:'m| am) (?:fairly |pretty |quite )?sure|if i(?:'m| am) not mistaken)\W*$|"
                             # ", though I'd double-check", ", but please double-check the 30% step"
                             r",\s*+(?:though|but)\s++(?:please\s++|i(?:'d| would)\s++|you may want to\s++)?"
                             r"(?:double-check|check|verify)\b[^.;!?]{0,60}$", re.IGNORECASE)
# A doubt appended as a clause: "X, though I'm not certain of the dates", "five, but I'm not sure whether ..."
_TRAILING_DOUBT = re.compile(r",\s*+(?:though|although|but)\s++i(?:'m| am) not (?:sure|certain|positive)\b[^.;!?]*+$",
                             re.IGNORECASE)
# An option's text with its letter after it: "Water (B)", "a gecko (C)".
_TRAILING_LETTER = re.compile(r"^(?P<text>\S.{0,200}?)\s++\((?P<letter>[A-Ha-h])\)$")
# A letter set off by a comma before the answer's words for it (not a list of letters: "A, B and C").
# A letter with its option's text in brackets after it: "B (BCG), since it is live", "C (coulomb)".
_LETTER_BRACKETED = re.compile(r"^\(?([A-Ha-h])\)?\s++\((?P<text>[^()]{1,120})\)(?P<rest>.*)$")
# Letters alone, several: "A and C", "B, D" (each the prompt's option).
_LETTERS = re.compile(r"^\(?[A-Ha-h]\)?(?:\s*+(?:,\s*+(?:and\s++)?|and\s++|&\s*+)\(?[A-Ha-h]\)?)+$")
_LETTER = re.compile(r"(?<![A-Za-z])[A-Ha-h](?![A-Za-z])")
# A letter said to be right: "B is correct.", "B is the correct answer because ..." (the reason stays).
_LETTER_VERDICT = re.compile(r"^\(?([A-Ha-h])\)?\s++is\s++(?:the\s++)?(?:correct|right|best)(?:\s++(?:answer|option|"
                             r"choice))?(?P<rest>(?:,?\s++(?:because|since|as)\b.*)?)$", re.IGNORECASE)
_LETTER_COMMA = re.compile(r"^([A-Ha-h]),\s++(?![A-Ha-h](?:,|\s++(?:and|or)\s|$))(\S.+)$")
_OPTION_LETTER = re.compile(r"^\(?([A-Ha-h])(?:\)|\.|:)\s+(.+)$|^\(([A-Ha-h])\)\s+(.+)$")
_BARE_LETTER = re.compile(rf"^(?:(?:{OPTION_LABEL_PATTERN}) )?\(?([A-Ha-h1-9])\)?[.:]?$", re.IGNORECASE)
# A key of the prompt's options before the answer's words: "B)7", "3. mitochondrion" (read only when the
# prompt has that option: "3. Then stir" is no option without one); a bracket touches a word or an amount,
# never a comma ("(B), since ..." is the letter and a reason).
_KEYED_OPTION = re.compile(r"^\(?([A-Ha-h1-9])(?:[.):]\s+|\)(?=[\w$€£]))(\S.*)$")
_RESTATING_OPENER = re.compile(r"^(?:it's|it is|it was|it'd be|it would be|that's|that is|that was|that would be|"
                               r"that'd be|this is|they're|they are|they were|"
                               # "The longest one is the Volga": a description by "one" stands for the question's
                               r"the (?:[\w-]+ ){1,2}ones? (?:is|are|was|were))\s+(.+)$", re.IGNORECASE)
# "He was Antonio Vivaldi, ...": a person's pronoun restates the question's subject before a name
# or a description ("He was born in 1678" is a claim of its own).
_PERSON_OPENER = re.compile(r"^(?:[Hh]e|[Ss]he)(?:'s| is| was)\s+((?:[A-Z]|the |a |an )\S.*)$")
# "There are eight" only restates a count question; elsewhere "There is more rain" is the content.
_EXISTENTIAL_OPENER = re.compile(r"^there(?:'s| is| are| was| were)\s+(.+)$", re.IGNORECASE)
_COUNT_QUESTION = re.compile(r"^how (?:many|much)\b", re.IGNORECASE)
_REASON_QUESTION = re.compile(r"^why\b", re.IGNORECASE)
# An opening before a colon and a list ("Several animals hibernate: ..."), and its words that restate
# nothing: pronouns ("you" is the questioner's "I"), determiners, auxiliaries, quantifiers.
_INTRO_COLON = re.compile(r"^([^:\n]{1,80}):\s++(\S.*)$")
_WORD = re.compile(r"[a-z]+")
_MAX_INTRO_ITEM_WORDS = 4
_INTRO_FILLERS = DETERMINERS | PRONOUNS | AUXILIARIES | frozenset(
    "i me my several many few some main following here include includes including".split())
_ANSWER_LABEL = re.compile(r"^a\s*:\s+(?=\S)", re.IGNORECASE)
# "Only one: Spain.", "Just one answer: eight.": a label saying one item follows its colon. It names the
# answer's count, not the answer, except where a count is asked ("How many ...?" + "Only one: Spain").
_SINGLE_LABEL = re.compile(r"^(?:(?:only|just|exactly|simply)\s+)?(?:one|a single)(?:\s+(?P<label>answer|option|"
                           r"choice|word|thing))?\s*:\s+(?=\S)", re.IGNORECASE)
# "They make honey." answering "What do bees make?": a pronoun subject and a verb of the question.
_PRONOUN_CLAUSE = re.compile(r"^(?:it|they|he|she|we|you)(?:\s+|['’](?:d|ll)\s+)(?:(?:can|could|will|would|did|do|does|is|are|was|"
                             r"were|has|have|had)\s+)?(\w+)\s+(.+)$", re.IGNORECASE)
_NOT_RESTATING = frozenset("will would can could shall should may might must do does did".split())
_PRONOUN_VERB = re.compile(r"^(?:it|they|he|she|we|you)\s+(\w+)\s+(.+)$", re.IGNORECASE)
# "we do", "I will", "she did": a pronoun with an auxiliary standing for the question's predicate.
# The auxiliary in lower case: "usually in May" ends with a month, not with "may".
_ELLIPTICAL = re.compile(r"^(i|you|we|they|he|she|it|(?:the |a |an |my |our )?[\w'-]+(?: [\w'-]+)?)\s+"
                         r"(?:(?-i:do|does|did|am|is|are|was|were|will|would|can|could|"
                         r"have|has|had|shall|should|may|might|must)(?:\s+not|n[’']t)?|(?-i:can[’']t|won[’']t|cannot))$",
                         re.IGNORECASE)
# "He never did": the answer is "never".
_ELLIPTICAL_NEVER = re.compile(r"^(?:i|you|we|they|he|she|it)\s+never\s+(?:do|does|did|was|were|is|are|has|have|had|"
                               r"will|would|could|can)$", re.IGNORECASE)
_PASSIVE_RESTATEMENT = re.compile(r"^(?:it|they|this|that|he|she)\s+(?:was|were|is|are|has been|have been)\s+"
                                  r"(\w+)\s+by\s+(.+)$", re.IGNORECASE)
# "There isn't one; X ...", "There are none.": a wh-question's negative answer, said as a clause ("none").
_NONE_EXISTS = re.compile(r"^there\s*+(?:(?:is|are|was|were|[’']s)\s++(?:none|not (?:one|any))|(?:isn|aren|wasn|weren)"
                          r"[’']t\s++(?:one|any))(?P<rest>\s*+[,;:—–-]\s*+\S.*)?$", re.IGNORECASE)
_ASKS_WH = re.compile(r"^(?:what|which|who|whom|whose|when|where|how)\b", re.IGNORECASE)
_NEGATED = re.compile(r"n[’']t\b|\bnot\b", re.IGNORECASE)
_STEPS = 4  # labels, hedges and openers nest at most this deep ("Answer: I think it's X")


_TOPIC = re.compile(r"^([^:]{2,120}):\s+(?=\S)")
_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset("the a an of in on at to for and or is are was were who what when where which why how "
                  "does do did s".split())


def without_topic_label(text: str, question: str) -> str:
    """"Season 8 of Vampire Diaries: Released in 2016" -> "Season 8 of Vampire Diaries was released
    in 2016"; "Who destroyed the temple: The temple was destroyed by ..." -> "The temple was ...":
    a heading that restates the question (half its words are the question's) goes, or becomes
    the subject of a participle that follows it."""
    match = _TOPIC.match(text)
    if not match:
        return text
    label, rest = match.group(1), text[match.end():]
    if f"{label.split()[-1]}:".lower() in question.lower():
        return text  # the colon is the question's own: "Prisoner: Cell Block H"
    words = [word for word in _WORD.findall(label.lower()) if word not in _STOP]
    asked = set(_WORD.findall(question.lower()))
    if not words or sum(word in asked for word in words) * 2 < len(words):
        return text
    if not QUESTION_START.match(label) and any(is_finite_verb(word) for word in label.split()[1:]
                                                if word.islower()):
        return text  # "Mars has two moons: Phobos and Deimos" is a claim, not a heading
    first = rest.split()[0]
    if first[:1].isupper() and is_participle(first.lower()) and first.lower() not in lemmas_of(first.lower()).get("VERB", ()):
        return f"{label} was {first.lower()} {rest[len(first):].strip()}".strip()
    return rest


def clean_answer(answer: str, question: str = "", options: dict = None, context: str = "") -> str:
    """``answer`` reduced to its content (see the module docstring); never empty unless
    ``answer`` has no content at all. ``context``: the prompt's sentences before the question,
    which a heading of the answer may restate too."""
    text = strip_trailing(WHITESPACE.sub(" ", _without_outer_quotes(answer.strip())).strip())
    text = without_topic_label(text, f"{context} {question}") or text
    for _ in range(_STEPS):
        stripped = _strip_once(text, question, options or {})
        if stripped == text or not stripped:
            break
        text = stripped
    return without_frame_tail(text, question)


# A count's or an amount's question, and its wh-phrase ("how many more books"), up to its verb
_COUNT_ASKED = re.compile(r"\bhow (?P<quantifier>many|much)\b(?P<phrase>(?:\s++(?!(?:is|are|was|were|do|does|did|can|"
                          r"could|will|would|should|has|have|had|must|might|as|than|of|in|on|for|to)\b)[\w'’-]++){0,4})",
                          re.IGNORECASE)
_AMOUNT_OPENING = re.compile(r"^(?:about |around |approximately |nearly |almost |over |under )?[$€£₹]?\d")
_MAX_AMOUNT_WORDS = 6


def without_frame_tail(text: str, question: str) -> str:
    """An amount's answer less the words after its number that the question's frame says after its wh-phrase
    ("How many stickers does Jenny have left?" + "12 left" -> "12", "How many more books does Sam have than
    Tim?" + "25 more" -> "25", "... in all?" + "13 balloons in all" -> "13 balloons"): the frame puts them
    back, once. The wh-phrase's noun stays ("In how many ways ...?" + "144 ways": the frame has it before
    its verb), a word the question lacks ends the cut ("5 miles from home" keeps "miles"), and a cut that
    would leave a determiner or preposition last is no cut ("$294 a week")."""
    asked = _COUNT_ASKED.search(question)
    words = text.split()
    if not asked or len(words) > _MAX_AMOUNT_WORDS or not _AMOUNT_OPENING.match(text):
        return text
    phrase = {word.lower() for word in asked.group("phrase").split()}
    if asked.group("quantifier").lower() == "many":
        phrase -= COMPARATIVE_WORDS  # "how many more books": the frame says "25 more books" (not "how much more money")
    framed = {word.lower() for word in _WORDS.findall(question[asked.start("phrase"):])} - phrase
    kept = len(words)
    while kept > 1 and words[kept - 1].lower() in framed:
        kept -= 1
    if kept == len(words) or words[kept - 1].lower() in DETERMINERS | PREPOSITIONS:
        return text
    return " ".join(words[:kept])


def named_option(text: str, options: dict) -> str:
    """The option's text that ``text`` names by its key alone ("C", "(b)", "option 3"), or ""."""
    key = _BARE_LETTER.match(strip_trailing(text.strip()))
    return options.get(key.group(1).lower(), "") if key else ""


# An option's key, then its reason: "(B), because it is a gas giant.", "B, since 12 x 3 = 36.", "(C) because ..."
_KEY_WITH_REASON = re.compile(r"^\(?([A-Ha-h])\)?[.:]?\s*+[,;:—–-]?\s*+(?:because|since|as)\s++(?P<reason>\S.*)$")


def option_with_reason(sentence: str, options: dict) -> List[str]:
    """[the option's key, its reason as a sentence of its own] for an answer that names one of the prompt's
    options by its key and gives the reason after a "because" / "since" ("(B), because it is a gas giant." ->
    ["(B)", "It is a gas giant."]): the key is resolved as a bare one is, the reason a claim that follows it;
    [] for any other sentence."""
    match = _KEY_WITH_REASON.match(sentence.strip())
    if not match or match.group(1).lower() not in options:
        return []
    reason = match.group("reason")
    return [match.group(1), reason[:1].upper() + reason[1:]]


def _without_outer_quotes(text: str) -> str:
    """A quote at the answer's edge that nothing closes (or opens) goes; '"Kiss"' and '"We're
    Going on a Bear Hunt" was written by ...' keep theirs."""
    quotes = sum(text.count(mark) for mark in _OUTER_QUOTES)
    if quotes % 2 == 0:
        return text
    if text[:1] in _OUTER_QUOTES:
        return text[1:]
    stripped = strip_trailing(text)
    return stripped[:-1] if stripped[-1:] in _OUTER_QUOTES else text


def elliptical_polarity(sentence: str) -> str:
    """"It is." -> "yes", "They don't." -> "no" (an auxiliary standing for a yes/no question's
    predicate); "" for any other sentence."""
    if not _ELLIPTICAL.match(strip_trailing(sentence)):
        return ""
    return "no" if _NEGATED.search(sentence) else "yes"


def without_elliptical_sentences(sentences: List[str]) -> List[str]:
    """"It is. Helium." -> "Helium.": a leading sentence that only repeats an auxiliary is no content."""
    while len(sentences) > 1 and _ELLIPTICAL.match(strip_trailing(sentences[0])) and not _NEGATED.search(sentences[0]):
        sentences = sentences[1:]  # "They didn't." stays: it denies the question's premise
    return sentences


def without_trailing_doubt(text: str) -> str:
    """``text`` without a hedge or a doubt appended to its claim (", probably", ", though I'd
    double-check", ", but I'm not sure whether ...")."""
    return _TRAILING_DOUBT.sub("", _TRAILING_HEDGE.sub("", text)).strip()


def without_hedges(sentence: str) -> str:
    """``sentence`` without its hedges, leading ("I think", "I get" before a number) or trailing:
    no content of the answer's (the check reads an answer's words as the converter does), nor a
    label saying one item follows ("Only one: Spain")."""
    return _SINGLE_LABEL.sub("", _HEDGE.sub("", without_trailing_doubt(sentence), count=1).strip(), count=1)


def _strip_once(text, question, options):
    text = without_trailing_doubt(text)
    for pattern in (_LABEL, _HEDGE):
        text = pattern.sub("", text, count=1).strip()
    text = strip_trailing(text)
    absent = _NONE_EXISTS.match(text) if _ASKS_WH.match(question) else None
    if absent:  # the reason after it stays, for ``convert`` to make a sentence of its own
        return "none" + (absent.group("rest") or "")
    letter = _BARE_LETTER.match(text)
    if letter and letter.group(1).lower() in options:
        return options[letter.group(1).lower()]
    letters = _LETTER.findall(text) if _LETTERS.match(text) else []
    if letters and all(letter.lower() in options for letter in letters):
        texts = [strip_trailing(options[letter.lower()]) for letter in letters]
        return ", ".join(texts[:-1]) + " and " + texts[-1]
    verdict = _LETTER_VERDICT.match(text)
    if verdict and verdict.group(1).lower() in options:
        return strip_trailing(options[verdict.group(1).lower()]) + verdict.group("rest")
    bracketed = _LETTER_BRACKETED.match(text)
    if bracketed and _same_text(bracketed.group("text"), options.get(bracketed.group(1).lower(), "")):
        return strip_trailing(options[bracketed.group(1).lower()]) + bracketed.group("rest")
    comma = _LETTER_COMMA.match(text)
    if comma and comma.group(1).lower() in options:
        return comma.group(2)  # "A, a tiger hunting a deer, since ...": the answer's own words for option A
    trailing = _TRAILING_LETTER.match(text)
    if trailing and trailing.group("letter").lower() in options and _same_text(
            trailing.group("text"), options[trailing.group("letter").lower()]):
        return strip_trailing(options[trailing.group("letter").lower()])  # "Water (B)": the option as the prompt writes it
    keyed = _KEYED_OPTION.match(text)
    if keyed and keyed.group(1).lower() in options:
        return keyed.group(2)
    option = _OPTION_LETTER.match(text)
    if option and (options or text[:1] == "(" or ")" in text[:3]):
        return option.group(2) or option.group(4)
    single = _SINGLE_LABEL.match(text)
    if single and (single.group("label") or not _COUNT_QUESTION.match(question)):
        return text[single.end():]
    if not options and _ANSWER_LABEL.match(text):
        return _ANSWER_LABEL.sub("", text)  # "A: diamond" after "Q: ...": a label, not an option
    if _ELLIPTICAL_NEVER.match(text):
        return "never"
    passive = _PASSIVE_RESTATEMENT.match(text)
    if passive and lemmas_of(passive.group(1)).get("VERB", ("",))[0] in _verb_lemmas(question) and (
            "," not in passive.group(2) and len(passive.group(2).split()) <= 4):
        # "It was written by X" answering "Who wrote ...?" -> "X"; with more to say ("by X, a
        # novelist, in 1967") the sentence stays, its pronoun resolved (sentences.full_sentence).
        return passive.group(2)
    introduced = _restating_intro(text, question)
    if introduced:
        return introduced
    if _REASON_QUESTION.match(question):
        return text  # "Why did X split?" + "it was too large": the clause is the reason
    existential = _COUNT_QUESTION.match(question) and _EXISTENTIAL_OPENER.match(text)
    if existential and len(existential.group(1).split()) > 3:
        existential = None  # "There are 23 episodes in season 4 of X." is a sentence of its own
    opener = _RESTATING_OPENER.match(text) or _PERSON_OPENER.match(text) or existential
    if opener and not is_participle(opener.group(1).split()[0].lower()):
        return opener.group(1)  # "It was written by X, ..." is a passive sentence, not "It was X"
    return _without_restated_verb(text, question)


def _restating_intro(text: str, question: str) -> str:
    """The list after a colon whose opening only restates the question ("Several animals hibernate:
    bears, bats and groundhogs" for "what animals hibernate in winter", "You need: flour and milk"):
    the list is the answer. "" when the opening says something the question does not."""
    match = _INTRO_COLON.match(text)
    items = re.split(r",\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+", strip_trailing(match.group(2))) if match else []
    if len(items) < 2 or any(not item or len(item.split()) > _MAX_INTRO_ITEM_WORDS for item in items):
        return ""  # "Law & Order: SVU will premiere on Thursday, November 12th": no list after the colon
    asked = {lemma for word in _WORD.findall(question.lower()) for lemma in _word_lemmas(word)}
    said = [word for word in _WORD.findall(match.group(1).lower()) if word not in _INTRO_FILLERS]
    return match.group(2) if said and all(_word_lemmas(word) & asked for word in said) else ""


def _word_lemmas(word: str) -> set:
    return {word} | {lemma for lemmas in lemmas_of(word).values() for lemma in lemmas}


def _same_text(text: str, option: str) -> bool:
    return strip_trailing(text).strip().lower() == strip_trailing(option).strip().lower()


def _without_restated_verb(text, question):
    """"They live mostly in X" -> "mostly in X" when the question's verb is "live"."""
    if not QUESTION_START.match(question):
        return text  # a sentence to complete ("... is something like") has no verb to restate
    question_lemmas = _verb_lemmas(question)
    # "It has eight legs": "has" is the verb here, not an auxiliary; both readings are tried.
    for pattern in (_PRONOUN_CLAUSE, _PRONOUN_VERB):
        clause = pattern.match(text)
        if clause:
            verb = clause.group(1).lower()
            if verb in _NOT_RESTATING:
                continue  # "it will melt": the modal is not the question's verb restated
            if lemmas_of(verb).get("VERB", (verb,))[0] in question_lemmas and len(clause.group(2).split()) <= 4:
                return _without_object_pronoun(clause.group(2), verb, question)  # longer: a sentence of its own
    return text


_OBJECT_OPENING = re.compile(r"^(?:them|him|her|us)\s++(?=\S)", re.IGNORECASE)


def _without_object_pronoun(rest: str, verb: str, question: str) -> str:
    """What follows a restated verb, less an object pronoun that stands for the question's own object
    ("How long would it take 8 workers?" + "It would take them 3 hours" -> "3 hours": the frame says
    "take 8 workers" itself); as it is when the question has no object after the verb to stand for."""
    lemma = lemmas_of(verb).get("VERB", (verb,))[0]
    words = question.lower().strip("?. ").split()
    after = next((index for index, word in enumerate(words) if lemmas_of(word).get("VERB", (word,))[0] == lemma), None)
    if after is None or after + 1 >= len(words) or not _OBJECT_OPENING.match(rest):
        return rest
    return _OBJECT_OPENING.sub("", rest, count=1)


def _verb_lemmas(question):
    return {lemmas_of(word).get("VERB", (word,))[0] for word in question.lower().strip("?. ").split()}


def elliptical_subject(answer: str) -> str:
    """"we do" -> "we": the pronoun of an answer that only repeats the question's auxiliary."""
    match = _ELLIPTICAL.match(answer)
    return match.group(1) if match else answer


def lower_article(answer: str) -> str:
    """A capitalised leading article or pronoun lowered: the answer usually lands mid-sentence."""
    first, _, rest = answer.partition(" ")
    if rest and first in ("A", "An", "The", "It", "They", "This", "These", "Those", "Their", "Its", "His", "Her", "Our",
                          "My", "Your"):
        return f"{first.lower()} {rest}"
    return answer
