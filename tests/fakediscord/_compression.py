"""Gateway transport compression, mirroring discord.utils._ActiveDecompressionContext.

discord.py asks for ``compress=zlib-stream`` (or ``zstd-stream`` when ``zstandard`` or
``compression.zstd`` is importable). Both are *stream* compressions: one compressor per
connection, shared by every message, each message flushed so it can be decoded on its own.
"""

from __future__ import annotations

import json
import zlib
from typing import Any, Protocol


class Compressor(Protocol):
    name: str | None

    def encode(self, payload: Any) -> bytes | str: ...


def _dumps(payload: Any) -> str:
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False)


class PlainCompressor:
    """No transport compression: frames go out as text."""

    name: str | None = None

    def encode(self, payload: Any) -> bytes | str:
        return _dumps(payload)


class ZlibStreamCompressor:
    name: str | None = "zlib-stream"

    def __init__(self) -> None:
        self._compressor = zlib.compressobj()

    def encode(self, payload: Any) -> bytes | str:
        data = _dumps(payload).encode("utf-8")
        # Z_SYNC_FLUSH ends every frame with 00 00 ff ff, the marker discord.py waits for.
        return self._compressor.compress(data) + self._compressor.flush(zlib.Z_SYNC_FLUSH)


class ZstdStreamCompressor:
    name: str | None = "zstd-stream"

    def __init__(self) -> None:
        try:
            import zstandard  # type: ignore[import-not-found]

            self._obj: Any = zstandard.ZstdCompressor().compressobj()
            self._flush_mode: Any = zstandard.COMPRESSOBJ_FLUSH_BLOCK
            self._stdlib = False
        except ImportError:
            from compression.zstd import ZstdCompressor  # type: ignore[import-not-found]

            self._obj = ZstdCompressor()
            self._flush_mode = ZstdCompressor.FLUSH_BLOCK
            self._stdlib = True

    def encode(self, payload: Any) -> bytes | str:
        data = _dumps(payload).encode("utf-8")
        if self._stdlib:
            return self._obj.compress(data, mode=self._flush_mode)
        return self._obj.compress(data) + self._obj.flush(self._flush_mode)


def zstd_available() -> bool:
    try:
        import zstandard  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        try:
            import compression.zstd  # type: ignore[import-not-found]  # noqa: F401
        except ImportError:
            return False
    return True


def make_compressor(requested: str | None) -> Compressor:
    if requested == "zlib-stream":
        return ZlibStreamCompressor()
    if requested == "zstd-stream" and zstd_available():
        return ZstdStreamCompressor()
    # Unknown/unavailable compression: text frames are always accepted by discord.py,
    # which only runs its decompressor on binary frames.
    return PlainCompressor()
