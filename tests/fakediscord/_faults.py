"""Fault injection: make the next matching REST call(s) fail like Discord would."""

from __future__ import annotations

import dataclasses
import math
import re
import secrets
import time
from http import HTTPStatus
from typing import Any


@dataclasses.dataclass(slots=True)
class FaultRule:
    method: str | None  # None matches any method
    pattern: re.Pattern[str]  # searched in the full request path (/api/v10/...)
    status: int
    remaining: int
    retry_after: float
    is_global: bool
    via: bool
    body: dict[str, Any] | None
    after: bool = False  # do the request, then answer with the failure (a response lost on the way back)
    bucket: str = dataclasses.field(default_factory=lambda: secrets.token_hex(16))
    hits: int = 0

    def matches(self, method: str, path: str) -> bool:
        if self.remaining <= 0:
            return False
        if self.method is not None and self.method != method.upper():
            return False
        return self.pattern.search(path) is not None


class FaultInjector:
    def __init__(self) -> None:
        self.rules: list[FaultRule] = []

    def add(
        self,
        method: str | None,
        path_regex: str,
        status: int,
        *,
        times: int = 1,
        retry_after: float = 1.0,
        is_global: bool = False,
        via: bool = True,
        body: dict[str, Any] | None = None,
        after: bool = False,
    ) -> FaultRule:
        method = None if method in (None, "*") else method.upper()
        rule = FaultRule(method, re.compile(path_regex), status, times, retry_after, is_global, via, body, after)
        self.rules.append(rule)
        return rule

    def take(self, method: str, path: str) -> FaultRule | None:
        """Consume one use of the first rule matching this request, if any."""
        for rule in self.rules:
            if rule.matches(method, path):
                rule.remaining -= 1
                rule.hits += 1
                if rule.remaining <= 0:
                    self.rules.remove(rule)
                return rule
        return None

    def clear(self) -> None:
        self.rules.clear()


def fault_response(rule: FaultRule) -> tuple[int, dict[str, Any], dict[str, str]]:
    """Status, JSON body and headers for an injected failure."""
    headers: dict[str, str] = {}
    if rule.via:
        # discord.py treats a 429 *without* a Via header as a Cloudflare ban and raises
        # instead of retrying (http.py / webhook/async_.py), so a Discord-like 429 carries it.
        headers["Via"] = "1.1 google"
    if rule.status == 429:
        body = rule.body or {
            "message": "You are being rate limited.",
            "retry_after": rule.retry_after,
            "global": rule.is_global,
        }
        headers.update(
            {
                "Retry-After": str(max(1, math.ceil(rule.retry_after))),
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset": f"{time.time() + rule.retry_after:.3f}",
                "X-RateLimit-Reset-After": f"{rule.retry_after:.3f}",
                "X-RateLimit-Bucket": rule.bucket,
                "X-RateLimit-Scope": "global" if rule.is_global else "user",
            }
        )
        if rule.is_global:
            headers["X-RateLimit-Global"] = "true"
        return 429, body, headers
    try:
        phrase = HTTPStatus(rule.status).phrase
    except ValueError:
        phrase = "Error"
    return rule.status, rule.body or {"message": f"{rule.status}: {phrase}", "code": 0}, headers
