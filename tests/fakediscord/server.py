"""FakeDiscord: a local Discord HTTP API v10 + Gateway for running an unmodified discord.py bot.

Typical use (same event loop as the bot)::

    async with FakeDiscord(heartbeat_interval_ms=500) as fake, fake.patch_discord():
        client = discord.Client(intents=..., guild_ready_timeout=0.05)
        task = asyncio.create_task(client.start(fake.token))
        await client.wait_until_ready()
        msg = await fake.dispatch_message("hello")
        reply = await fake.wait_for_request("POST", r"/channels/\\d+/messages$")
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import re
import threading
from collections.abc import Callable, Coroutine, Iterable, Iterator, Mapping
from typing import Any, TypeVar

from aiohttp import web

from ._constants import AppFlag, Intent, Perm
from ._control import control_routes
from ._faults import FaultInjector, FaultRule
from ._gateway import Gateway, GatewayConfig, GatewaySession
from ._interactions import build_component, build_modal_submit, build_slash
from ._records import ChangeNotifier, GatewayRecord, RecordedRequest, UploadedFile
from ._rest import RestApi, RestConfig
from ._snowflake import SnowflakeGenerator
from ._state import BotIdentity, InteractionState, Store

JSON = dict[str, Any]
T = TypeVar("T")
HOST = "127.0.0.1"  # never listen anywhere else


class FakeDiscord:
    """A Discord look-alike bound to 127.0.0.1 on a free port."""

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        bot_user_id: int = 1_234_567_890_123_456_789,
        application_id: int | None = None,
        bot_name: str = "FakeBot",
        heartbeat_interval_ms: int = 41_250,
        port: int = 0,
        interaction_ack_timeout: float | None = 3.0,
        allowed_privileged_intents: int = Intent.PRIVILEGED,
        enforce_message_content_intent: bool = True,
        bot_permissions: int = Perm.ADMINISTRATOR,
        record_gateway: bool = True,
    ) -> None:
        self.identity = BotIdentity(token=token, user_id=bot_user_id, application_id=application_id, username=bot_name)
        self.store = Store(self.identity, SnowflakeGenerator())
        self.faults = FaultInjector()
        self.requests: list[RecordedRequest] = []
        self.unknown_routes: list[RecordedRequest] = []
        self.gateway_log: list[GatewayRecord] = []
        self.record_gateway = record_gateway
        self._notifier = ChangeNotifier()
        self._requested_port = port
        self._port: int | None = None
        self._runner: web.AppRunner | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

        app_flags = AppFlag.APPLICATION_COMMAND_BADGE
        if allowed_privileged_intents & Intent.GUILD_PRESENCES:
            app_flags |= AppFlag.GATEWAY_PRESENCE_LIMITED
        if allowed_privileged_intents & Intent.GUILD_MEMBERS:
            app_flags |= AppFlag.GATEWAY_GUILD_MEMBERS_LIMITED
        if allowed_privileged_intents & Intent.MESSAGE_CONTENT:
            app_flags |= AppFlag.GATEWAY_MESSAGE_CONTENT_LIMITED

        self.gateway = Gateway(
            self.store,
            GatewayConfig(
                token=token,
                heartbeat_interval_ms=heartbeat_interval_ms,
                allowed_privileged_intents=allowed_privileged_intents,
                enforce_message_content=enforce_message_content_intent,
                application_flags=app_flags,
            ),
            gateway_url=lambda: self.gateway_url,
            on_record=self._record_gateway,
        )
        self.rest = RestApi(
            self.store,
            self.gateway,
            self.faults,
            RestConfig(token=token, interaction_ack_timeout=interaction_ack_timeout, application_flags=app_flags),
            gateway_url=lambda: self.gateway_url,
            on_record=self._record_request,
        )
        self._seed_world(bot_permissions)

    def _seed_world(self, bot_permissions: int) -> None:
        store = self.store
        owner = store.add_user("guild-owner")
        self._default_user_id = int(store.add_user("alice")["id"])
        bob = store.add_user("bob")
        guild = store.add_guild(
            "Fake Guild",
            owner_id=int(owner["id"]),
            channel_names=("general", "bot-commands"),
            bot_permissions=bot_permissions,
        )
        store.add_member(guild.id, self._default_user_id)
        store.add_member(guild.id, int(bob["id"]))
        self._guild_id = guild.id

    # ------------------------------------------------------------ lifecycle
    async def start(self) -> FakeDiscord:
        """Bind 127.0.0.1 (port 0 = any free port) and start serving REST + gateway."""
        if self._runner is not None:
            raise RuntimeError("FakeDiscord already started")
        app = web.Application(middlewares=[self.rest.middleware], client_max_size=64 * 1024 * 1024)
        app.add_routes(self.rest.routes())
        app.router.add_get("/gateway", self.gateway.handle)
        app.add_routes(control_routes(self))
        runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=1.0)
        await runner.setup()
        site = web.TCPSite(runner, HOST, self._requested_port)
        await site.start()
        self._runner = runner
        self._loop = asyncio.get_running_loop()
        self._port = next(addr[1] for addr in runner.addresses if isinstance(addr, tuple))
        self.store.cdn_base = f"{self.base_url}/cdn"
        return self

    async def stop(self) -> None:
        """Close gateway sockets and the HTTP server."""
        if self._runner is None:
            return
        await self.gateway.shutdown()
        await self._runner.cleanup()
        self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def start_in_thread(self, timeout: float = 10.0) -> FakeDiscord:
        """Run the server on its own event loop in a daemon thread (for sync tests/benchmarks)."""
        started = threading.Event()
        errors: list[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            try:
                loop.run_until_complete(self.start())
            except BaseException as exc:  # surface bind errors to the caller
                errors.append(exc)
                started.set()
                loop.close()
                return
            started.set()
            loop.run_forever()
            loop.run_until_complete(self.stop())
            loop.close()

        self._thread = threading.Thread(target=run, name="fakediscord", daemon=True)
        self._thread.start()
        if not started.wait(timeout):
            raise TimeoutError("FakeDiscord did not start in time")
        if errors:
            raise errors[0]
        return self

    def call(self, coro: Coroutine[Any, Any, T], timeout: float | None = 30.0) -> T:
        """Run a coroutine (e.g. ``fake.dispatch_message(...)``) on the server loop from another thread."""
        if self._loop is None:
            raise RuntimeError("FakeDiscord is not running")
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout)

    def stop_in_thread(self, timeout: float = 10.0) -> None:
        if self._loop is None or self._thread is None:
            return
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout)
        self._thread = None

    # ------------------------------------------------------------------ urls
    @property
    def port(self) -> int:
        if self._port is None:
            raise RuntimeError("FakeDiscord is not started")
        return self._port

    @property
    def base_url(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def api_base(self) -> str:
        """Value for ``discord.http.Route.BASE`` / DISCORD_API_BASE_URL."""
        return f"{self.base_url}{self.rest.config.api_prefix}"

    @property
    def gateway_url(self) -> str:
        """Value for DISCORD_GATEWAY_URL (wrap in ``yarl.URL`` for DEFAULT_GATEWAY)."""
        return f"ws://{HOST}:{self.port}/gateway"

    def env(self) -> dict[str, str]:
        return {
            "DISCORD_API_BASE_URL": self.api_base,
            "DISCORD_GATEWAY_URL": self.gateway_url,
            "DISCORD_TOKEN": self.token,
        }

    @contextlib.contextmanager
    def patch_discord(self) -> Iterator[None]:
        """Point discord.py's class-level URLs at this server; restores them on exit."""
        import discord.gateway
        import discord.http
        import yarl

        old_base = discord.http.Route.BASE
        old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        discord.http.Route.BASE = self.api_base
        # from_client() calls .with_query() on it, so it must be a yarl.URL, not a str.
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        try:
            yield
        finally:
            discord.http.Route.BASE = old_base
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway

    # -------------------------------------------------------------- identity
    @property
    def token(self) -> str:
        return self.identity.token

    @property
    def bot_user_id(self) -> int:
        return self.identity.user_id

    @property
    def application_id(self) -> int:
        return self.identity.app_id

    @property
    def bot_user(self) -> JSON:
        return self.store.bot_user()

    @property
    def bot_mention(self) -> str:
        return f"<@{self.bot_user_id}>"

    # ----------------------------------------------------------------- world
    @property
    def guild_id(self) -> int:
        """The default guild."""
        return self._guild_id

    @property
    def channel_id(self) -> int:
        """The default guild's first text channel (#general)."""
        return self.store.guilds[self._guild_id].channel_ids[0]

    @property
    def default_user(self) -> JSON:
        """The human user ("alice") used when no author/user is given."""
        return self.store.user(self._default_user_id)

    @property
    def default_user_id(self) -> int:
        return self._default_user_id

    def user(self, user: int | str) -> JSON:
        """A user payload by id or username."""
        return self.store.user(self.store.resolve_user_id(user, self._default_user_id))

    def channel(self, channel_id: int) -> JSON:
        return self.store.channel(channel_id)

    def message(self, message_id: int | str) -> JSON:
        """Current (REST-form) state of a stored message."""
        return self.store.message(message_id)

    def messages_in(self, channel_id: int | None = None) -> list[JSON]:
        """Messages of a channel, oldest first."""
        cid = channel_id or self.channel_id
        return [self.store.message(mid) for mid in self.store.channel_messages.get(cid, [])]

    def bot_messages(self, channel_id: int | None = None) -> list[JSON]:
        """Messages the bot authored (optionally in one channel), oldest first."""
        return [
            self.store.message(mid)
            for mid, msg in sorted(self.store.messages.items())
            if int(msg["author"]["id"]) == self.bot_user_id
            and (channel_id is None or int(msg["channel_id"]) == channel_id)
        ]

    def add_user(
        self, username: str, *, guild_id: int | None = None, permissions: int | None = None, bot: bool = False
    ) -> JSON:
        """Create a user and make them a member of the guild (with a role granting ``permissions``)."""
        user = self.store.add_user(username, bot=bot)
        gid = guild_id or self._guild_id
        role_ids: list[int] = []
        if permissions is not None:
            role_ids.append(int(self.store.add_role(gid, f"{username}-role", permissions)["id"]))
        self.store.add_member(gid, int(user["id"]), role_ids=role_ids)
        return user

    def add_role(self, name: str, permissions: int, *, guild_id: int | None = None) -> JSON:
        return copy.deepcopy(self.store.add_role(guild_id or self._guild_id, name, permissions))

    async def add_channel(self, name: str, *, guild_id: int | None = None) -> JSON:
        """Create a text channel; dispatches CHANNEL_CREATE to connected sessions."""
        channel = self.store.add_channel(guild_id or self._guild_id, name)
        await self.gateway.dispatch("CHANNEL_CREATE", channel)
        return channel

    async def add_guild(self, name: str, *, channel_names: Iterable[str] = ("general",)) -> int:
        """Create a guild the bot is in; dispatches GUILD_CREATE to connected sessions."""
        guild = self.store.add_guild(name, owner_id=self._default_user_id, channel_names=channel_names)
        await self.gateway.dispatch("GUILD_CREATE", self.store.guild_create_payload(guild.id))
        return guild.id

    # ------------------------------------------------------------- recording
    def _record_request(self, record: RecordedRequest) -> None:
        self.requests.append(record)
        if record.unknown_route:
            self.unknown_routes.append(record)
        self._notifier.notify()

    def _record_gateway(self, record: GatewayRecord) -> None:
        if self.record_gateway:
            self.gateway_log.append(record)
        self._notifier.notify()

    def clear_records(self) -> None:
        self.requests.clear()
        self.unknown_routes.clear()
        self.gateway_log.clear()

    def requests_to(self, method: str | None = None, path: str | None = None) -> list[RecordedRequest]:
        """Recorded requests filtered by method and a regex searched in the full path."""
        pattern = re.compile(path) if path else None
        return [
            r
            for r in self.requests
            if (method is None or r.method == method.upper()) and (pattern is None or pattern.search(r.path))
        ]

    def interaction_responses(self, interaction: JSON | int | str) -> list[RecordedRequest]:
        """Callback + webhook (original/followup) requests made for one interaction, in order."""
        iid = _interaction_id(interaction)
        return [r for r in self.requests if r.interaction_id == iid]

    def interaction_state(self, interaction: JSON | int | str) -> InteractionState:
        return self.store.interactions[_interaction_id(interaction)]

    @property
    def identifies(self) -> list[JSON]:
        return self.gateway.identifies

    @property
    def resumes(self) -> list[JSON]:
        return self.gateway.resumes

    @property
    def intents(self) -> int | None:
        """Intents of the most recent IDENTIFY."""
        return self.gateway.identifies[-1].get("intents") if self.gateway.identifies else None

    @property
    def sessions(self) -> list[GatewaySession]:
        return [s for s in self.gateway.sessions.values() if s.alive]

    @property
    def connected(self) -> bool:
        """True when some session currently has a live socket."""
        return any(s.connection is not None and s.connection.live for s in self.sessions)

    def dispatched(self, event: str | None = None) -> list[GatewayRecord]:
        """Gateway dispatches sent to clients (optionally one event type)."""
        return [
            r for r in self.gateway_log if r.direction == "send" and r.op == 0 and (event is None or r.event == event)
        ]

    # ----------------------------------------------------------------- waits
    async def wait_for(self, predicate: Callable[[], T], timeout: float = 5.0) -> T:
        """Await until ``predicate()`` is truthy (re-checked on every request/gateway frame); returns it."""
        return await self._notifier.wait_for(predicate, timeout, self._describe_recent)

    async def wait_for_request(
        self,
        method: str | None = None,
        path: str | None = None,
        *,
        predicate: Callable[[RecordedRequest], bool] | None = None,
        status: int | None = None,
        since: int = 0,
        timeout: float = 5.0,
    ) -> RecordedRequest:
        """First recorded request (index >= ``since``) matching method, path regex, status and predicate."""
        pattern = re.compile(path) if path else None

        def find() -> RecordedRequest | None:
            for record in self.requests[since:]:
                if method is not None and record.method != method.upper():
                    continue
                if pattern is not None and not pattern.search(record.path):
                    continue
                if status is not None and record.status != status:
                    continue
                if predicate is not None and not predicate(record):
                    continue
                return record
            return None

        return await self._notifier.wait_for(find, timeout, self._describe_recent)

    async def wait_for_interaction_response(
        self, interaction: JSON | int | str, callback_type: int | None = None, *, timeout: float = 5.0
    ) -> RecordedRequest:
        """The successful callback for an interaction (optionally of a given type: 4, 5, 6, 7, 9...)."""
        iid = _interaction_id(interaction)

        def find() -> RecordedRequest | None:
            for record in self.requests:
                if (
                    record.interaction_id == iid
                    and record.callback_type is not None
                    and record.ok
                    and (callback_type is None or record.callback_type == callback_type)
                ):
                    return record
            return None

        return await self._notifier.wait_for(find, timeout, self._describe_recent)

    async def wait_for_identify(self, count: int = 1, *, timeout: float = 5.0) -> JSON:
        await self.wait_for(lambda: len(self.gateway.identifies) >= count, timeout)
        return self.gateway.identifies[count - 1]

    async def wait_for_resume(self, count: int = 1, *, timeout: float = 5.0) -> JSON:
        """Wait for the ``count``-th RESUME to have been answered with RESUMED."""
        await self.wait_for(lambda: len(self.dispatched("RESUMED")) >= count, timeout)
        return self.gateway.resumes[count - 1]

    async def wait_for_dispatch(self, event: str, count: int = 1, *, timeout: float = 5.0) -> GatewayRecord:
        await self.wait_for(lambda: len(self.dispatched(event)) >= count, timeout)
        return self.dispatched(event)[count - 1]

    def _describe_recent(self) -> str:
        recent = "; ".join(r.summary() for r in self.requests[-8:]) or "no requests"
        return f"last requests: {recent}"

    # ---------------------------------------------------------------- faults
    def fail_next(
        self,
        method: str | None,
        path_regex: str,
        status: int = 429,
        *,
        times: int = 1,
        retry_after: float = 1.0,
        is_global: bool = False,
        via: bool = True,
        body: JSON | None = None,
        after: bool = False,
    ) -> FaultRule:
        """Answer the next ``times`` matching REST calls with ``status`` (429 carries retry_after + headers).

        ``path_regex`` is searched in the full path (``/api/v10/...``); ``method`` None/"*" matches any.
        ``via=False`` drops the Via header, which discord.py treats as a Cloudflare ban (no retry).
        ``after=True`` carries the request out first and then answers with the failure: Discord did
        it, but the response was lost on the way back (a 502 from a proxy).
        """
        return self.faults.add(
            method,
            path_regex,
            status,
            times=times,
            retry_after=retry_after,
            is_global=is_global,
            via=via,
            body=body,
            after=after,
        )

    def clear_faults(self) -> None:
        self.faults.clear()

    @property
    def rest_latency(self) -> float:
        return self.rest.config.latency

    @rest_latency.setter
    def rest_latency(self, seconds: float) -> None:
        self.rest.config.latency = seconds

    @property
    def interaction_ack_timeout(self) -> float | None:
        return self.rest.config.interaction_ack_timeout

    @interaction_ack_timeout.setter
    def interaction_ack_timeout(self, seconds: float | None) -> None:
        self.rest.config.interaction_ack_timeout = seconds

    @property
    def heartbeat_ack(self) -> bool:
        return self.gateway.heartbeat_ack

    @heartbeat_ack.setter
    def heartbeat_ack(self, enabled: bool) -> None:
        self.gateway.heartbeat_ack = enabled

    # ------------------------------------------------------ gateway control
    async def send_reconnect(self) -> int:
        """Send op 7 RECONNECT on every live session socket; returns how many."""
        return await self.gateway.send_reconnect()

    async def invalidate_session(self, resumable: bool = False) -> int:
        """Send op 9 INVALID_SESSION(d=resumable); non-resumable sessions are discarded."""
        return await self.gateway.invalidate_sessions(resumable)

    async def drop_connections(self) -> int:
        """Abort every gateway TCP connection without a close frame (client sees 1006)."""
        return self.gateway.drop_connections()

    async def close_connections(self, code: int = 4000, reason: str = "") -> int:
        """Close every gateway socket with a close frame carrying ``code``."""
        return await self.gateway.close_connections(code, reason)

    # -------------------------------------------------------------- injection
    async def dispatch_event(self, event: str, data: JSON) -> int:
        """Dispatch a raw event to every session that wants it; returns the number of sessions."""
        return await self.gateway.dispatch(event, data)

    def _channel_for(self, channel_id: int | None, guild_id: int | None) -> int:
        if channel_id is not None:
            return int(channel_id)
        if guild_id is not None:
            return self.store.guild(guild_id).channel_ids[0]
        return self.channel_id

    def _ensure_member(self, channel_id: int, user_id: int) -> None:
        gid = self.store.guild_id_of(channel_id)
        if gid is not None and user_id not in self.store.guilds[gid].members:
            self.store.add_member(gid, user_id)

    async def dispatch_message(
        self,
        content: str,
        *,
        author: JSON | int | str | None = None,
        channel_id: int | None = None,
        guild_id: int | None = None,
        mentions: Iterable[JSON | int | str] = (),
        message_reference: JSON | int | str | None = None,
        embeds: list[JSON] | None = None,
        files: Mapping[str, bytes] | None = None,
        mention_bot: bool = False,
    ) -> JSON:
        """MESSAGE_CREATE from a user; ``<@id>`` in content, ``mentions`` or ``mention_bot`` fill mentions.

        ``files`` ({filename: bytes}) become attachments served from ``{base_url}/cdn/...``.
        """
        cid = self._channel_for(channel_id, guild_id)
        author_id = self.store.resolve_user_id(author, self._default_user_id)
        self._ensure_member(cid, author_id)
        if mention_bot and self.bot_mention not in content:
            content = f"{self.bot_mention} {content}"
        extra = [self.store.resolve_user_id(m, self._default_user_id) for m in mentions]
        body: JSON = {"content": content, "embeds": embeds or []}
        if message_reference is not None:
            ref_id = int(message_reference["id"]) if isinstance(message_reference, dict) else int(message_reference)
            ref_channel = self.store.message(ref_id)["channel_id"]
            body["message_reference"] = {
                "message_id": ref_id,
                "channel_id": ref_channel,
                "fail_if_not_exists": False,
            }
        uploads = [
            UploadedFile(f"files[{i}]", name, None, data) for i, (name, data) in enumerate((files or {}).items())
        ]
        message = self.store.create_message(cid, author_id, body, files=uploads, extra_mentions=extra)
        payload = self.store.gateway_message(message)
        await self.gateway.dispatch("MESSAGE_CREATE", payload)
        return payload

    async def dispatch_slash(
        self,
        name: str,
        options: Mapping[str, Any] | None = None,
        *,
        user: JSON | int | str | None = None,
        channel_id: int | None = None,
        guild_id: int | None = None,
        member_permissions: int | str | None = None,
        require_synced: bool = True,
        prepare: Callable[[JSON], object] | None = None,
    ) -> JSON:
        """INTERACTION_CREATE type 2 for a synced command ("cmd" or "cmd sub"); returns the interaction.

        ``prepare`` sees the interaction before it is dispatched: e.g. to inject a fault for its
        token (``fail_next(..., rf"/{interaction['token']}/")``) before the bot can answer it."""
        cid = self._channel_for(channel_id, guild_id)
        user_id = self.store.resolve_user_id(user, self._default_user_id)
        self._ensure_member(cid, user_id)
        state = build_slash(
            self.store,
            name,
            options or {},
            user_id=user_id,
            channel_id=cid,
            member_permissions=member_permissions,
            require_synced=require_synced,
        )
        if prepare is not None:
            prepare(copy.deepcopy(state.payload))
        await self.gateway.dispatch("INTERACTION_CREATE", state.payload)
        return copy.deepcopy(state.payload)

    async def dispatch_component(
        self,
        message: JSON | int | str,
        custom_id: str,
        *,
        user: JSON | int | str | None = None,
        values: list[str] | None = None,
        member_permissions: int | str | None = None,
    ) -> JSON:
        """INTERACTION_CREATE type 3: click a button / pick select ``values`` on a bot message."""
        mid = int(message["id"]) if isinstance(message, dict) else int(message)
        current = self.store.message(mid)  # use the current components, not a stale copy
        user_id = self.store.resolve_user_id(user, self._default_user_id)
        self._ensure_member(int(current["channel_id"]), user_id)
        state = build_component(
            self.store,
            current,
            custom_id,
            user_id=user_id,
            values=values,
            member_permissions=member_permissions,
        )
        await self.gateway.dispatch("INTERACTION_CREATE", state.payload)
        return copy.deepcopy(state.payload)

    async def dispatch_modal_submit(
        self,
        modal: str | JSON | int,
        values: Mapping[str, str | list[str]],
        *,
        user: JSON | int | str | None = None,
        member_permissions: int | str | None = None,
    ) -> JSON:
        """INTERACTION_CREATE type 5 answering a modal the bot opened (type 9 callback).

        ``modal`` is the modal's custom_id, or the interaction (dict/id) the modal was opened from.
        """
        source: InteractionState | None = None
        if isinstance(modal, str) and not modal.isdigit():
            candidates = [
                s
                for s in self.store.interactions.values()
                if s.callback_type == 9 and (s.callback_data or {}).get("custom_id") == modal
            ]
            source = candidates[-1] if candidates else None
        else:
            source = self.store.interactions.get(_interaction_id(modal))  # type: ignore[arg-type]
        if source is None or source.callback_type != 9 or source.callback_data is None:
            raise LookupError(f"no modal {modal!r} has been opened by the bot")
        user_id = self.store.resolve_user_id(user, source.user_id)
        state = build_modal_submit(
            self.store,
            source.callback_data,
            values,
            user_id=user_id,
            channel_id=source.channel_id,
            source=source,
            member_permissions=member_permissions,
        )
        await self.gateway.dispatch("INTERACTION_CREATE", state.payload)
        return copy.deepcopy(state.payload)


def _interaction_id(interaction: JSON | int | str) -> int:
    return int(interaction["id"]) if isinstance(interaction, dict) else int(interaction)
