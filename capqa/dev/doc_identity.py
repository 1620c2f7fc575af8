"""docs/architecture.md's example hashcode, from a scorer actually built (registered in
``capqa.dev.doc_tables``): a local random NLI folder ``nli-random``, the default rule statements
and ``verdict="strict"``. The folder's content hash is shown as ``sha256:…``: its random weights
may differ in the last bits between CPUs (vectorised sampling), the rest of the line may not."""

import re
import tempfile
from pathlib import Path


def example_hashcode() -> str:
    """The hashcode block of docs/architecture.md (a fenced code block)."""
    from capqa.dev.offline_models import build_nli_model
    from capqa.metric_options import MetricOptions

    with tempfile.TemporaryDirectory() as folder:
        model = build_nli_model(Path(folder) / "nli-random")
        hashcode = MetricOptions(nli_model=str(model), device="cpu", verdict="strict").build_scorer().hashcode
    shown = re.sub(r"(nli_revision=sha256:)[0-9a-f]+", r"\1…", hashcode)
    return f"```\n{shown}\n```"
