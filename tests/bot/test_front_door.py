"""`bot` uses the index only through its front door (index/__init__.py): ``from index import X``
for an exported X, never ``index.<module>``, so the index can rearrange its modules freely."""

from __future__ import annotations

import ast

import index
from tests.index.support import REPO

BOT = REPO / "bot"


def index_imports(source: str) -> list[str]:
    """Every way a module's source reaches into `index` past its exports (imports inside
    functions included): ``import index.x``, ``from index.x import …``, ``from index import x``
    for an x the front door doesn't export."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if alias.name.startswith("index.")]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.startswith("index."):
                found.append(node.module)
            elif node.module == "index":
                exported = {"__version__", *index._EXPORTS}
                found += [f"index.{alias.name}" for alias in node.names if alias.name not in exported]
    return found


def test_the_check_sees_every_way_past_the_front_door() -> None:
    source = (
        "import index\nfrom index import Engine\n"  # fine
        "import index.engine\nfrom index.models import AskResult\nfrom index import store\n"
        "def f():\n    from index.text.language import clean_question\n"
    )
    assert index_imports(source) == ["index.engine", "index.models", "index.store", "index.text.language"]


def test_bot_imports_only_the_index_front_door() -> None:
    files = sorted(BOT.rglob("*.py"))
    assert len(files) > 10
    offending = {
        str(path.relative_to(REPO)): found
        for path in files
        if (found := index_imports(path.read_text(encoding="utf-8")))
    }
    assert offending == {}
