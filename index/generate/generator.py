"""Generative answers through any OpenAI-compatible endpoint: grounded, cited, verified (issue #7).

The extractive answer is always computed first and stays the fallback: a generated answer is
used only when it arrived within the deadline, cites at least one supplied passage, cites
nothing else, and is in the question's language. Everything that can go wrong (timeouts,
connection errors, 4xx/5xx, malformed bodies, a stream cut midway, an uncited or injected
reply) ends in a typed ``GenerationFailure`` and one log line, never an exception.

This module is the client: requests, retries within the deadline, streaming. The pure parts
are beside it: the outcome types (index/generate/outcome.py), prompt building (index/generate/prompt.py),
marker parsing, verification and the streaming preview (index/generate/verify.py), citation mapping
(index/generate/citations.py). I/O lives in ``Generator`` only; ``openai`` is imported lazily because
importing it takes over a second.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from index.generate.answerable import answerable_score
from index.generate.failures import MIN_ATTEMPT_SECONDS, classify, retry_delay
from index.generate.judge import second_reading
from index.generate.outcome import (
    Check,
    Done,
    GenerationFailure,
    Outcome,
    Partial,
    StreamEvent,
    Verifier,
)
from index.generate.prompt import build_messages
from index.generate.review import Reader, reviewed
from index.generate.settings import LLMSettings
from index.generate.verify import preview, verify
from index.models import Passage

log = logging.getLogger("index.generate.generator")

PLACEHOLDER_KEY = "no-key"  # local servers need no key, but the client insists on one
STREAM_INTERVAL = 1.0  # at most one Partial per second: a Discord message edit each


# -- talking to the endpoint ----------------------------------------------------------------------
@dataclass(frozen=True)
class _Delta:
    text: str


@dataclass(frozen=True)
class _End:
    finish_reason: str | None


_Event = _Delta | _End | GenerationFailure


def _completion_events(completion: Any) -> list[_Event]:
    """A non-streamed response as events; a malformed one as a failure."""
    choices = getattr(completion, "choices", None)
    if not isinstance(choices, list) or not choices:
        return [GenerationFailure("malformed", "no choices")]
    message = getattr(choices[0], "message", None)
    content = getattr(message, "content", None)
    if content is not None and not isinstance(content, str):
        return [GenerationFailure("malformed", "content is not text")]
    return [_Delta(content or ""), _End(getattr(choices[0], "finish_reason", None) or "stop")]


def _chunk_event(chunk: Any) -> tuple[str, str | None] | GenerationFailure:
    """One streamed chunk as (text, finish_reason); usage-only chunks have no choices."""
    choices = getattr(chunk, "choices", None)
    if not isinstance(choices, list):
        return GenerationFailure("malformed", "chunk without choices")
    if not choices:
        return "", None
    delta = getattr(choices[0], "delta", None)
    content = getattr(delta, "content", None)
    if content is not None and not isinstance(content, str):
        return GenerationFailure("malformed", "delta content is not text")
    return content or "", getattr(choices[0], "finish_reason", None)


class _Assembler:
    """Collects one response's events into an outcome."""

    def __init__(
        self, passages: Sequence[Passage], language: str, model: str, streaming: bool, check: Check | None = None
    ) -> None:
        self.passages, self.language, self.model, self.streaming = passages, language, model, streaming
        self.check = check
        self.parts: list[str] = []

    @property
    def text(self) -> str:
        return "".join(self.parts)

    def finish(self, finish_reason: str | None) -> Outcome:
        if self.streaming and finish_reason is None:
            return GenerationFailure("stream_cut", "stream ended without a finish_reason")
        return verify(self.text, self.passages, self.language, self.model, finish_reason, self.check)


def chat_client(settings: LLMSettings) -> Any:
    """What answers ``chat.completions.create``: the local model loaded in-process (``gguf:…``), or
    an OpenAI client for the endpoint (imports openai: over a second)."""
    if settings.local_path is not None:
        from index.generate.local_llm import LocalChat  # xllamacpp: only when a local model is set

        return LocalChat(settings)
    import openai

    key = settings.api_key.get_secret_value() if settings.api_key else PLACEHOLDER_KEY
    # an explicit key also keeps an unrelated OPENAI_API_KEY from being sent to this endpoint
    return openai.OpenAI(base_url=settings.base_url, api_key=key, timeout=settings.timeout, max_retries=0)


class Generator:
    """Generates answers with one configured endpoint. Thread-safe; create one and reuse it.

    ``generate`` and ``stream`` block: the CLI calls them directly, the bot from the worker
    thread that answers a question.
    Every call returns within ``settings.deadline`` seconds (plus scheduling slack).
    """

    def __init__(self, settings: LLMSettings) -> None:
        if not settings.enabled:
            raise ValueError(f"generative answers are off: set {' and '.join(settings.missing)}")
        self.settings = settings
        self.model: str = settings.model_name
        self._lock = threading.Lock()
        self._client: Any = None  # openai.OpenAI, or index.generate.local_llm.LocalChat for LLM_MODEL=gguf:…
        self._sync_client()  # imports openai (over a second), or loads the model, now: not inside a deadline

    @property
    def label(self) -> str:
        return self.settings.label

    # -- clients ------------------------------------------------------------------------------
    def _sync_client(self) -> Any:
        with self._lock:
            if self._client is None:
                self._client = chat_client(self.settings)
            return self._client

    def close(self) -> None:
        with self._lock:
            if self._client is not None:
                self._client.close()
                self._client = None

    def _request(self, messages: list[dict[str, str]], streaming: bool, remaining: float) -> dict[str, Any]:
        return {
            "model": self.model,
            "messages": messages,
            "max_tokens": self.settings.max_tokens,
            "temperature": self.settings.temperature,
            "stream": streaming,
            "timeout": max(0.01, min(self.settings.timeout, remaining)),  # each read, connect, write
        }

    def _redact(self, failure: GenerationFailure) -> GenerationFailure:
        key = self.settings.api_key.get_secret_value() if self.settings.api_key else ""
        if key and key in failure.detail:
            return GenerationFailure(failure.reason, failure.detail.replace(key, "***"))
        return failure

    def _deadline_failure(self) -> GenerationFailure:
        return GenerationFailure("deadline", f"no complete answer within {self.settings.deadline:g} s")

    def _report(self, outcome: Outcome, started: float) -> Outcome:
        """One log line per question that didn't get a generated answer."""
        elapsed = time.monotonic() - started
        if isinstance(outcome, GenerationFailure):
            outcome = self._redact(outcome)
            log.warning(
                "LLM answer unavailable (%s: %s) from %s after %.2f s; using the extractive answer",
                outcome.reason,
                outcome.detail,
                self.label,
                elapsed,
            )
        elif outcome.abstained:
            log.info("LLM %s says the passages don't answer the question (%.2f s)", self.label, elapsed)
        return outcome

    # -- sync ---------------------------------------------------------------------------------------
    def _produce(
        self, messages: list[dict[str, str]], streaming: bool, deadline_at: float, cancelled: threading.Event
    ) -> Iterator[_Event]:
        """The endpoint's response as events, retrying (before anything arrived) within the deadline."""
        client = self._sync_client()
        attempt = 0
        while True:
            received = False
            try:
                response = client.chat.completions.create(
                    **self._request(messages, streaming, deadline_at - time.monotonic())
                )
                if not streaming:
                    yield from _completion_events(response)
                    return
                with response:
                    finish: str | None = None
                    for chunk in response:
                        if cancelled.is_set():
                            return
                        parsed = _chunk_event(chunk)
                        if isinstance(parsed, GenerationFailure):
                            yield parsed
                            return
                        text, finish = parsed[0], parsed[1] or finish
                        if text:
                            received = True
                            yield _Delta(text)
                    yield _End(finish)
                return
            except Exception as error:
                failure, retryable, retry_after = classify(error, received)
                delay = retry_delay(retryable, retry_after, attempt, deadline_at - time.monotonic())
                if delay is None or cancelled.is_set():
                    yield failure
                    return
                log.debug("retrying after %s in %.2f s", failure.reason, delay)
                if cancelled.wait(delay):
                    return
                attempt += 1

    def _run(
        self,
        question: str,
        passages: Sequence[Passage],
        language: str,
        streaming: bool,
        interval: float,
        verifier: Verifier | None = None,
        spent: float = 0.0,
        english: Mapping[str, str] | None = None,
    ) -> Iterator[StreamEvent]:
        """Runs ``_produce`` in a worker thread so the deadline holds even while a read blocks
        (a server trickling keep-alives never trips a per-read timeout)."""
        started = time.monotonic()
        deadline_at = started + self.settings.deadline - spent
        if deadline_at - started < MIN_ATTEMPT_SECONDS:  # the check spent the deadline: no request at all
            yield Done(self._report(self._deadline_failure(), started))
            return
        passages = passages[: self.settings.passages]
        messages = build_messages(question, passages, language, english)
        events: queue.Queue[_Event | None] = queue.Queue()
        cancelled = threading.Event()

        def work() -> None:
            try:
                for event in self._produce(messages, streaming, deadline_at, cancelled):
                    events.put(event)
            except Exception as error:  # classify() itself failing must not hang the caller
                events.put(GenerationFailure("error", type(error).__name__))
            finally:
                events.put(None)

        threading.Thread(target=work, name="llm-generate", daemon=True).start()
        check = (lambda text, given: verifier.problem(text, given)) if verifier is not None else None
        stays = (lambda text: verifier.shown(text, passages)) if verifier is not None else None
        assembler = _Assembler(passages, language, self.model, streaming, check)
        shown, last_shown = "", float("-inf")
        outcome: Outcome | None = None
        try:
            while outcome is None:
                try:
                    event = events.get(timeout=max(0.0, deadline_at - time.monotonic()))
                except queue.Empty:
                    outcome = self._deadline_failure()
                    break
                if event is None:
                    outcome = GenerationFailure("error", "the response ended without an answer")
                elif isinstance(event, GenerationFailure):
                    outcome = event
                elif isinstance(event, _End):
                    outcome = assembler.finish(event.finish_reason)
                    if verifier is not None:
                        read = self._reader(question, deadline_at)
                        outcome = reviewed(outcome, assembler.text, passages, language, self.model, verifier, read)
                else:
                    assembler.parts.append(event.text)
                    now = time.monotonic()
                    if streaming and now - last_shown >= interval:
                        text = preview(assembler.text, len(passages), stays)
                        if text and text != shown:
                            shown, last_shown = text, now
                            yield Partial(text)
        finally:
            cancelled.set()  # the worker stops at its next event; its reads are bounded by the timeout
        yield Done(self._report(outcome, started))

    def _reader(self, question: str, deadline_at: float) -> Reader | None:
        """The model's second reading within what is left of the deadline, or None when it is off."""
        remaining = deadline_at - time.monotonic()
        if not self.settings.judge or remaining < MIN_ATTEMPT_SECONDS:
            return None
        client = self._sync_client()
        return lambda text, cited: second_reading(client, self.model, question, text, cited, remaining)

    def answerability(self, question: str, passages: Sequence[str]) -> float | None:
        """The model's log-odds that ``passages`` answer ``question``; None when it couldn't be had.
        Bounded by the answer's deadline too: the seconds it takes are spent from it (``generate``)."""
        timeout = min(self.settings.timeout, self.settings.deadline)
        return answerable_score(self._sync_client(), self.model, question, passages, timeout)

    def generate(
        self,
        question: str,
        passages: Sequence[Passage],
        language: str,
        verifier: Verifier | None = None,
        spent: float = 0.0,
        english: Mapping[str, str] | None = None,
    ) -> Outcome:
        """One verified answer or a failure, within the deadline less the ``spent`` seconds (the
        check's). Never raises for endpoint trouble. The model sees the first ``settings.passages``
        passages (and ``english``: their verified English by chunk id); [n] numbers positions in them."""
        outcome: Outcome = GenerationFailure("error", "no outcome")
        for event in self._run(question, passages, language, False, 0.0, verifier, spent, english):
            if isinstance(event, Done):
                outcome = event.outcome
        return outcome

    def stream(
        self,
        question: str,
        passages: Sequence[Passage],
        language: str,
        interval: float = STREAM_INTERVAL,
        verifier: Verifier | None = None,
        spent: float = 0.0,
        english: Mapping[str, str] | None = None,
    ) -> Iterator[StreamEvent]:
        """Partial texts as the answer streams in (at most one per ``interval`` seconds), then Done,
        within the deadline less ``spent``. With a ``verifier`` a partial text holds only the
        sentences it lets stay."""
        return self._run(question, passages, language, True, interval, verifier, spent, english)
