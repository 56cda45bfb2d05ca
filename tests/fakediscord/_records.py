"""What the bot did, kept for assertions, plus a way to await it without sleeping."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from typing import Any, Literal, TypeVar

T = TypeVar("T")


@dataclasses.dataclass(slots=True)
class UploadedFile:
    """One file part of a multipart request (``files[n]``)."""

    field: str
    filename: str | None
    content_type: str | None
    data: bytes

    @property
    def size(self) -> int:
        return len(self.data)

    def to_dict(self) -> dict[str, Any]:
        return {
            "field": self.field,
            "filename": self.filename,
            "content_type": self.content_type,
            "size": self.size,
        }


@dataclasses.dataclass(slots=True)
class RecordedRequest:
    """One REST call as the fake server saw and answered it.

    Supports ``record["json"]`` as well as ``record.json`` so tests may treat it like a dict.
    """

    t: float  # time.monotonic() when the request arrived
    method: str
    path: str  # full path, e.g. /api/v10/channels/1/messages
    route: str  # path relative to the API base, e.g. /channels/1/messages
    query: dict[str, str]
    json: Any  # parsed JSON body; for multipart the parsed ``payload_json``
    body: bytes | None  # raw body when it was not JSON/multipart
    files: list[UploadedFile]
    headers: dict[str, str]
    status: int = 0
    response: Any = None  # JSON we answered with (None for 204)
    interaction_id: int | None = None  # set for callback/webhook calls that belong to an interaction
    injected: bool = False  # answered by fail_next() instead of the real handler
    committed: bool = False  # injected after the handler ran: done, though the client saw a failure
    unknown_route: bool = False

    def __getitem__(self, key: str) -> Any:
        return getattr(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        return getattr(self, key, default)

    @property
    def payload(self) -> dict[str, Any]:
        """The message-ish part of the body: ``data`` for interaction callbacks, else the body."""
        body = self.json if isinstance(self.json, dict) else {}
        if self.route.endswith("/callback"):
            data = body.get("data")
            return data if isinstance(data, dict) else {}
        return body

    @property
    def content(self) -> str | None:
        return self.payload.get("content")

    @property
    def callback_type(self) -> int | None:
        if self.route.endswith("/callback") and isinstance(self.json, dict):
            return self.json.get("type")
        return None

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

    def to_dict(self) -> dict[str, Any]:
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        out["files"] = [f.to_dict() for f in self.files]
        out["body"] = self.body.decode("utf-8", "replace") if self.body is not None else None
        return out

    def summary(self) -> str:
        extra = f" content={self.content!r}" if self.content else ""
        if self.callback_type is not None:
            extra += f" callback_type={self.callback_type}"
        return f"{self.method} {self.route} -> {self.status}{extra}"


@dataclasses.dataclass(slots=True)
class GatewayRecord:
    """One gateway frame, in either direction."""

    t: float
    connection_id: int
    session_id: str | None
    direction: Literal["send", "recv"]
    op: int | None
    event: str | None
    seq: int | None
    data: Any

    def __getitem__(self, key: str) -> Any:
        return getattr(self, key)


class ChangeNotifier:
    """Wakes waiters whenever something is recorded, so waits are event-driven, not polled."""

    def __init__(self) -> None:
        self._waiters: set[asyncio.Future[None]] = set()

    def notify(self) -> None:
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_result(None)
        self._waiters.clear()

    async def wait_for(
        self,
        predicate: Callable[[], T],
        timeout: float,
        describe: Callable[[], str] | None = None,
    ) -> T:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                detail = describe() if describe else ""
                raise TimeoutError(f"condition not met within {timeout:.2f}s{': ' + detail if detail else ''}")
            waiter: asyncio.Future[None] = loop.create_future()
            self._waiters.add(waiter)
            try:
                await asyncio.wait({waiter}, timeout=remaining)
            finally:
                self._waiters.discard(waiter)
