"""Out-of-process control API (``/_fake/...``) for driving a standalone server.

When the server runs as ``python -m tests.fakediscord`` (e.g. for benchmarks) a harness in
another process can still inject events and read the record over plain HTTP. These routes
are not part of Discord's API and are never recorded in ``FakeDiscord.requests``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

if TYPE_CHECKING:
    from .server import FakeDiscord

JSON = dict[str, Any]


def control_routes(fake: FakeDiscord) -> list[web.RouteDef]:
    async def body(request: web.Request) -> JSON:
        if not request.body_exists:
            return {}
        data = await request.json()
        return data if isinstance(data, dict) else {}

    def guarded(
        fn: Callable[[web.Request], Awaitable[Any]],
    ) -> Callable[[web.Request], Awaitable[web.Response]]:
        async def handler(request: web.Request) -> web.Response:
            try:
                return web.json_response(await fn(request))
            except (LookupError, ValueError, TypeError) as exc:
                return web.json_response({"error": f"{type(exc).__name__}: {exc}"}, status=400)

        return handler

    async def info(request: web.Request) -> JSON:
        return {
            "base_url": fake.base_url,
            "api_base": fake.api_base,
            "gateway_url": fake.gateway_url,
            "token": fake.token,
            "bot_user_id": str(fake.bot_user_id),
            "application_id": str(fake.application_id),
            "guild_id": str(fake.guild_id),
            "channel_id": str(fake.channel_id),
            "default_user_id": str(fake.default_user_id),
            "connected": fake.connected,
        }

    async def message(request: web.Request) -> JSON:
        b = await body(request)
        return await fake.dispatch_message(
            b["content"],
            author=b.get("author"),
            channel_id=int(b["channel_id"]) if b.get("channel_id") else None,
            mentions=b.get("mentions") or (),
            message_reference=b.get("message_reference"),
            mention_bot=bool(b.get("mention_bot")),
        )

    async def slash(request: web.Request) -> JSON:
        b = await body(request)
        return await fake.dispatch_slash(
            b["name"],
            b.get("options") or {},
            user=b.get("user"),
            channel_id=int(b["channel_id"]) if b.get("channel_id") else None,
            member_permissions=b.get("member_permissions"),
            require_synced=b.get("require_synced", True),
        )

    async def component(request: web.Request) -> JSON:
        b = await body(request)
        return await fake.dispatch_component(
            b["message_id"], b["custom_id"], user=b.get("user"), values=b.get("values")
        )

    async def requests(request: web.Request) -> list[JSON]:
        since = int(request.query.get("since", 0))
        return [r.to_dict() for r in fake.requests[since:]]

    async def fail_next(request: web.Request) -> JSON:
        b = await body(request)
        rule = fake.fail_next(
            b.get("method"),
            b["path"],
            int(b.get("status", 429)),
            times=int(b.get("times", 1)),
            retry_after=float(b.get("retry_after", 1.0)),
            is_global=bool(b.get("global", False)),
            via=bool(b.get("via", True)),
            after=bool(b.get("after", False)),
        )
        return {"bucket": rule.bucket}

    async def reconnect(request: web.Request) -> JSON:
        return {"connections": await fake.send_reconnect()}

    async def invalidate(request: web.Request) -> JSON:
        return {"connections": await fake.invalidate_session(bool((await body(request)).get("resumable", False)))}

    async def drop(request: web.Request) -> JSON:
        return {"connections": await fake.drop_connections()}

    async def clear(request: web.Request) -> JSON:
        fake.clear_records()
        return {"ok": True}

    return [
        web.get("/_fake/info", guarded(info)),
        web.post("/_fake/dispatch/message", guarded(message)),
        web.post("/_fake/dispatch/slash", guarded(slash)),
        web.post("/_fake/dispatch/component", guarded(component)),
        web.get("/_fake/requests", guarded(requests)),
        web.post("/_fake/fail_next", guarded(fail_next)),
        web.post("/_fake/gateway/reconnect", guarded(reconnect)),
        web.post("/_fake/gateway/invalidate", guarded(invalidate)),
        web.post("/_fake/gateway/drop", guarded(drop)),
        web.post("/_fake/clear", guarded(clear)),
    ]
