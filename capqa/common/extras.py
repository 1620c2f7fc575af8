"""The optional parts of cap-eval and the pip extra that installs each.

``pip install cap-eval`` brings what the metric needs (``evaluate.load(...).compute(...)``,
``python -m capqa score``). Parts that pull heavy packages the metric never imports live in
extras (pyproject.toml's ``[project.optional-dependencies]``, docs/dependencies.md):

- ``space``: the Gradio Space (gradio, matplotlib);
- ``plots``: the plots of ``diagnose`` and ``bench --plot`` (matplotlib);
- ``train``: ``train-statements`` and ``eval-statements`` (accelerate, sacreBLEU, matplotlib);
- ``llm``: the ``openai`` statement engine (the official openai client);
- one per evaluation harness (``capqa.harness``).

Such a part imports its package through ``import_extra`` where it is needed, so the rest of
capqa imports without it and the missing package is named with the command that installs it.
"""

import importlib
from types import ModuleType

# What an extra must leave as it is when it is installed into a venv that scores: a core that moves
# changes the hashcode, and compare then refuses the files scored before.
CORE_PACKAGES = ("transformers", "torch", "datasets", "evaluate")
# The extras whose framework forces the resolver to move the core, and why (measured with
# `pip install --dry-run --report` into the project's venv; tests/project/test_packaging.py checks
# both ways). docs/harnesses.md gives them a venv of their own.
CORE_CONFLICTS = {
    "deepeval": "deepeval caps click below 8.4, so pip takes an older huggingface_hub, datasets and transformers",
}


def import_extra(module: str, extra: str, purpose: str) -> ModuleType:
    """``importlib.import_module(module)``; when its package is not installed, an ImportError
    that says ``purpose`` needs it and ``pip install 'cap-eval[extra]'`` brings it."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        package = module.split(".")[0]
        if error.name is not None and error.name.split(".")[0] != package:
            raise  # the package is there but broken: its own error says more
        raise ImportError(f"{purpose} needs {package}, which `pip install cap-eval` does not install: "
                          f"pip install 'cap-eval[{extra}]'", name=package) from error
