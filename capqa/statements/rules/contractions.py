"""Contractions of a question read in full before its structure is read ("ca n't" -> "can not",
"What 's" -> "What is"), and its final punctuation dropped."""

from typing import Sequence, Tuple

from capqa.statements.rules.parser import Word

WH_WORDS = frozenset("what which who whom whose where when why how".split())
_EXPANSIONS = {"ca": "can", "wo": "will", "sha": "shall", "n't": "not", "n’t": "not", "'re": "are", "’re": "are",
               "'m": "am", "’m": "am", "'ve": "have", "’ve": "have", "'ll": "will", "’ll": "will"}


def expanded(words: Sequence[Word]) -> Tuple[Word, ...]:
    """Contractions in full ("ca n't" -> "can not", "'s" after a wh-word -> "is"), final
    punctuation dropped."""
    out = []
    for index, word in enumerate(words):
        text = _EXPANSIONS.get(word.lower)
        if text and word.lower[:1] in ("'", "’") and word.lower not in ("n't", "n’t") and not (
                index and words[index - 1].lower in WH_WORDS):
            text = None  # "'ll", "'re" are read in full after a wh-word only: "you'll never walk alone" is a title
        if text and word.lower in ("ca", "wo", "sha", "do", "does", "did") or word.lower in ("n't", "n’t"):
            auxiliary = index if word.lower not in ("n't", "n’t") else index - 1
            if auxiliary > 1 and words[auxiliary - 1].tag == "PRP":
                text = None  # "who sings i can't take my eyes off of you": a clause inside a title
        if word.lower in ("'s", "’s") and word.tag != "POS" and index and words[index - 1].lower in WH_WORDS:
            text = "is"
        if word.lower in ("'d", "’d"):
            text = "would"
        if text:
            if out and word.lower in ("n't", "'re", "’re", "'m", "’m", "'ve", "’ve", "'ll", "’ll", "'d", "’d", "'s", "’s"):
                out[-1] = out[-1]._replace(space=True)
            # A contracted negation keeps "n't" as its lower form: "isn't X" is the negated
            # auxiliary of an inverted question, "is not X" a negated predicate.
            word = word._replace(text=text, lower="n't" if word.lower in ("n't", "n’t") else text)
        out.append(word)
    while out and out[-1].tag in (".", ":", ",") or (out and out[-1].text in ("?", "!", ".", ";", ":")):
        out.pop()
    if out:
        out[-1] = out[-1]._replace(space=False)
    return tuple(out)
