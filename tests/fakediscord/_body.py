"""Request body parsing: JSON, or multipart with ``payload_json`` + ``files[n]`` parts."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from aiohttp import BodyPartReader, web

from ._records import UploadedFile


@dataclasses.dataclass(slots=True)
class ParsedBody:
    json: Any = None
    raw: bytes | None = None
    files: list[UploadedFile] = dataclasses.field(default_factory=list)
    form: dict[str, str] = dataclasses.field(default_factory=dict)
    invalid_json: bool = False


async def parse_body(request: web.Request) -> ParsedBody:
    parsed = ParsedBody()
    if not request.body_exists:
        return parsed
    if request.content_type.startswith("multipart/"):
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if not isinstance(part, BodyPartReader):
                continue  # nested multipart is not something discord.py sends
            data = await part.read(decode=True)
            name = part.name or ""
            if name == "payload_json":
                parsed.json = _loads(data, parsed)
            elif part.filename is not None or name.startswith("files["):
                content_type = part.headers.get("Content-Type")
                parsed.files.append(UploadedFile(name, part.filename, content_type, bytes(data)))
            else:
                parsed.form[name] = data.decode("utf-8", "replace")
        return parsed
    raw = await request.read()
    if not raw:
        return parsed
    if request.content_type == "application/json" or raw[:1] in (b"{", b"["):
        parsed.json = _loads(raw, parsed)
        if parsed.invalid_json:
            parsed.raw = raw
    else:
        parsed.raw = raw
    return parsed


def _loads(data: bytes | bytearray, parsed: ParsedBody) -> Any:
    try:
        return json.loads(data)
    except ValueError:
        parsed.invalid_json = True
        return None
