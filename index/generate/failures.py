"""What an endpoint's failure means: its typed reason, whether another attempt may follow, and when.
Pure functions over the openai client's exceptions (index/generate/generator.py makes the requests)."""

from __future__ import annotations

import random
import sys
from typing import Any

from index.generate.outcome import FailureReason, GenerationFailure

MAX_RETRIES = 1  # our own, deadline-aware; the client's retries (Retry-After up to 2 min) are off
RETRY_DELAY = 0.5
MIN_ATTEMPT_SECONDS = 0.25  # don't start an attempt with less time than this left


def retry_delay(retryable: bool, retry_after: float | None, attempt: int, remaining: float) -> float | None:
    """Seconds to wait before the next attempt, or None to give up now: only retryable failures,
    at most MAX_RETRIES, and only if an attempt still fits in the deadline after the wait."""
    if not retryable or attempt >= MAX_RETRIES:
        return None
    jitter = 0.75 + random.random() / 4
    delay = retry_after if retry_after is not None else RETRY_DELAY * (2**attempt) * jitter
    return delay if remaining - delay >= MIN_ATTEMPT_SECONDS else None


def _http_error_classes() -> tuple[tuple[type[BaseException], ...], tuple[type[BaseException], ...]]:
    """(timeouts, all HTTP errors) of whichever httpx flavour the openai client has loaded."""
    timeouts: list[type[BaseException]] = []
    errors: list[type[BaseException]] = []
    for name in ("httpx2", "httpx"):
        module = sys.modules.get(name)
        if module is not None:
            timeouts.append(module.TimeoutException)
            errors.append(module.HTTPError)
    return tuple(timeouts), tuple(errors)


def classify(error: BaseException, received: bool) -> tuple[GenerationFailure, bool, float | None]:
    """An exception as (failure, retryable, Retry-After seconds). ``received``: some of the answer
    had already arrived (then a dropped connection is a cut stream, and never retried)."""
    import openai

    timeouts, http_errors = _http_error_classes()
    if isinstance(error, (openai.APITimeoutError, *timeouts)):
        reason: FailureReason = "stream_cut" if received else "timeout"
        return GenerationFailure(reason, "request timed out"), not received, None
    if isinstance(error, (openai.APIConnectionError, *http_errors)):
        cause = error.__cause__ or error
        reason = "stream_cut" if received else "connection"
        return GenerationFailure(reason, type(cause).__name__), not received, None
    if isinstance(error, openai.APIStatusError):
        status = error.status_code
        retryable = not received and (status in (408, 409, 429) or status >= 500)
        return GenerationFailure("http_status", f"HTTP {status}"), retryable, _retry_after(error.response)
    if isinstance(error, openai.APIError) and not isinstance(error, openai.APIResponseValidationError):
        # An error event inside an SSE stream (vLLM, llama.cpp do this when generation fails).
        return GenerationFailure("stream_cut" if received else "error", type(error).__name__), False, None
    malformed = (openai.APIResponseValidationError, ValueError, TypeError, AttributeError, LookupError)
    if isinstance(error, malformed):  # e.g. json.JSONDecodeError from a body that isn't JSON
        return GenerationFailure("malformed", type(error).__name__), False, None
    return GenerationFailure("error", type(error).__name__), False, None


def _retry_after(response: Any) -> float | None:
    headers = getattr(response, "headers", None) or {}
    try:
        if headers.get("retry-after-ms"):
            return float(headers["retry-after-ms"]) / 1000
        if headers.get("retry-after"):
            return float(headers["retry-after"])
    except ValueError:
        pass  # an HTTP date: not worth parsing for a deadline of seconds
    return None
