"""index/__init__.py, the front door: what it exports, that ``import index`` stays light, and that
the package's modules import each other without circles."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import index
from tests.index.support import REPO, cli_env

PACKAGE = REPO / "index"


def test_every_export_is_the_object_its_module_defines() -> None:
    for name, module in index._EXPORTS.items():
        assert getattr(index, name) is getattr(importlib.import_module(module), name), name
    assert set(index.__all__) == {"__version__", *index._EXPORTS}
    assert set(index.__all__) <= set(dir(index))


def test_what_type_checkers_see_is_what_is_exported() -> None:
    tree = ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    [block] = [n for n in tree.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING"]
    seen = {
        (node.module, alias.name) for node in block.body if isinstance(node, ast.ImportFrom) for alias in node.names
    }
    assert seen == {(module, name) for name, module in index._EXPORTS.items()}


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no_such_thing"):
        index.no_such_thing  # noqa: B018
    assert importlib.import_module("index.cli.commands") is index.cli.commands  # submodules still import as usual


def test_import_index_loads_no_numpy_faiss_torch_or_pydantic() -> None:
    probe = "import sys, index; print(' '.join(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=REPO, env=cli_env(), timeout=60
    )
    assert done.returncode == 0, done.stderr
    loaded = set(done.stdout.split())
    assert not loaded & {"numpy", "faiss", "torch", "pydantic"}, loaded & {"numpy", "faiss", "torch", "pydantic"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """The ``index`` modules a file imports, at module level or inside functions (a circle through
    a lazy import is still a circle); ``from index import x`` counts ``index.x`` if it is a module."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.startswith("index.")}
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "index":
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                found.add(sub if (REPO / (sub.replace(".", "/") + ".py")).exists() else node.module)
    return found


def test_no_import_circles() -> None:
    modules = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph = {name: _imports(path) & set(modules) - {name} for name, path in modules.items()}
    # the package itself loads its exports lazily; a module importing `index` for __version__ is fine
    graph["index"] = set()
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        if name in path:
            raise AssertionError("import circle: " + " → ".join([*path[path.index(name) :], name]))
        if name in done:
            return
        for dep in sorted(graph[name]):
            visit(dep, [*path, name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])


def test_one_blas_thread_unless_the_environment_says_otherwise() -> None:
    """The answer path's products are small; a second BLAS thread only waits beside the encoder's."""
    probe = "import os, index; print(os.environ.get('OPENBLAS_NUM_THREADS'), sorted(index.APPLIED_DEFAULTS))"
    env = {k: v for k, v in cli_env().items() if k != "OPENBLAS_NUM_THREADS"}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=REPO, env=env, timeout=60)
    assert done.stdout.split() == ["1", "['OPENBLAS_NUM_THREADS']"], done.stderr
    mine = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=REPO, env=env | {"OPENBLAS_NUM_THREADS": "4"}
    )
    assert mine.stdout.split() == ["4", "[]"], mine.stderr
