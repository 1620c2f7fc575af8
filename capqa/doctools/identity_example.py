"""docs/architecture.md's example hashcode, from a scorer actually built (registered in
``capqa.doctools.registry``): a local random NLI folder ``nli-random``, the default rule statements
and ``verdict="strict"``. The folder's content hash is shown as ``sha256:…``: its random weights
may differ in the last bits between CPUs (vectorised sampling); the checkout's commit and the
code digests as ``…``: they move with every change of the package, the rest of the line may not."""

import re
import tempfile
from pathlib import Path

from capqa.dev.offline_models import build_nli_model


def example_hashcode() -> str:
    """The hashcode block of docs/architecture.md (a fenced code block)."""
    # Deferred: scipy is heavy, imported on first use.
    from capqa.metric.options import MetricOptions

    with tempfile.TemporaryDirectory() as folder:
        model = build_nli_model(Path(folder) / "nli-random")
        hashcode = MetricOptions(nli_model=str(model), device="cpu", verdict="strict").build_scorer().hashcode
    return f"```\n{shown_hashcode(hashcode)}\n```"


def shown_hashcode(hashcode: str) -> str:
    """A hashcode as the docs show it: a local folder's content hash, the commit and the code
    digests elided (see the module's docstring)."""
    shown = re.sub(r"(nli_revision=sha256:)[0-9a-f]+", r"\1…", hashcode)
    return re.sub(r"\b(commit|code|nli_code)=[^|]+", r"\1=…", shown)
