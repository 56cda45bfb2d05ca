"""index/ is built in layers: every module imports only its own layer or those below it, and no
modules import each other in a circle (imports inside functions and for type checking count too)."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.index.support import REPO

INDEX = REPO / "index"
# bottom to top; a module of a layer may import its own layer and any below it
LAYERS = [
    ("base", {"index._version", "index.errors", "index.config", "index.models"}),
    ("text", {"index.text"}),
    ("english", {"index.english"}),
    ("build", {"index.build"}),
    ("retrieve", {"index.retrieve"}),
    ("answer", {"index.answer"}),
    ("generate", {"index.generate"}),
    ("engine", {"index.engine", "index.startup"}),
    ("evaluate", {"index.evaluate"}),
    ("train", {"index.train"}),
    ("cli", {"index.cli"}),
    ("front door", {"index", "index.__main__"}),
]
ROOT_MODULES_AT_MOST = 8


def module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(INDEX.rglob("*.py"))}


def layer_of(name: str) -> int:
    for rank, (_, prefixes) in enumerate(LAYERS):
        if name in prefixes or any(name.startswith(p + ".") for p in prefixes if p != "index"):
            return rank
    raise AssertionError(f"{name} is in no layer")


def imports(path: Path, known: set[str]) -> set[str]:
    """The index modules ``path`` imports, anywhere in it (``from index.x import y`` names y when y is a module)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "index"}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "index":
            submodules = {f"{node.module}.{a.name}" for a in node.names} & known
            found |= submodules or {str(node.module)}
    return found


def graph() -> dict[str, set[str]]:
    found = modules()
    known = set(found)
    return {name: {i for i in imports(path, known) if i != name} for name, path in found.items()}


def test_every_module_is_in_a_layer() -> None:
    for name in modules():
        layer_of(name)


def test_imports_point_down() -> None:
    wrong = [
        f"{name} ({LAYERS[layer_of(name)][0]}) imports {target} ({LAYERS[layer_of(target)][0]})"
        for name, targets in graph().items()
        for target in sorted(targets)
        if layer_of(target) > layer_of(name)
    ]
    assert not wrong, "\n".join(wrong)


def test_no_import_circle() -> None:
    edges = {name: {t for t in targets if t != "index"} for name, targets in graph().items() if name != "index"}
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for target in sorted(edges.get(node, ())):
            if state.get(target) == 1:
                raise AssertionError("circle: " + " → ".join([*path[path.index(target) :], target]))
            if target not in state:
                visit(target)
        path.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node)


def test_the_root_keeps_the_front_door_and_what_belongs_to_all() -> None:
    root = [p.name for p in INDEX.glob("*.py")]
    assert len(root) <= ROOT_MODULES_AT_MOST, root


def test_no_three_modules_of_a_folder_share_a_prefix() -> None:
    for folder in [INDEX, *(p for p in INDEX.iterdir() if p.is_dir() and (p / "__init__.py").exists())]:
        stems = [p.stem for p in folder.glob("*.py") if not p.stem.startswith("__")]
        prefixes = [s.split("_")[0] for s in stems if "_" in s.strip("_")]
        crowded = {p for p in prefixes if sum(s.split("_")[0] == p for s in stems) >= 3}
        assert not crowded, f"{folder.name}: {sorted(crowded)}"


def test_every_package_says_its_job() -> None:
    for init in INDEX.glob("*/__init__.py"):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc and len(doc.splitlines()) == 1, init


def test_every_data_file_says_what_makes_it() -> None:
    listed = (INDEX / "data" / "README.md").read_text(encoding="utf-8")
    files = [p.name for p in (INDEX / "data").iterdir() if p.is_file() and p.name != "README.md"]
    assert files and all(f"`{name}`" in listed for name in files), "index/data/README.md names every file"
