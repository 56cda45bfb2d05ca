"""A GGUF model run in-process through llama.cpp (the ``xllamacpp`` wheel), behind the slice of
the OpenAI client that ``index.generate.generator.Generator`` uses (issue #23).

``xllamacpp.Server(CommonParams)`` loads the model once; ``handle_chat_completions(dict)`` takes
an OpenAI chat request and returns the completion as a dict, or with ``stream`` calls back once
per chunk. So the generator's prompt, deadline, verification and streaming code is the same for
a local model as for an endpoint: ``LocalChat().chat.completions.create(...)`` answers what
``openai.OpenAI().chat.completions.create(...)`` would. Imported only when ``LLM_MODEL=gguf:…``.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from index.generate.settings import LLMSettings

log = logging.getLogger("index.generate.local_llm")
INSTALL_HINT = "a local model needs the `local` extra: pip install '.[local]' (xllamacpp)"


class LocalModelError(RuntimeError):
    """The local model can't be used or failed on a request; one-line message."""


def _namespace(value: Any) -> Any:
    """A JSON value with attribute access, as the openai client's models have (lists stay lists)."""
    if isinstance(value, dict):
        return SimpleNamespace(**{k: _namespace(v) for k, v in value.items()})
    if isinstance(value, list):
        return [_namespace(v) for v in value]
    return value


def _failed(result: Any) -> str | None:
    if isinstance(result, dict) and "error" in result:
        error = result["error"]
        return str(error.get("message", error) if isinstance(error, dict) else error)
    return None


class _Stream:
    """The chunks of one streamed completion, produced by llama.cpp in a thread: iterable, and
    a context manager that stops generation when left early."""

    def __init__(self, server: Any, request: dict[str, Any], lock: threading.Lock) -> None:
        self._chunks: queue.Queue[Any] = queue.Queue()
        self._stopped = threading.Event()
        self._done = object()

        def on_chunk(chunk: Any) -> bool:
            self._chunks.put(chunk)
            return self._stopped.is_set()  # True asks llama.cpp to stop

        def work() -> None:
            try:
                with lock:
                    if not self._stopped.is_set():
                        server.handle_chat_completions(request, on_chunk)
            except Exception as error:
                self._chunks.put(LocalModelError(f"{type(error).__name__}: {error}"))
            finally:
                self._chunks.put(self._done)

        threading.Thread(target=work, name="local-llm", daemon=True).start()

    def __iter__(self) -> Iterator[Any]:
        while True:
            chunk = self._chunks.get()
            if chunk is self._done:
                return
            if isinstance(chunk, Exception):
                raise chunk
            problem = _failed(chunk)
            if problem is not None:
                raise LocalModelError(problem)
            yield _namespace(chunk)

    def close(self) -> None:
        self._stopped.set()

    def __enter__(self) -> _Stream:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


class LocalChat:
    """One loaded model. ``chat.completions.create`` as the openai client has it; requests run one
    at a time (a second waits for the first: two cores serve one generation best)."""

    def __init__(self, settings: LLMSettings) -> None:
        path = settings.local_path
        if path is None or not path.is_file():
            raise LocalModelError(f"no model file at {path}: run `make local-model` or set LLM_MODEL=gguf:<file>")
        try:
            import xllamacpp
        except ImportError:
            raise LocalModelError(INSTALL_HINT) from None
        params = xllamacpp.CommonParams()
        params.model.path = str(path)
        params.n_ctx = settings.context
        params.n_parallel = 1
        params.n_predict = settings.max_tokens
        # llama.cpp logs every request at INFO; with our DEBUG on it may, else only its errors
        params.verbosity = 3 if log.isEnabledFor(logging.DEBUG) else 0
        threads = settings.threads or os.cpu_count() or 1
        params.cpuparams.n_threads = threads
        params.cpuparams_batch.n_threads = threads
        self.path: Path = path
        self._server = xllamacpp.Server(params)  # loads the model: seconds, once
        self._lock = threading.Lock()
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self.create))

    def create(
        self,
        *,
        model: str,
        messages: list[dict[str, str]],
        max_tokens: int,
        temperature: float,
        stream: bool = False,
        timeout: float | None = None,
        logprobs: bool = False,
        top_logprobs: int = 0,
    ) -> Any:
        """A chat completion (an object like the openai client's), or with ``stream`` its chunks.
        ``timeout`` is the caller's business: the generator's deadline bounds the wait."""
        del model, timeout  # one model; no connection to time out
        request: dict[str, Any] = {
            "messages": messages,
            "max_tokens": max_tokens,
            "temperature": temperature,
            "stream": stream,
        }
        if logprobs:
            request.update(logprobs=True, top_logprobs=top_logprobs)
        if stream:
            return _Stream(self._server, request, self._lock)
        with self._lock:
            result = self._server.handle_chat_completions(request)
        problem = _failed(result)
        if problem is not None:
            raise LocalModelError(problem)
        return _namespace(result)

    def close(self) -> None:
        """Nothing to close per request; the model is freed with the object."""


__all__ = ["INSTALL_HINT", "LocalChat", "LocalModelError"]
