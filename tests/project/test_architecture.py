"""The house: rooms import downwards only, with no cycle between modules or rooms, not even through
an import inside a function or under ``TYPE_CHECKING`` (docs/architecture.md).

The imports are read from the source (``ast``), so nothing of the package is run. A function may
import inside itself only to defer a heavy dependency, and says which in a comment on the line or
the one above ("Deferred: torch ..."); a capqa module imported that way must pull that dependency
at its top. A name another module uses is public: no ``_name`` is imported or read from another
module.
"""

import ast
import re
from functools import lru_cache
from pathlib import Path
from typing import Dict, List, NamedTuple, Optional, Set, Tuple

from support.data import REPO_ROOT

PACKAGE = REPO_ROOT / "capqa"
# The dependencies worth deferring: heavy to import, or optional (an extra, a harness). lemminflect
# imports spaCy, which imports thinc and, through it, torch.
HEAVY = frozenset({"lemminflect", "thinc",
    "torch", "transformers", "huggingface_hub", "datasets", "evaluate", "gradio", "gradio_client", "starlette",
    "matplotlib", "spacy", "nltk", "rouge_score", "sacrebleu", "safetensors", "scipy", "tokenizers", "accelerate",
    "lighteval", "inspect_ai", "ragas", "deepeval", "lm_eval", "langchain_core", "langchain_community", "openai",
})
# Front ends: no room below them imports one.
FRONT_ENDS = frozenset({"cli", "space", "harness"})
# Rooms above the front ends: the developer tools that render the docs (the Space's settings table).
ABOVE_FRONT_ENDS = frozenset({"cli", "doctools"})
ROOT_FILES = frozenset({"__init__.py", "__main__.py"})


class Import(NamedTuple):
    source: str       # the importing module, dotted
    target: str       # the imported capqa module, or the top package of another
    names: Tuple[str, ...]
    line: int
    in_function: bool
    type_checking: bool   # under ``if TYPE_CHECKING:``: a dependency, never run


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO_ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@lru_cache(maxsize=1)
def modules() -> Dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _inside_function(node: ast.AST, parents: Dict[ast.AST, ast.AST]) -> bool:
    while node in parents:
        node = parents[node]
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return True
    return False


def _under_type_checking(node: ast.AST, parents: Dict[ast.AST, ast.AST]) -> bool:
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            return True
    return False


def _targets(node: ast.AST, source: str) -> List[Tuple[str, Tuple[str, ...]]]:
    """(module, names) an import statement loads: a capqa submodule named in a from-import counts
    as the module it is."""
    known = modules()
    if isinstance(node, ast.Import):
        return [(alias.name, ()) for alias in node.names]
    base = node.module or ""
    if node.level:
        package = source.split(".") if str(known[source]).endswith("__init__.py") else source.split(".")[:-1]
        base = ".".join(package[:len(package) - node.level + 1] + ([base] if base else []))
    found = []
    for alias in node.names:
        full = f"{base}.{alias.name}"
        found.append((full, ()) if full in known else (base, (alias.name,)))
    return found


@lru_cache(maxsize=1)
def imports() -> Tuple[Import, ...]:
    found = []
    for name, path in modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        parents = {child: parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for target, names in _targets(node, name):
                    found.append(Import(name, target, names, node.lineno, _inside_function(node, parents),
                                        _under_type_checking(node, parents)))
    return tuple(found)


def internal_edges() -> Dict[str, Set[str]]:
    known = modules()
    edges: Dict[str, Set[str]] = {name: set() for name in known}
    for item in imports():
        if item.target in known and item.target != item.source:
            edges[item.source].add(item.target)
    return edges


def room(module: str) -> Optional[str]:
    """The room of a module: the folder below capqa/ (None for the package's own __init__/__main__)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] != "__main__" else None


def find_cycle(edges: Dict[str, Set[str]]) -> Optional[List[str]]:
    """One cycle of the directed graph, as a path that ends where it starts, or None."""
    state: Dict[str, int] = {}
    stack: List[str] = []

    def visit(node: str) -> Optional[List[str]]:
        state[node] = 1
        stack.append(node)
        for following in sorted(edges.get(node, ())):
            if state.get(following) == 1:
                return stack[stack.index(following):] + [following]
            if following not in state:
                cycle = visit(following)
                if cycle:
                    return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


def room_edges() -> Dict[str, Set[str]]:
    rooms: Dict[str, Set[str]] = {}
    for source, targets in internal_edges().items():
        if room(source) is None:
            continue
        rooms.setdefault(room(source), set()).update(
            room(target) for target in targets if room(target) not in (None, room(source)))
    return rooms


def _run_at_import(tree: ast.AST):
    """The nodes a module runs when it is imported: all but the bodies of functions."""
    for child in ast.iter_child_nodes(tree):
        if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            yield child
            yield from _run_at_import(child)


@lru_cache(maxsize=None)
def heavy_at_top(module: str) -> frozenset:
    """The heavy packages ``module`` imports at its top level, itself or through capqa modules
    (an optional extra's ``import_extra("package...", ...)`` at the top counts as an import)."""
    tree = ast.parse(modules()[module].read_text(encoding="utf-8"))
    found: Set[str] = {node.args[0].value.split(".")[0] for node in _run_at_import(tree)
                       if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "import_extra"
                       and node.args and isinstance(node.args[0], ast.Constant)} & HEAVY
    for item in imports():
        if item.source != module or item.in_function or item.type_checking:
            continue
        head = item.target.split(".")[0]
        if head in HEAVY:
            found.add(head)
        elif item.target in modules() and item.target != module:
            found |= heavy_at_top(item.target)
    return frozenset(found)


def test_the_package_root_holds_only_its_entry_points():
    loose = sorted(path.name for path in PACKAGE.glob("*.py") if path.name not in ROOT_FILES)
    assert not loose, f"modules at capqa/'s root belong in a room (a folder): {loose}"


def test_no_module_imports_in_a_cycle():
    assert find_cycle(internal_edges()) is None, " -> ".join(find_cycle(internal_edges()) or [])


def test_no_room_imports_in_a_cycle():
    cycle = find_cycle(room_edges())
    assert cycle is None, "rooms import in a circle: " + " -> ".join(cycle or [])


def documented_floors() -> Dict[str, int]:
    """{room: floor} from docs/architecture.md's table of rooms (``| 3 | `statements/` | ...``)."""
    text = (REPO_ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    return {room: int(floor) for floor, room in re.findall(r"^\| (\d+) \| `(\w+)/` \|", text, flags=re.MULTILINE)}


def test_every_room_is_on_a_documented_floor():
    rooms = {room(module) for module in modules()} - {None}
    assert rooms == set(documented_floors()), "docs/architecture.md's table of rooms is not the package's rooms"


def test_a_room_imports_only_rooms_on_lower_floors():
    floors = documented_floors()
    level = [(source, target) for source, targets in room_edges().items() for target in targets
             if source in floors and target in floors and floors[target] >= floors[source]]
    assert not level, f"imports of a room on the same floor or above (docs/architecture.md): {sorted(level)}"


def test_no_room_below_the_front_ends_imports_one():
    wrong = sorted((source, target) for source, targets in room_edges().items() for target in targets
                   if target in FRONT_ENDS and source not in FRONT_ENDS | ABOVE_FRONT_ENDS)
    assert not wrong, f"rooms that import a front end: {wrong}"


def _comment_near(path: Path, line: int) -> str:
    """The import's line and the comments, imports and ``try:`` lines right above it."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = line - 1
    while start > 0 and re.match(r"\s*(#|try:|import |from \S+ import )", lines[start - 1]):
        start -= 1
    return " ".join(lines[start:line])


def test_imports_inside_functions_only_defer_a_heavy_dependency_and_say_which():
    problems = []
    for item in imports():
        if not item.in_function:
            continue
        head = item.target.split(".")[0]
        heavy = {head} & HEAVY if head != "capqa" else set(heavy_at_top(item.target))
        comment = _comment_near(modules()[item.source], item.line)
        said = {name for name in heavy if re.search(r"\bdefer", comment, re.IGNORECASE) and name in comment}
        if not heavy:
            problems.append(f"{item.source}:{item.line} imports {item.target} inside a function, which defers "
                            "nothing heavy: import it at the top")
        elif not said:
            problems.append(f"{item.source}:{item.line} defers {item.target} without a comment naming "
                            f"{' or '.join(sorted(heavy))} ('Deferred: ...')")
    assert not problems, "\n".join(problems)


def _private_uses(path: Path) -> List[str]:
    """``_name``s of capqa modules that ``path`` imports or reads from another module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    own = module_name(path) if path.is_relative_to(PACKAGE) else None
    aliases, found = {}, []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("capqa") and not node.level:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                if full in modules():
                    aliases[alias.asname or alias.name] = full
                elif alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append(f"{path.relative_to(REPO_ROOT)}:{node.lineno} imports {alias.name} from {node.module}")
        elif isinstance(node, ast.Import):
            aliases.update({alias.asname: alias.name for alias in node.names if alias.asname in modules() or
                            (alias.asname and alias.name in modules())})
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            base = aliases.get(node.value.id) if isinstance(node.value, ast.Name) else ast.unparse(node.value)
            if base in modules() and base != own:
                found.append(f"{path.relative_to(REPO_ROOT)}:{node.lineno} reads {base}.{node.attr}")
    return found


def test_no_private_name_is_used_outside_its_module():
    files = [*PACKAGE.rglob("*.py"), *(REPO_ROOT / "tests").rglob("*.py"), *(REPO_ROOT / "benchmarks").glob("*.py"),
             *(REPO_ROOT / name for name in ("app.py", "cap_metric.py", "monotonicity.py"))]
    found = [use for path in files for use in _private_uses(path)]
    assert not found, "a name another module uses is public:\n" + "\n".join(found)


def test_the_walk_sees_function_level_and_type_checking_imports():
    # The checks above are only as good as the graph: it must hold both kinds of hidden import.
    assert any(item.source == "capqa.statements.rules.parser" and item.target == "spacy" and item.in_function
               for item in imports())
    assert "capqa.metric.scorer" in internal_edges()["capqa.jobs.scoring"]  # under TYPE_CHECKING there
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
