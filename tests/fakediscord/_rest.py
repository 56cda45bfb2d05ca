"""REST API v10 handlers, plus the middleware that records, authenticates and injects faults."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from ._body import ParsedBody, parse_body
from ._constants import Callback, ChannelType, ErrorCode, InteractionType, MsgFlag, MsgType
from ._faults import FaultInjector, fault_response
from ._gateway import Gateway
from ._records import RecordedRequest
from ._state import ApiError, InteractionState, Store

JSON = dict[str, Any]
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
NONCE_WINDOW = 300.0  # seconds a nonce is remembered for enforce_nonce ("the past few minutes")

# Interaction webhooks/callbacks authenticate with the token in the URL, not a bot token.
_TOKENLESS_PREFIXES = ("/webhooks/", "/interactions/")
_RECORDED_HEADERS = ("Authorization", "Content-Type", "User-Agent", "X-Audit-Log-Reason")
_ALLOWED_CALLBACKS: dict[int, set[int]] = {
    InteractionType.PING: {Callback.PONG},
    InteractionType.APPLICATION_COMMAND: {4, 5, 9, 12},
    InteractionType.MESSAGE_COMPONENT: {4, 5, 6, 7, 9, 12},
    InteractionType.AUTOCOMPLETE: {8},
    InteractionType.MODAL_SUBMIT: {4, 5, 6, 7},
}


# Typed request-storage keys (aiohttp >= 3.12 warns about plain string keys).
if hasattr(web, "RequestKey"):
    _BODY_KEY: Any = web.RequestKey("fakediscord_body", ParsedBody)
    _RESPONSE_KEY: Any = web.RequestKey("fakediscord_response_json", object)
else:  # pragma: no cover - older aiohttp
    _BODY_KEY = "fakediscord_body"
    _RESPONSE_KEY = "fakediscord_response_json"


@dataclasses.dataclass(slots=True)
class RestConfig:
    token: str
    api_prefix: str = "/api/v10"
    interaction_ack_timeout: float | None = 3.0  # Discord's window for the initial callback
    latency: float = 0.0  # artificial delay added to every API response
    application_flags: int = 0


def _dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def _reply(request: web.Request, data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    request[_RESPONSE_KEY] = data
    # Exactly "application/json": discord.py's json_or_text() compares the header verbatim and
    # would hand the raw text to its parsers if aiohttp appended "; charset=utf-8".
    return web.Response(
        body=_dumps(data).encode("utf-8"),
        status=status,
        headers={**(headers or {}), "Content-Type": "application/json"},
    )


def _no_content() -> web.Response:
    return web.Response(status=204)


def _body(request: web.Request) -> ParsedBody:
    return request[_BODY_KEY]


def _json_body(request: web.Request) -> JSON:
    data = _body(request).json
    return data if isinstance(data, dict) else {}


def _int(request: web.Request, key: str, unknown: ApiError) -> int:
    try:
        return int(request.match_info[key])
    except (KeyError, ValueError):
        raise unknown from None


def _require_message_content(body: JSON, body_files: list[Any]) -> None:
    if not any(body.get(k) for k in ("content", "embeds", "components", "sticker_ids", "poll")) and not body_files:
        raise ApiError(400, ErrorCode.CANNOT_SEND_EMPTY_MESSAGE, "Cannot send an empty message")


class RestApi:
    def __init__(
        self,
        store: Store,
        gateway: Gateway,
        faults: FaultInjector,
        config: RestConfig,
        *,
        gateway_url: Callable[[], str],
        on_record: Callable[[RecordedRequest], None],
    ) -> None:
        self.store = store
        self.gateway = gateway
        self.faults = faults
        self.config = config
        self._gateway_url = gateway_url
        self._on_record = on_record

    # ------------------------------------------------------------ middleware
    def is_api_path(self, path: str) -> bool:
        return not (path.startswith(("/_fake/", "/cdn/")) or path == "/gateway")

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if not self.is_api_path(request.path):
            return await handler(request)
        arrived = time.monotonic()
        body = await parse_body(request)
        request[_BODY_KEY] = body
        prefix = self.config.api_prefix
        route = request.path[len(prefix) :] if request.path.startswith(prefix + "/") else request.path
        record = RecordedRequest(
            t=arrived,
            method=request.method,
            path=request.path,
            route=route,
            query=dict(request.query),
            json=body.json,
            body=body.raw,
            files=body.files,
            headers={h: request.headers[h] for h in _RECORDED_HEADERS if h in request.headers},
        )
        try:
            response = await self._respond(request, handler, record, route)
        except ApiError as exc:
            response = _reply(request, exc.body(), exc.status)
        record.status = response.status
        record.response = request.get(_RESPONSE_KEY)
        self._on_record(record)
        return response

    async def _respond(
        self, request: web.Request, handler: Handler, record: RecordedRequest, route: str
    ) -> web.StreamResponse:
        if request.match_info.http_exception is not None or not request.path.startswith(self.config.api_prefix + "/"):
            record.unknown_route = True
            return _reply(request, {"message": "404: Not Found", "code": 0}, 404)
        if self.config.latency:
            await asyncio.sleep(self.config.latency)
        authorized = request.headers.get("Authorization") == f"Bot {self.config.token}"
        if not authorized and not route.startswith(_TOKENLESS_PREFIXES):
            return _reply(request, {"message": "401: Unauthorized", "code": 0}, 401)
        record.interaction_id = self._interaction_of(request)
        rule = self.faults.take(request.method, request.path)
        if rule is not None and not rule.after:
            record.injected = True
            status, payload, headers = fault_response(rule)
            return _reply(request, payload, status, headers)
        if _body(request).invalid_json:
            raise ApiError(400, 50109, "The request body contains invalid JSON.")
        response = await handler(request)
        if rule is not None:  # done, but the client hears of a failure (a proxy's 502 on the way back)
            record.injected = True
            record.committed = True
            status, payload, headers = fault_response(rule)
            return _reply(request, payload, status, headers)
        return response

    def _interaction_of(self, request: web.Request) -> int | None:
        if "interaction_id" in request.match_info:
            try:
                return int(request.match_info["interaction_id"])
            except ValueError:
                return None
        token = request.match_info.get("token")
        return self.store.interaction_tokens.get(token) if token else None

    # ---------------------------------------------------------------- routes
    def routes(self) -> list[web.RouteDef]:
        p = self.config.api_prefix
        table: list[tuple[str, str, Handler]] = [
            ("GET", "/users/@me", self.get_me),
            ("GET", "/users/{user_id}", self.get_user),
            ("POST", "/users/@me/channels", self.create_dm),
            ("GET", "/gateway", self.get_gateway),
            ("GET", "/gateway/bot", self.get_gateway_bot),
            ("GET", "/oauth2/applications/@me", self.get_application),
            ("GET", "/applications/@me", self.get_application),
            # application commands (global and guild scoped share handlers)
            ("GET", "/applications/{app_id}/commands", self.list_commands),
            ("PUT", "/applications/{app_id}/commands", self.bulk_commands),
            ("POST", "/applications/{app_id}/commands", self.create_command),
            ("GET", "/applications/{app_id}/commands/{command_id}", self.get_command),
            ("PATCH", "/applications/{app_id}/commands/{command_id}", self.edit_command),
            ("DELETE", "/applications/{app_id}/commands/{command_id}", self.delete_command),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands", self.list_commands),
            ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", self.bulk_commands),
            ("POST", "/applications/{app_id}/guilds/{guild_id}/commands", self.create_command),
            (
                "GET",
                "/applications/{app_id}/guilds/{guild_id}/commands/permissions",
                self.list_command_permissions,
            ),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}", self.get_command),
            ("PATCH", "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}", self.edit_command),
            ("DELETE", "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}", self.delete_command),
            # interactions
            ("POST", "/interactions/{interaction_id}/{token}/callback", self.interaction_callback),
            ("POST", "/webhooks/{app_id}/{token}", self.create_followup),
            ("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", self.get_webhook_message),
            ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", self.edit_webhook_message),
            ("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", self.delete_webhook_message),
            # channels and messages
            ("GET", "/channels/{channel_id}", self.get_channel),
            ("GET", "/channels/{channel_id}/messages", self.list_messages),
            ("POST", "/channels/{channel_id}/messages", self.create_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self.edit_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message),
            ("POST", "/channels/{channel_id}/typing", self.typing),
            ("POST", "/channels/{channel_id}/messages/{message_id}/threads", self.thread_from_message),
            ("POST", "/channels/{channel_id}/threads", self.thread_without_message),
            ("PUT", "/channels/{channel_id}/thread-members/@me", self.no_content),
            ("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", self.add_reaction),
            (
                "DELETE",
                "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
                self.remove_reaction,
            ),
            # guilds
            ("GET", "/guilds/{guild_id}", self.get_guild),
            ("GET", "/guilds/{guild_id}/channels", self.get_guild_channels),
            ("GET", "/guilds/{guild_id}/roles", self.get_guild_roles),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member),
        ]
        api = [web.route(method, p + path, handler) for method, path, handler in table]
        return [
            *api,
            web.get("/cdn/attachments/{channel_id}/{attachment_id}/{filename}", self.cdn_attachment),
        ]

    async def cdn_attachment(self, request: web.Request) -> web.Response:
        """Serve uploaded bytes so ``Attachment.read()`` works against the fake."""
        try:
            data = self.store.attachment_data[int(request.match_info["attachment_id"])]
        except (KeyError, ValueError):
            raise web.HTTPNotFound() from None
        return web.Response(body=data, content_type="application/octet-stream")

    # ---------------------------------------------------------- users & app
    async def get_me(self, request: web.Request) -> web.Response:
        return _reply(request, self.store.bot_user())

    async def get_user(self, request: web.Request) -> web.Response:
        return _reply(request, self.store.user(request.match_info["user_id"]))

    async def create_dm(self, request: web.Request) -> web.Response:
        recipient = _json_body(request).get("recipient_id")
        uid = int(self.store.user(recipient)["id"]) if recipient is not None else 0
        return _reply(request, self.store.dm_channel(uid))

    async def get_gateway(self, request: web.Request) -> web.Response:
        return _reply(request, {"url": self._gateway_url()})

    async def get_gateway_bot(self, request: web.Request) -> web.Response:
        return _reply(
            request,
            {
                "url": self._gateway_url(),
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 86_400_000,
                    "max_concurrency": 1,
                },
            },
        )

    async def get_application(self, request: web.Request) -> web.Response:
        store = self.store
        owner = next((uid for uid, u in store.users.items() if not u.get("bot")), store.identity.user_id)
        bot = store.bot_user()
        return _reply(
            request,
            {
                "id": str(store.identity.app_id),
                "name": store.identity.username,
                "icon": None,
                "description": "",
                "summary": "",
                "type": None,
                "bot": bot,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "flags": self.config.application_flags,
                "owner": store.user(owner),
                "team": None,
                "rpc_origins": [],
                "hook": True,
                "interactions_endpoint_url": None,
                "role_connections_verification_url": None,
                "tags": [],
                "integration_types_config": {"0": {}},
                "approximate_guild_count": len(store.guilds),
                "redirect_uris": [],
            },
        )

    # -------------------------------------------------------------- commands
    def _scope(self, request: web.Request) -> tuple[int, int | None]:
        app_id = _int(request, "app_id", ApiError(404, 10002, "Unknown Application"))
        guild = request.match_info.get("guild_id")
        guild_id = _int(request, "guild_id", ApiError(404, ErrorCode.UNKNOWN_GUILD, "Unknown Guild")) if guild else None
        return app_id, guild_id

    async def list_commands(self, request: web.Request) -> web.Response:
        app_id, guild_id = self._scope(request)
        return _reply(request, list(self.store.command_scope(app_id, guild_id).values()))

    async def bulk_commands(self, request: web.Request) -> web.Response:
        app_id, guild_id = self._scope(request)
        bodies = _body(request).json
        if not isinstance(bodies, list):
            raise ApiError(400, ErrorCode.INVALID_FORM_BODY, "Invalid Form Body")
        return _reply(request, self.store.bulk_overwrite_commands(app_id, guild_id, bodies))

    async def create_command(self, request: web.Request) -> web.Response:
        app_id, guild_id = self._scope(request)
        command, created = self.store.upsert_command(app_id, guild_id, _json_body(request))
        return _reply(request, command, 201 if created else 200)

    def _command_id(self, request: web.Request) -> int:
        return _int(
            request,
            "command_id",
            ApiError(404, ErrorCode.UNKNOWN_APPLICATION_COMMAND, "Unknown application command"),
        )

    async def get_command(self, request: web.Request) -> web.Response:
        app_id, guild_id = self._scope(request)
        command = self.store.command_scope(app_id, guild_id).get(self._command_id(request))
        if command is None:
            raise ApiError(404, ErrorCode.UNKNOWN_APPLICATION_COMMAND, "Unknown application command")
        return _reply(request, command)

    async def edit_command(self, request: web.Request) -> web.Response:
        app_id, guild_id = self._scope(request)
        return _reply(
            request, self.store.edit_command(app_id, guild_id, self._command_id(request), _json_body(request))
        )

    async def delete_command(self, request: web.Request) -> web.Response:
        app_id, guild_id = self._scope(request)
        if self.store.command_scope(app_id, guild_id).pop(self._command_id(request), None) is None:
            raise ApiError(404, ErrorCode.UNKNOWN_APPLICATION_COMMAND, "Unknown application command")
        return _no_content()

    async def list_command_permissions(self, request: web.Request) -> web.Response:
        self._scope(request)
        return _reply(request, [])

    # ---------------------------------------------------------- interactions
    async def interaction_callback(self, request: web.Request) -> web.Response:
        unknown = ApiError(404, ErrorCode.UNKNOWN_INTERACTION, "Unknown interaction")
        state = self.store.interactions.get(_int(request, "interaction_id", unknown))
        if state is None or state.token != request.match_info["token"]:
            raise unknown
        if state.callback_type is not None:
            raise ApiError(
                400, ErrorCode.INTERACTION_ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged."
            )
        timeout = self.config.interaction_ack_timeout
        if timeout is not None and self.store.now() - state.dispatched_at > timeout:
            raise unknown
        body = _json_body(request)
        kind = body.get("type")
        data = body.get("data") if isinstance(body.get("data"), dict) else {}
        needs_message = kind in (Callback.DEFERRED_UPDATE_MESSAGE, Callback.UPDATE_MESSAGE)
        if kind not in _ALLOWED_CALLBACKS.get(state.type, set()) or (
            needs_message and state.original_message_id is None
        ):
            raise ApiError(
                400,
                ErrorCode.INVALID_FORM_BODY,
                "Invalid Form Body",
                {
                    "type": {
                        "_errors": [
                            {
                                "code": "INTERACTION_RESPONSE_TYPE_INVALID",
                                "message": f"Invalid response type {kind} for interaction type {state.type}",
                            }
                        ]
                    }
                },
            )
        if kind == Callback.CHANNEL_MESSAGE_WITH_SOURCE:
            _require_message_content(data, _body(request).files)
        state.callback_type = kind
        state.callback_data = data
        resource: JSON | None = None
        if kind in (Callback.CHANNEL_MESSAGE_WITH_SOURCE, Callback.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE):
            flags = int(data.get("flags") or 0)
            state.ephemeral = bool(flags & MsgFlag.EPHEMERAL)
            message_body = (
                data
                if kind == Callback.CHANNEL_MESSAGE_WITH_SOURCE
                else {"flags": (flags & MsgFlag.EPHEMERAL) | MsgFlag.LOADING}
            )
            message = self._interaction_message(state, state.channel_id, message_body, request)
            state.original_message_id = int(message["id"])
            resource = {"type": kind, "message": message}
            await self._dispatch_message_event("MESSAGE_CREATE", message, state.ephemeral)
        elif kind == Callback.UPDATE_MESSAGE:
            assert state.original_message_id is not None
            message = self.store.edit_message(state.original_message_id, data, _body(request).files)
            resource = {"type": kind, "message": message}
            await self._dispatch_message_event("MESSAGE_UPDATE", message, state.ephemeral)
        if request.query.get("with_response", "").lower() not in ("1", "true"):
            return _no_content()
        interaction: JSON = {"id": str(state.id), "type": state.type}
        if resource is not None and state.original_message_id is not None:
            interaction.update(
                response_message_id=str(state.original_message_id),
                response_message_loading=kind == Callback.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
                response_message_ephemeral=state.ephemeral,
            )
        out: JSON = {"interaction": interaction}
        if resource is not None:
            out["resource"] = resource
        return _reply(request, out)

    def _interaction_message(self, state: InteractionState, channel_id: int, body: JSON, request: web.Request) -> JSON:
        return self.store.create_message(
            channel_id,
            self.store.identity.user_id,
            body,
            files=_body(request).files,
            webhook_id=state.application_id,
            interaction=state,
            message_type=MsgType.CHAT_INPUT_COMMAND
            if state.type == InteractionType.APPLICATION_COMMAND
            else MsgType.DEFAULT,
        )

    async def _dispatch_message_event(self, event: str, message: JSON, ephemeral: bool) -> None:
        # Ephemeral messages exist only for the invoking user; bots never see them on the gateway.
        if not ephemeral:
            await self.gateway.dispatch(event, self.store.gateway_message(message))

    async def _dispatch_delete(self, message: JSON) -> None:
        payload: JSON = {"id": message["id"], "channel_id": message["channel_id"]}
        gid = self.store.guild_id_of(int(message["channel_id"]))
        if gid is not None:
            payload["guild_id"] = str(gid)
        await self.gateway.dispatch("MESSAGE_DELETE", payload)

    def _webhook_state(self, request: web.Request) -> InteractionState:
        app_id = _int(request, "app_id", ApiError(404, ErrorCode.UNKNOWN_WEBHOOK, "Unknown Webhook"))
        state = self.store.interaction_by_token(app_id, request.match_info["token"])
        if state.callback_type is None:
            # Webhook endpoints only exist once the interaction has been acknowledged.
            raise ApiError(404, ErrorCode.UNKNOWN_WEBHOOK, "Unknown Webhook")
        return state

    def _webhook_message_id(self, request: web.Request, state: InteractionState) -> int:
        raw = request.match_info["message_id"]
        unknown = ApiError(404, ErrorCode.UNKNOWN_MESSAGE, "Unknown Message")
        if raw == "@original":
            if state.original_message_id is None:
                raise unknown
            return state.original_message_id
        try:
            mid = int(raw)
        except ValueError:
            raise unknown from None
        if mid != state.original_message_id and mid not in state.followup_ids:
            raise unknown
        return mid

    def _is_ephemeral(self, message_id: int) -> bool:
        return bool(int(self.store.messages[message_id]["flags"]) & MsgFlag.EPHEMERAL)

    async def create_followup(self, request: web.Request) -> web.Response:
        state = self._webhook_state(request)
        body = _json_body(request)
        files = _body(request).files
        _require_message_content(body, files)
        original = self.store.messages.get(state.original_message_id or 0)
        if original is not None and int(original["flags"]) & MsgFlag.LOADING:
            # Discord's documented backwards-compat rule: the first followup after a
            # deferred (type 5) response resolves the loading message instead of posting.
            message = self.store.edit_message(int(original["id"]), body, files)
            await self._dispatch_message_event("MESSAGE_UPDATE", message, state.ephemeral)
        else:
            thread_id = request.query.get("thread_id")
            channel_id = int(thread_id) if thread_id else state.channel_id
            message = self._interaction_message(state, channel_id, body, request)
            state.followup_ids.append(int(message["id"]))
            await self._dispatch_message_event("MESSAGE_CREATE", message, self._is_ephemeral(int(message["id"])))
        # For interaction followups ``wait`` is implicitly true: a message is always returned.
        return _reply(request, message)

    async def get_webhook_message(self, request: web.Request) -> web.Response:
        state = self._webhook_state(request)
        return _reply(request, self.store.message(self._webhook_message_id(request, state)))

    async def edit_webhook_message(self, request: web.Request) -> web.Response:
        state = self._webhook_state(request)
        mid = self._webhook_message_id(request, state)
        message = self.store.edit_message(mid, _json_body(request), _body(request).files)
        await self._dispatch_message_event("MESSAGE_UPDATE", message, self._is_ephemeral(mid))
        return _reply(request, message)

    async def delete_webhook_message(self, request: web.Request) -> web.Response:
        state = self._webhook_state(request)
        mid = self._webhook_message_id(request, state)
        ephemeral = self._is_ephemeral(mid)
        message = self.store.delete_message(mid)
        if not ephemeral:
            await self._dispatch_delete(message)
        return _no_content()

    # -------------------------------------------------------------- channels
    def _channel_id(self, request: web.Request) -> int:
        cid = _int(request, "channel_id", ApiError(404, ErrorCode.UNKNOWN_CHANNEL, "Unknown Channel"))
        self.store.channel(cid)  # raises Unknown Channel
        return cid

    def _message_id(self, request: web.Request) -> int:
        return _int(request, "message_id", ApiError(404, ErrorCode.UNKNOWN_MESSAGE, "Unknown Message"))

    async def get_channel(self, request: web.Request) -> web.Response:
        return _reply(request, self.store.channel(self._channel_id(request)))

    async def list_messages(self, request: web.Request) -> web.Response:
        cid = self._channel_id(request)
        q = request.query
        limit = max(1, min(100, int(q.get("limit", 50))))
        before = int(q["before"]) if "before" in q else None
        after = int(q["after"]) if "after" in q else None
        return _reply(request, self.store.channel_history(cid, limit=limit, before=before, after=after))

    async def create_message(self, request: web.Request) -> web.Response:
        cid = self._channel_id(request)
        body = _json_body(request)
        files = _body(request).files
        _require_message_content(body, files)
        author = self.store.identity.user_id
        nonce = body.get("nonce")
        if nonce is not None and body.get("enforce_nonce"):
            # Discord: with enforce_nonce, a message by the same author with the same nonce in the
            # past few minutes is returned as it is, and no new one is created.
            earlier = self.store.message_by_nonce(cid, author, str(nonce), NONCE_WINDOW)
            if earlier is not None:
                return _reply(request, earlier)
        message = self.store.create_message(cid, author, body, files=files)
        if nonce is not None:
            self.store.remember_nonce(cid, author, str(nonce), int(message["id"]))
        await self._dispatch_message_event("MESSAGE_CREATE", message, False)
        return _reply(request, message)

    async def get_message(self, request: web.Request) -> web.Response:
        cid = self._channel_id(request)
        return _reply(request, self.store.message(self._message_id(request), cid))

    async def edit_message(self, request: web.Request) -> web.Response:
        cid = self._channel_id(request)
        mid = self._message_id(request)
        current = self.store.message(mid, cid)
        body = _json_body(request)
        if int(current["author"]["id"]) != self.store.identity.user_id and set(body) - {"flags"}:
            raise ApiError(
                403,
                ErrorCode.CANNOT_EDIT_OTHER_USERS_MESSAGE,
                "Cannot edit a message authored by another user",
            )
        message = self.store.edit_message(mid, body, _body(request).files)
        await self._dispatch_message_event("MESSAGE_UPDATE", message, False)
        return _reply(request, message)

    async def delete_message(self, request: web.Request) -> web.Response:
        cid = self._channel_id(request)
        mid = self._message_id(request)
        self.store.message(mid, cid)
        await self._dispatch_delete(self.store.delete_message(mid))
        return _no_content()

    async def typing(self, request: web.Request) -> web.Response:
        self._channel_id(request)
        return _no_content()

    async def no_content(self, request: web.Request) -> web.Response:
        self._channel_id(request)
        return _no_content()

    async def thread_from_message(self, request: web.Request) -> web.Response:
        cid = self._channel_id(request)
        mid = self._message_id(request)
        self.store.message(mid, cid)
        body = _json_body(request)
        # Discord gives a thread started from a message the id of that message.
        thread = self.store.create_thread(
            cid,
            body.get("name") or "thread",
            thread_id=mid,
            thread_type=ChannelType.PUBLIC_THREAD,
            auto_archive_duration=body.get("auto_archive_duration") or 1440,
            rate_limit_per_user=body.get("rate_limit_per_user") or 0,
        )
        self.store.messages[mid]["thread"] = thread
        await self.gateway.dispatch("THREAD_CREATE", {**thread, "newly_created": True})
        return _reply(request, thread, 201)

    async def thread_without_message(self, request: web.Request) -> web.Response:
        cid = self._channel_id(request)
        body = _json_body(request)
        starter = body.get("message") if isinstance(body.get("message"), dict) else None
        thread_id = self.store.ids.next()
        thread = self.store.create_thread(
            cid,
            body.get("name") or "thread",
            thread_id=thread_id,
            # API v10: without an explicit type a thread-only create is PRIVATE_THREAD.
            thread_type=int(body.get("type") or (ChannelType.PUBLIC_THREAD if starter else ChannelType.PRIVATE_THREAD)),
            auto_archive_duration=body.get("auto_archive_duration") or 1440,
            rate_limit_per_user=body.get("rate_limit_per_user") or 0,
        )
        await self.gateway.dispatch("THREAD_CREATE", {**thread, "newly_created": True})
        if starter is not None:
            # Forum/media posts: the starter message shares the thread's id.
            message = self.store.create_message(
                thread_id,
                self.store.identity.user_id,
                starter,
                files=_body(request).files,
                message_id=thread_id,
            )
            thread = self.store.channel(thread_id)
            thread["message"] = message
            await self._dispatch_message_event("MESSAGE_CREATE", message, False)
        return _reply(request, thread, 201)

    async def add_reaction(self, request: web.Request) -> web.Response:
        cid = self._channel_id(request)
        mid = self._message_id(request)
        self.store.message(mid, cid)
        self.store.reactions.append(
            {"channel_id": cid, "message_id": mid, "emoji": request.match_info["emoji"], "added": True}
        )
        return _no_content()

    async def remove_reaction(self, request: web.Request) -> web.Response:
        cid = self._channel_id(request)
        mid = self._message_id(request)
        self.store.message(mid, cid)
        self.store.reactions.append(
            {"channel_id": cid, "message_id": mid, "emoji": request.match_info["emoji"], "added": False}
        )
        return _no_content()

    # ---------------------------------------------------------------- guilds
    def _guild_id(self, request: web.Request) -> int:
        gid = _int(request, "guild_id", ApiError(404, ErrorCode.UNKNOWN_GUILD, "Unknown Guild"))
        self.store.guild(gid)
        return gid

    async def get_guild(self, request: web.Request) -> web.Response:
        gid = self._guild_id(request)
        payload = self.store.guild_payload(gid)
        payload["approximate_member_count"] = len(self.store.guilds[gid].members)
        return _reply(request, payload)

    async def get_guild_channels(self, request: web.Request) -> web.Response:
        gid = self._guild_id(request)
        return _reply(request, [self.store.channel(c) for c in self.store.guilds[gid].channel_ids])

    async def get_guild_roles(self, request: web.Request) -> web.Response:
        gid = self._guild_id(request)
        return _reply(request, self.store.guild_payload(gid)["roles"])

    async def get_member(self, request: web.Request) -> web.Response:
        gid = self._guild_id(request)
        uid = _int(request, "user_id", ApiError(404, ErrorCode.UNKNOWN_MEMBER, "Unknown Member"))
        return _reply(request, self.store.member_payload(gid, uid))
