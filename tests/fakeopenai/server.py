"""FakeOpenAI: a local OpenAI-compatible chat-completions server with scripted replies.

It runs its own event loop in a background thread, so a blocking client (``openai.OpenAI``) and an
async one (``openai.AsyncOpenAI``) can both talk to it over real sockets on 127.0.0.1::

    with FakeOpenAI() as fake:
        fake.script(Reply.text("答案 [1]"), Reply.error(500))
        client = OpenAI(base_url=fake.base_url, api_key="x", max_retries=0)
        ...
        assert fake.requests[0].json["messages"][0]["role"] == "system"

Each request takes the next scripted reply; when the script runs out the last reply repeats
(so a retried request sees the same failure). Every request is recorded.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

HOST = "127.0.0.1"  # never listen anywhere else
JSON = dict[str, Any]


@dataclass(frozen=True)
class Reply:
    """One scripted response. Build it with the class methods rather than by hand."""

    kind: str  # "text" | "error" | "raw" | "trickle"
    content: str = ""
    finish_reason: str | None = "stop"
    status: int = 200
    body: bytes = b""
    content_type: str = "application/json"
    headers: tuple[tuple[str, str], ...] = ()
    delay: float = 0.0  # before the response headers
    chunk_size: int = 6  # characters per SSE delta when the request streams
    chunk_delay: float = 0.0  # between SSE events
    cut_after: int | None = None  # streaming: drop the connection after this many deltas
    send_done: bool = True  # streaming: end with `data: [DONE]`
    duration: float = 0.0  # trickle: how long to keep sending keep-alives
    model: str | None = None  # the model name the reply claims; default: the requested one

    @classmethod
    def text(
        cls,
        content: str,
        *,
        finish_reason: str | None = "stop",
        delay: float = 0.0,
        chunk_size: int = 6,
        chunk_delay: float = 0.0,
        cut_after: int | None = None,
        send_done: bool = True,
        model: str | None = None,
    ) -> Reply:
        """The assistant says ``content``: one JSON completion, or SSE deltas if the request streams."""
        return cls(
            "text",
            content=content,
            finish_reason=finish_reason,
            delay=delay,
            chunk_size=chunk_size,
            chunk_delay=chunk_delay,
            cut_after=cut_after,
            send_done=send_done,
            model=model,
        )

    @classmethod
    def error(
        cls,
        status: int,
        message: str = "scripted failure",
        *,
        headers: dict[str, str] | None = None,
        delay: float = 0.0,
    ) -> Reply:
        """An OpenAI-style error body with this HTTP status."""
        body = json.dumps({"error": {"message": message, "type": "fake_error", "code": str(status)}})
        pairs = tuple((headers or {}).items())
        return cls("error", status=status, body=body.encode(), headers=pairs, delay=delay)

    @classmethod
    def raw(
        cls, body: str | bytes, *, status: int = 200, content_type: str = "application/json", delay: float = 0.0
    ) -> Reply:
        """Exactly these bytes (malformed JSON, a wrong shape, an HTML error page …)."""
        data = body.encode() if isinstance(body, str) else body
        return cls("raw", status=status, body=data, content_type=content_type, delay=delay)

    @classmethod
    def trickle(cls, duration: float, *, interval: float = 0.05) -> Reply:
        """Headers at once, then keep-alives (SSE comments, or JSON whitespace) for ``duration``
        seconds and nothing else: defeats a per-read timeout, only an overall deadline stops it."""
        return cls("trickle", duration=duration, chunk_delay=interval, finish_reason=None)


@dataclass
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    json: Any
    received_at: float = field(default_factory=time.monotonic)


class FakeOpenAI:
    """The server; use as a (sync) context manager, or call start()/stop()."""

    def __init__(self, default: Reply | None = None, responder: Callable[[Any], str] | None = None) -> None:
        """``responder``: when no scripted reply is left, what the assistant says to a request's JSON
        (a deterministic model: a fake translator, say)."""
        self._default = default or Reply.text("NOT_IN_ARTICLE")
        self.responder = responder
        self._script: list[Reply] = []
        self._last: Reply | None = None
        self._lock = threading.Lock()
        self.requests: list[RecordedRequest] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self._stopping: asyncio.Event | None = None
        self.port = 0

    # -- control (any thread) -----------------------------------------------------------
    @property
    def base_url(self) -> str:
        return f"http://{HOST}:{self.port}/v1"

    def script(self, *replies: Reply) -> None:
        """Replace the script: the next requests get these replies in order."""
        with self._lock:
            self._script = list(replies)
            self._last = None

    def _next_reply(self) -> Reply:
        with self._lock:
            if self._script:
                self._last = self._script.pop(0)
            return self._last or self._default

    def reset(self) -> None:
        with self._lock:
            self._script, self._last = [], None
            self.requests.clear()

    def start(self) -> FakeOpenAI:
        ready = threading.Event()
        errors: list[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            try:
                loop.run_until_complete(self._serve())
            except BaseException as error:  # surfaced to start()
                errors.append(error)
            finally:
                ready.set()
            loop.run_forever()
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

        self._thread = threading.Thread(target=run, name="fakeopenai", daemon=True)
        self._thread.start()
        ready.wait(10)
        if errors:
            raise errors[0]
        return self

    def stop(self) -> None:
        loop, thread = self._loop, self._thread
        if loop is None or thread is None:
            return
        future = asyncio.run_coroutine_threadsafe(self._shutdown(), loop)
        future.result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        self._loop = self._thread = None

    def __enter__(self) -> FakeOpenAI:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- the server (its own thread and loop) -----------------------------------------------
    async def _serve(self) -> None:
        self._stopping = asyncio.Event()
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._chat)
        app.router.add_get("/v1/models", self._models)
        self._runner = web.AppRunner(app, shutdown_timeout=0.2, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, HOST, self.port)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[union-attr]
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def _shutdown(self) -> None:
        assert self._stopping is not None
        self._stopping.set()  # wakes every scripted sleep
        if self._runner is not None:
            await self._runner.cleanup()

    async def _sleep(self, seconds: float) -> bool:
        """Sleep unless the server is stopping; False if it is."""
        assert self._stopping is not None
        if seconds <= 0:
            return not self._stopping.is_set()
        try:
            await asyncio.wait_for(self._stopping.wait(), seconds)
        except asyncio.TimeoutError:
            return True
        return False

    async def _models(self, request: web.Request) -> web.Response:
        return web.json_response({"object": "list", "data": [{"id": "fake-model", "object": "model"}]})

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        body = await request.read()
        try:
            payload = json.loads(body)
        except ValueError:
            payload = None
        with self._lock:
            self.requests.append(RecordedRequest(request.method, request.path, dict(request.headers), body, payload))
        with self._lock:
            scripted = bool(self._script)
        reply = self._next_reply() if scripted or self.responder is None else Reply.text(self.responder(payload))
        if not await self._sleep(reply.delay):
            return web.Response(status=503)
        if reply.kind in ("error", "raw"):
            headers = dict(reply.headers)
            return web.Response(status=reply.status, body=reply.body, content_type=reply.content_type, headers=headers)
        streaming = bool(isinstance(payload, dict) and payload.get("stream"))
        model = reply.model or (payload.get("model") if isinstance(payload, dict) else None) or "fake-model"
        if reply.kind == "trickle":
            return await self._trickle(request, reply, streaming)
        if streaming:
            return await self._stream(request, reply, model)
        return web.json_response(_completion(model, reply.content, reply.finish_reason))

    async def _trickle(self, request: web.Request, reply: Reply, streaming: bool) -> web.StreamResponse:
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream" if streaming else "application/json"}
        )
        await response.prepare(request)
        keepalive = b": keep-alive\n\n" if streaming else b" "
        deadline = time.monotonic() + reply.duration
        try:
            while time.monotonic() < deadline and await self._sleep(reply.chunk_delay):
                await response.write(keepalive)
        except (ConnectionError, RuntimeError):
            pass  # the client gave up, as it should
        return response

    async def _stream(self, request: web.Request, reply: Reply, model: str) -> web.StreamResponse:
        headers = {"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
        response = web.StreamResponse(headers=headers)
        await response.prepare(request)
        try:
            for i, event in enumerate(_chunks(model, reply.content, reply.chunk_size, reply.finish_reason)):
                if reply.cut_after is not None and i > reply.cut_after:
                    # Drop the connection mid-body: the chunked encoding never terminates.
                    if request.transport is not None:
                        request.transport.abort()
                    return response
                if i and not await self._sleep(reply.chunk_delay):
                    return response
                await response.write(b"data: " + json.dumps(event, ensure_ascii=False).encode() + b"\n\n")
            if reply.send_done:
                await response.write(b"data: [DONE]\n\n")
            await response.write_eof()
        except (ConnectionError, RuntimeError):
            pass
        return response


def _completion(model: str, content: str, finish_reason: str | None) -> JSON:
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": finish_reason}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def _chunks(model: str, content: str, size: int, finish_reason: str | None) -> Iterator[JSON]:
    """The SSE events of a streamed completion: a role delta, content deltas, then the finish."""

    def event(delta: JSON, finish: str | None = None) -> JSON:
        return {
            "id": "chatcmpl-fake",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }

    yield event({"role": "assistant", "content": ""})
    for start in range(0, len(content), max(1, size)):
        yield event({"content": content[start : start + size]})
    if finish_reason is not None:
        yield event({}, finish_reason)
