"""The Gateway: HELLO/IDENTIFY/READY, heartbeats, sequence numbers, RESUME and replay.

A *session* (what IDENTIFY creates and RESUME continues) outlives the WebSocket
*connection* it happens to be on, exactly like Discord: events dispatched while the bot
is disconnected are kept in the session's replay buffer and sent after RESUME.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import json
import secrets
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from aiohttp import WSMsgType, web

from ._compression import Compressor, make_compressor
from ._constants import Close, Intent, Op
from ._intents import shape_for_session
from ._records import GatewayRecord
from ._state import Store

JSON = dict[str, Any]
_TRACE = ['["fakediscord-gateway",{"micros":0}]']


@dataclasses.dataclass(slots=True)
class GatewayConfig:
    token: str
    heartbeat_interval_ms: int = 41_250
    allowed_privileged_intents: int = Intent.PRIVILEGED
    enforce_message_content: bool = True
    application_flags: int = 0
    replay_buffer: int = 2_000
    close_timeout: float = 5.0


class GatewayConnection:
    """One WebSocket. Owns the per-connection compression stream, so sends are serialized."""

    def __init__(
        self,
        conn_id: int,
        ws: web.WebSocketResponse,
        transport: asyncio.BaseTransport | None,
        compressor: Compressor,
        record: Callable[[GatewayConnection, str, JSON], None],
    ) -> None:
        self.id = conn_id
        self.ws = ws
        self.transport = transport
        self.compressor = compressor
        self.session: GatewaySession | None = None
        self.server_closed = False
        self.dropped = False
        self.opened_at = time.monotonic()
        self._record = record
        # The shared zlib/zstd stream must see frames in the exact order they hit the wire.
        self._lock = asyncio.Lock()

    @property
    def live(self) -> bool:
        return not self.ws.closed and not self.dropped

    async def send(self, frame: JSON) -> bool:
        async with self._lock:
            if not self.live:
                return False
            encoded = self.compressor.encode(frame)
            try:
                if isinstance(encoded, bytes):
                    await self.ws.send_bytes(encoded)
                else:
                    await self.ws.send_str(encoded)
            except (OSError, RuntimeError):
                return False
            self._record(self, "send", frame)
            return True

    async def close(self, code: int, message: str = "") -> None:
        self.server_closed = True
        with contextlib.suppress(OSError, RuntimeError):
            await self.ws.close(code=code, message=message.encode())

    def abort(self) -> bool:
        """Kill the TCP connection without a close frame (client sees code 1006)."""
        if self.dropped or self.transport is None or self.transport.is_closing():
            return False
        self.dropped = True
        self.transport.abort()  # type: ignore[attr-defined]
        return True


class GatewaySession:
    def __init__(self, session_id: str, identify: JSON, intents: int, shard: list[int] | None, buffer: int) -> None:
        self.id = session_id
        self.identify = identify
        self.intents = intents
        self.shard = shard
        self.seq = 0
        self.buffer: deque[JSON] = deque(maxlen=buffer)
        self.connection: GatewayConnection | None = None
        self.alive = True
        # Held while assigning a sequence number and sending, and during RESUME replay,
        # so a resumed client never sees events out of order or twice.
        self.lock = asyncio.Lock()

    async def dispatch(self, event: str, data: JSON) -> int:
        async with self.lock:
            return await self.dispatch_locked(event, data)

    async def dispatch_locked(self, event: str, data: JSON) -> int:
        self.seq += 1
        frame = {"op": Op.DISPATCH, "t": event, "s": self.seq, "d": data}
        self.buffer.append(frame)
        conn = self.connection
        if conn is not None and not await conn.send(frame) and self.connection is conn:
            self.connection = None
        return self.seq


def _frame(op: int, data: Any = None) -> JSON:
    return {"op": op, "d": data, "s": None, "t": None}


class Gateway:
    def __init__(
        self,
        store: Store,
        config: GatewayConfig,
        *,
        gateway_url: Callable[[], str],
        on_record: Callable[[GatewayRecord], None],
    ) -> None:
        self.store = store
        self.config = config
        self._gateway_url = gateway_url
        self._on_record = on_record
        self._conn_ids = itertools.count(1)
        self.sessions: dict[str, GatewaySession] = {}
        self.connections: dict[int, GatewayConnection] = {}
        self.identifies: list[JSON] = []
        self.resumes: list[JSON] = []
        self.heartbeats = 0
        self.heartbeat_ack = True  # set False to simulate a zombied connection

    # ------------------------------------------------------------- recording
    def _record(self, conn: GatewayConnection, direction: str, frame: JSON) -> None:
        self._on_record(
            GatewayRecord(
                t=time.monotonic(),
                connection_id=conn.id,
                session_id=conn.session.id if conn.session else None,
                direction="send" if direction == "send" else "recv",
                op=frame.get("op"),
                event=frame.get("t"),
                seq=frame.get("s"),
                data=frame.get("d"),
            )
        )

    # ---------------------------------------------------------- ws endpoint
    async def handle(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(compress=False, max_msg_size=0, timeout=self.config.close_timeout)
        if not ws.can_prepare(request).ok:
            return web.json_response({"message": "400: Bad Request (WebSocket expected)", "code": 0}, status=400)
        await ws.prepare(request)
        conn = GatewayConnection(
            next(self._conn_ids),
            ws,
            request.transport,
            make_compressor(request.query.get("compress")),
            self._record,
        )
        self.connections[conn.id] = conn
        try:
            if request.query.get("v") not in (None, "9", "10"):
                await conn.close(Close.INVALID_API_VERSION, "Invalid API version")
                return ws
            if request.query.get("encoding", "json") != "json":
                await conn.close(Close.DECODE_ERROR, "Only encoding=json is supported by the fake gateway")
                return ws
            await conn.send(
                _frame(Op.HELLO, {"heartbeat_interval": self.config.heartbeat_interval_ms, "_trace": _TRACE})
            )
            async for msg in ws:
                if msg.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                    break
                raw = msg.data if msg.type is WSMsgType.TEXT else msg.data.decode("utf-8", "replace")
                try:
                    frame = json.loads(raw)
                    if not isinstance(frame, dict):
                        raise ValueError("frame is not an object")
                except ValueError:
                    await conn.close(Close.DECODE_ERROR, "Error while decoding payload.")
                    break
                self._record(conn, "recv", frame)
                if not await self._handle_frame(conn, frame):
                    break
        finally:
            self._detach(conn)
        return ws

    def _detach(self, conn: GatewayConnection) -> None:
        self.connections.pop(conn.id, None)
        session = conn.session
        if session is None:
            return
        if session.connection is conn:
            session.connection = None
        # A clean client close (1000/1001) ends the session on Discord; anything else
        # (4000 from discord.py's reconnect logic, 1006 from a dropped socket) stays resumable.
        if not conn.server_closed and not conn.dropped and conn.ws.close_code in (1000, 1001):
            self._kill_session(session)

    def _kill_session(self, session: GatewaySession) -> None:
        session.alive = False
        self.sessions.pop(session.id, None)

    async def _handle_frame(self, conn: GatewayConnection, frame: JSON) -> bool:
        """Handle one client frame; False means the connection was closed."""
        op = frame.get("op")
        data = frame.get("d")
        if op == Op.HEARTBEAT:
            self.heartbeats += 1
            if self.heartbeat_ack:
                await conn.send(_frame(Op.HEARTBEAT_ACK))
            return True
        if op == Op.IDENTIFY:
            return await self._identify(conn, data if isinstance(data, dict) else {})
        if op == Op.RESUME:
            return await self._resume(conn, data if isinstance(data, dict) else {})
        if conn.session is None:
            await conn.close(Close.NOT_AUTHENTICATED, "Not authenticated.")
            return False
        if op == Op.REQUEST_GUILD_MEMBERS:
            await self._request_members(conn.session, data if isinstance(data, dict) else {})
            return True
        if op in (Op.PRESENCE_UPDATE, Op.VOICE_STATE_UPDATE):
            return True  # recorded above; nothing to simulate
        await conn.close(Close.UNKNOWN_OPCODE, "Unknown opcode.")
        return False

    async def _identify(self, conn: GatewayConnection, data: JSON) -> bool:
        self.identifies.append(data)
        if conn.session is not None:
            await conn.close(Close.ALREADY_AUTHENTICATED, "Already authenticated.")
            return False
        if data.get("token") != self.config.token:
            await conn.close(Close.AUTHENTICATION_FAILED, "Authentication failed.")
            return False
        intents = data.get("intents")
        if not isinstance(intents, int) or intents < 0 or intents & ~Intent.ALL:
            await conn.close(Close.INVALID_INTENTS, "Invalid intent(s).")
            return False
        if intents & Intent.PRIVILEGED & ~self.config.allowed_privileged_intents:
            await conn.close(Close.DISALLOWED_INTENTS, "Disallowed intent(s).")
            return False
        shard = data.get("shard")
        session = GatewaySession(secrets.token_hex(16), data, intents, shard, self.config.replay_buffer)
        async with session.lock:
            session.connection = conn
            conn.session = session
            self.sessions[session.id] = session
            ready: JSON = {
                "v": 10,
                "user_settings": {},
                "user": self.store.bot_user(),
                "session_type": "normal",
                "session_id": session.id,
                "resume_gateway_url": self._gateway_url(),
                "relationships": [],
                "private_channels": [],
                "presences": [],
                "guilds": [{"id": str(gid), "unavailable": True} for gid in self.store.guilds],
                "guild_join_requests": [],
                "geo_ordered_rtc_regions": ["fake-local"],
                "auth": {},
                "application": {
                    "id": str(self.store.identity.app_id),
                    "flags": self.config.application_flags,
                },
                "_trace": _TRACE,
            }
            if shard is not None:
                ready["shard"] = shard
            await session.dispatch_locked("READY", ready)
            # Lazy guild loading, as Discord does right after READY.
            for gid in list(self.store.guilds):
                await session.dispatch_locked("GUILD_CREATE", self.store.guild_create_payload(gid))
        return True

    async def _resume(self, conn: GatewayConnection, data: JSON) -> bool:
        self.resumes.append(data)
        if data.get("token") != self.config.token:
            await conn.close(Close.AUTHENTICATION_FAILED, "Authentication failed.")
            return False
        session = self.sessions.get(str(data.get("session_id")))
        seq = data.get("seq") or 0
        if session is None or not session.alive or not isinstance(seq, int):
            await conn.send(_frame(Op.INVALID_SESSION, False))
            return True
        async with session.lock:
            oldest = session.buffer[0]["s"] if session.buffer else session.seq + 1
            if seq > session.seq or seq < oldest - 1:
                # The client claims events we never sent, or ones we no longer have.
                self._kill_session(session)
                await conn.send(_frame(Op.INVALID_SESSION, False))
                return True
            previous = session.connection
            if previous is not None and previous is not conn:
                await previous.close(Close.UNKNOWN_ERROR, "Session resumed elsewhere")
            session.connection = conn
            conn.session = session
            for frame in list(session.buffer):
                if frame["s"] > seq and not await conn.send(frame):
                    return False
            await session.dispatch_locked("RESUMED", {"_trace": _TRACE})
        return True

    async def _request_members(self, session: GatewaySession, data: JSON) -> None:
        guild_ids = data.get("guild_id")
        for gid in guild_ids if isinstance(guild_ids, list) else [guild_ids]:
            guild = self.store.guilds.get(int(gid)) if gid is not None else None
            if guild is None:
                continue
            wanted = [int(u) for u in data.get("user_ids") or []]
            query = (data.get("query") or "").lower()
            members = []
            for uid in guild.members:
                if wanted and uid not in wanted:
                    continue
                if query and not self.store.users[uid]["username"].lower().startswith(query):
                    continue
                members.append(self.store.member_payload(guild.id, uid))
            limit = data.get("limit") or 0
            if limit:
                members = members[:limit]
            chunk: JSON = {
                "guild_id": str(guild.id),
                "members": members,
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": [str(u) for u in wanted if u not in guild.members],
            }
            if data.get("presences"):
                chunk["presences"] = []
            if data.get("nonce") is not None:
                chunk["nonce"] = data["nonce"]
            await session.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    # ------------------------------------------------------------ fan-out
    async def dispatch(self, event: str, data: JSON) -> int:
        """Send (or buffer, if disconnected) an event to every live session that wants it."""
        delivered = 0
        for session in list(self.sessions.values()):
            if not session.alive:
                continue
            shaped = (
                data
                if event == "GUILD_CREATE"
                else shape_for_session(
                    session.intents,
                    event,
                    data,
                    self.store.identity.user_id,
                    enforce_message_content=self.config.enforce_message_content,
                )
            )
            if shaped is None:
                continue
            await session.dispatch(event, shaped)
            delivered += 1
        return delivered

    def _session_connections(self) -> list[GatewayConnection]:
        return [c for c in self.connections.values() if c.session is not None and c.live]

    async def send_reconnect(self) -> int:
        conns = self._session_connections()
        for conn in conns:
            await conn.send(_frame(Op.RECONNECT))
        return len(conns)

    async def invalidate_sessions(self, resumable: bool) -> int:
        conns = self._session_connections()
        for conn in conns:
            if not resumable and conn.session is not None:
                self._kill_session(conn.session)
            await conn.send(_frame(Op.INVALID_SESSION, resumable))
        return len(conns)

    def drop_connections(self) -> int:
        return sum(conn.abort() for conn in list(self.connections.values()))

    async def close_connections(self, code: int, message: str = "") -> int:
        conns = list(self.connections.values())
        await asyncio.gather(*(c.close(code, message) for c in conns))
        return len(conns)

    async def shutdown(self) -> None:
        conns = list(self.connections.values())
        if conns:
            # asyncio.TimeoutError is not the builtin TimeoutError before Python 3.11.
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.close_connections(1001, "Server shutting down"), timeout=1.0)
        self.drop_connections()
