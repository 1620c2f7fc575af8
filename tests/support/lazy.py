"""Modules imported on first use: the tests name torch, transformers, gradio, evaluate and the capqa
modules that load them at their top, without paying for them when pytest collects the suite."""

import importlib
import types


class LazyModule(types.ModuleType):
    """Stands for the module ``name``: the first attribute read imports it, and every read, write,
    deletion and ``__dict__`` (what ``monkeypatch.setattr`` saves and restores) is the real module's."""

    def _module(self) -> types.ModuleType:
        return importlib.import_module(self.__name__)

    def __getattr__(self, attribute: str):
        if attribute.startswith("_"):
            # What pytest and inspect probe on every global when collecting (__test__, __wrapped__,
            # _fixture_function_marker, ...): answered without the import, or collecting would
            # import everything. A module's private names are not the tests' to read anyway.
            raise AttributeError(attribute)
        return getattr(self._module(), attribute)

    def __setattr__(self, attribute: str, value) -> None:
        setattr(self._module(), attribute, value)

    def __delattr__(self, attribute: str) -> None:
        delattr(self._module(), attribute)

    @property
    def __dict__(self):  # what monkeypatch reads (and restores) is the real module's
        return self._module().__dict__

    def __dir__(self):
        return dir(self._module())


def lazy_module(name: str) -> types.ModuleType:
    return LazyModule(name)
