"""The fake server's world: users, guilds, channels, messages, commands, interactions.

Everything is stored as Discord-shaped JSON dicts (ids as strings) so handlers can hand
copies straight to the client. Payload builders live here too, because they are the
only code that needs to know how the stored pieces combine into API objects.
"""

from __future__ import annotations

import copy
import dataclasses
import re
import secrets
import time
from collections.abc import Iterable
from typing import Any

from ._constants import ChannelType, MsgFlag, MsgType, Perm
from ._records import UploadedFile
from ._snowflake import SnowflakeGenerator, iso_timestamp

JSON = dict[str, Any]

_USER_MENTION = re.compile(r"<@!?(\d{15,21})>")
_ROLE_MENTION = re.compile(r"<@&(\d{15,21})>")
_EVERYONE_MENTION = re.compile(r"@(everyone|here)\b")


@dataclasses.dataclass(frozen=True, slots=True)
class BotIdentity:
    """Who the bot under test is. ``application_id`` defaults to the bot user id, as on Discord."""

    token: str = "fake-bot-token"
    user_id: int = 1_234_567_890_123_456_789
    application_id: int | None = None
    username: str = "FakeBot"
    discriminator: str = "0001"

    @property
    def app_id(self) -> int:
        return self.application_id if self.application_id is not None else self.user_id


@dataclasses.dataclass(slots=True)
class GuildState:
    id: int
    name: str
    owner_id: int
    roles: dict[int, JSON]
    members: dict[int, JSON]  # member objects without "user"
    channel_ids: list[int]
    thread_ids: list[int]
    joined_at: str


@dataclasses.dataclass(slots=True)
class InteractionState:
    id: int
    token: str
    application_id: int
    type: int
    guild_id: int | None
    channel_id: int
    user_id: int
    dispatched_at: float  # monotonic, for the 3 s initial-response window
    payload: JSON
    callback_type: int | None = None
    callback_data: JSON | None = None
    original_message_id: int | None = None
    ephemeral: bool = False
    followup_ids: list[int] = dataclasses.field(default_factory=list)


class ApiError(Exception):
    """Raised by store/handler code; turned into a Discord-style JSON error response."""

    def __init__(self, status: int, code: int, message: str, errors: JSON | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> JSON:
        out: JSON = {"message": self.message, "code": self.code}
        if self.errors is not None:
            out["errors"] = self.errors
        return out


class Store:
    def __init__(self, identity: BotIdentity, ids: SnowflakeGenerator, cdn_base: str = "https://cdn.invalid") -> None:
        self.identity = identity
        self.ids = ids
        self.cdn_base = cdn_base  # FakeDiscord.start() points this at its own /cdn route
        self.attachment_data: dict[int, bytes] = {}
        self.users: dict[int, JSON] = {}
        self.guilds: dict[int, GuildState] = {}
        self.channels: dict[int, JSON] = {}
        self.messages: dict[int, JSON] = {}
        self.channel_messages: dict[int, list[int]] = {}
        # (application_id, guild_id or None) -> command id -> command
        self.commands: dict[tuple[int, int | None], dict[int, JSON]] = {}
        self.interactions: dict[int, InteractionState] = {}
        self.interaction_tokens: dict[str, int] = {}
        self.dm_channels: dict[int, int] = {}  # user id -> DM channel id
        self.reactions: list[JSON] = []
        self.nonces: dict[tuple[int, int, str], tuple[int, float]] = {}  # (channel, author, nonce) → (message, when)
        self._add_user_payload(
            identity.user_id, identity.username, bot=True, discriminator=identity.discriminator, verified=True
        )

    # ------------------------------------------------------------------ users
    def _add_user_payload(
        self, user_id: int, username: str, *, bot: bool, discriminator: str = "0", verified: bool = False
    ) -> JSON:
        user: JSON = {
            "id": str(user_id),
            "username": username,
            "discriminator": discriminator,
            "global_name": None if bot else username.title(),
            "avatar": None,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
            "public_flags": 0,
            "flags": 0,
            "bot": bot,
        }
        if bot:
            user.update({"verified": verified, "mfa_enabled": False, "email": None, "locale": "en-US"})
        self.users[user_id] = user
        return user

    def add_user(self, username: str, *, user_id: int | None = None, bot: bool = False) -> JSON:
        return copy.deepcopy(self._add_user_payload(user_id or self.ids.next(), username, bot=bot))

    def user(self, user_id: int | str) -> JSON:
        try:
            user = self.users[int(user_id)]
        except (KeyError, ValueError):
            raise ApiError(404, 10013, "Unknown User") from None
        public = {k: v for k, v in user.items() if k not in ("verified", "mfa_enabled", "email", "locale")}
        return copy.deepcopy(public)

    def bot_user(self) -> JSON:
        return copy.deepcopy(self.users[self.identity.user_id])

    def resolve_user_id(self, user: int | str | JSON | None, default: int) -> int:
        """Accept a user dict, an id, or a username; None means ``default``."""
        if user is None:
            return default
        if isinstance(user, dict):
            return int(user["id"])
        if isinstance(user, int) or (isinstance(user, str) and user.isdigit()):
            uid = int(user)
            if uid not in self.users:
                raise KeyError(f"unknown user id {uid}")
            return uid
        for uid, payload in self.users.items():
            if payload["username"] == user:
                return uid
        raise KeyError(f"unknown user {user!r}")

    # ----------------------------------------------------------------- guilds
    def add_guild(
        self,
        name: str,
        *,
        owner_id: int,
        channel_names: Iterable[str] = ("general",),
        bot_permissions: int = Perm.ADMINISTRATOR,
    ) -> GuildState:
        gid = self.ids.next()
        everyone: JSON = self._role_payload(gid, "@everyone", Perm.EVERYONE_DEFAULT, position=0)
        guild = GuildState(gid, name, owner_id, {gid: everyone}, {}, [], [], iso_timestamp())
        self.guilds[gid] = guild
        bot_role = self.add_role(gid, self.identity.username, bot_permissions, managed=True)
        bot_role["tags"] = {"bot_id": str(self.identity.user_id)}
        self.add_member(gid, owner_id)
        self.add_member(gid, self.identity.user_id, role_ids=[int(bot_role["id"])])
        for channel_name in channel_names:
            self.add_channel(gid, channel_name)
        return guild

    def guild(self, guild_id: int | str) -> GuildState:
        try:
            return self.guilds[int(guild_id)]
        except (KeyError, ValueError):
            raise ApiError(404, 10004, "Unknown Guild") from None

    @staticmethod
    def _role_payload(role_id: int, name: str, permissions: int, *, position: int, managed: bool = False) -> JSON:
        return {
            "id": str(role_id),
            "name": name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": position,
            "permissions": str(permissions),
            "managed": managed,
            "mentionable": False,
            "flags": 0,
        }

    def add_role(self, guild_id: int, name: str, permissions: int, *, managed: bool = False) -> JSON:
        guild = self.guild(guild_id)
        role = self._role_payload(self.ids.next(), name, permissions, position=len(guild.roles), managed=managed)
        guild.roles[int(role["id"])] = role
        return role

    def add_member(self, guild_id: int, user_id: int, *, role_ids: Iterable[int] = (), nick: str | None = None) -> JSON:
        guild = self.guild(guild_id)
        member: JSON = {
            "nick": nick,
            "avatar": None,
            "banner": None,
            "roles": [str(r) for r in role_ids],
            "joined_at": iso_timestamp(),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        guild.members[user_id] = member
        return member

    def member_permissions(self, guild_id: int, user_id: int) -> int:
        guild = self.guild(guild_id)
        if user_id == guild.owner_id:
            return Perm.ALL
        member = guild.members.get(user_id)
        perms = int(guild.roles[guild.id]["permissions"])
        for rid in member["roles"] if member else []:
            role = guild.roles.get(int(rid))
            if role:
                perms |= int(role["permissions"])
        return Perm.ALL if perms & Perm.ADMINISTRATOR else perms

    def member_payload(
        self, guild_id: int, user_id: int, *, with_user: bool = True, permissions: int | str | None = None
    ) -> JSON:
        guild = self.guild(guild_id)
        try:
            member = copy.deepcopy(guild.members[user_id])
        except KeyError:
            raise ApiError(404, 10007, "Unknown Member") from None
        if with_user:
            member["user"] = self.user(user_id)
        if permissions is not None:
            member["permissions"] = str(permissions)
        return member

    def guild_create_payload(self, guild_id: int) -> JSON:
        guild = self.guild(guild_id)
        return {
            **self.guild_payload(guild_id),
            "joined_at": guild.joined_at,
            "large": False,
            "unavailable": False,
            "member_count": len(guild.members),
            "members": [self.member_payload(guild_id, uid) for uid in guild.members],
            "channels": [self.channel(cid) for cid in guild.channel_ids],
            "threads": [self.channel(tid) for tid in guild.thread_ids],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "embedded_activities": [],
        }

    def guild_payload(self, guild_id: int) -> JSON:
        guild = self.guild(guild_id)
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(guild.owner_id),
            "region": "deprecated",
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": "en-US",
            "features": [],
            "roles": [copy.deepcopy(r) for r in guild.roles.values()],
            "emojis": [],
            "stickers": [],
            "system_channel_id": str(guild.channel_ids[0]) if guild.channel_ids else None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "application_id": None,
            "nsfw": False,
            "incidents_data": None,
        }

    # --------------------------------------------------------------- channels
    def add_channel(self, guild_id: int, name: str, *, channel_type: int = ChannelType.GUILD_TEXT) -> JSON:
        guild = self.guild(guild_id)
        cid = self.ids.next()
        channel: JSON = {
            "id": str(cid),
            "type": channel_type,
            "guild_id": str(guild_id),
            "name": name,
            "position": len(guild.channel_ids),
            "permission_overwrites": [],
            "topic": None,
            "nsfw": False,
            "parent_id": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "default_auto_archive_duration": 1440,
            "flags": 0,
        }
        self.channels[cid] = channel
        guild.channel_ids.append(cid)
        return copy.deepcopy(channel)

    def channel(self, channel_id: int | str) -> JSON:
        return copy.deepcopy(self._channel(channel_id))

    def _channel(self, channel_id: int | str) -> JSON:
        try:
            return self.channels[int(channel_id)]
        except (KeyError, ValueError):
            raise ApiError(404, 10003, "Unknown Channel") from None

    def guild_id_of(self, channel_id: int) -> int | None:
        gid = self._channel(channel_id).get("guild_id")
        return int(gid) if gid else None

    def dm_channel(self, user_id: int) -> JSON:
        if user_id not in self.dm_channels:
            cid = self.ids.next()
            self.channels[cid] = {
                "id": str(cid),
                "type": ChannelType.DM,
                "last_message_id": None,
                "flags": 0,
                "recipients": [self.user(user_id)],
            }
            self.dm_channels[user_id] = cid
        return self.channel(self.dm_channels[user_id])

    def create_thread(
        self,
        parent_id: int,
        name: str,
        *,
        thread_id: int | None = None,
        thread_type: int = ChannelType.PUBLIC_THREAD,
        auto_archive_duration: int = 1440,
        rate_limit_per_user: int = 0,
        owner_id: int | None = None,
    ) -> JSON:
        parent = self._channel(parent_id)
        guild_id = int(parent["guild_id"])
        tid = thread_id or self.ids.next()
        if tid in self.channels:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        owner = owner_id or self.identity.user_id
        now = iso_timestamp()
        thread: JSON = {
            "id": str(tid),
            "type": thread_type,
            "guild_id": str(guild_id),
            "parent_id": str(parent_id),
            "owner_id": str(owner),
            "name": name,
            "last_message_id": None,
            "rate_limit_per_user": rate_limit_per_user,
            "message_count": 0,
            "member_count": 1,
            "total_message_sent": 0,
            "flags": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": auto_archive_duration,
                "archive_timestamp": now,
                "locked": False,
                "create_timestamp": now,
                "invitable": True,
            },
            "member": {"id": str(tid), "user_id": str(owner), "join_timestamp": now, "flags": 0},
        }
        self.channels[tid] = thread
        self.guild(guild_id).thread_ids.append(tid)
        return copy.deepcopy(thread)

    # --------------------------------------------------------------- messages
    def build_attachments(self, channel_id: int, files: list[UploadedFile], described: list[JSON]) -> list[JSON]:
        descriptions = {str(a.get("id")): a for a in described}
        out = []
        for index, upload in enumerate(files):
            match = re.fullmatch(r"files\[(\d+)\]", upload.field)
            key = match.group(1) if match else str(index)
            meta = descriptions.get(key, {})
            aid = self.ids.next()
            filename = meta.get("filename") or upload.filename or f"file{index}"
            url = f"{self.cdn_base}/attachments/{channel_id}/{aid}/{filename}"
            self.attachment_data[aid] = upload.data
            attachment: JSON = {
                "id": str(aid),
                "filename": filename,
                "size": upload.size,
                "url": url,
                "proxy_url": url,
                "content_type": upload.content_type or "application/octet-stream",
            }
            if meta.get("description"):
                attachment["description"] = meta["description"]
            out.append(attachment)
        return out

    def _mentions(
        self, content: str, allowed: JSON | None, extra_user_ids: Iterable[int], replied_author: int | None
    ) -> tuple[list[JSON], list[str], bool]:
        """Compute (mentions, mention_roles, mention_everyone) the way Discord applies allowed_mentions."""
        parse = set(allowed.get("parse", [])) if allowed is not None else {"users", "roles", "everyone"}
        allowed_users = {int(u) for u in (allowed or {}).get("users", [])}
        allowed_roles = {int(r) for r in (allowed or {}).get("roles", [])}
        user_ids: list[int] = []
        for uid in [int(m) for m in _USER_MENTION.findall(content)]:
            if uid in self.users and ("users" in parse or uid in allowed_users) and uid not in user_ids:
                user_ids.append(uid)
        for uid in extra_user_ids:
            if uid in self.users and uid not in user_ids:
                user_ids.append(uid)
        replied_user = allowed.get("replied_user", False) if allowed is not None else True
        if replied_author is not None and replied_user and replied_author not in user_ids:
            user_ids.append(replied_author)
        roles = [r for r in _ROLE_MENTION.findall(content) if "roles" in parse or int(r) in allowed_roles]
        everyone = bool(_EVERYONE_MENTION.search(content)) and "everyone" in parse
        return [self.user(uid) for uid in user_ids], roles, everyone

    def create_message(
        self,
        channel_id: int,
        author_id: int,
        body: JSON,
        *,
        files: list[UploadedFile] | None = None,
        message_id: int | None = None,
        extra_mentions: Iterable[int] = (),
        webhook_id: int | None = None,
        interaction: InteractionState | None = None,
        message_type: int | None = None,
    ) -> JSON:
        """Create and store a message from a send/execute/callback body; returns the REST form."""
        channel = self._channel(channel_id)
        mid = message_id or self.ids.next()
        reference = body.get("message_reference")
        referenced: JSON | None = None
        ref_payload: JSON | None = None
        if reference:
            ref_id = int(reference["message_id"])
            ref_channel = int(reference.get("channel_id") or channel_id)
            referenced = self.messages.get(ref_id)
            if referenced is None and reference.get("fail_if_not_exists", True):
                raise ApiError(
                    400,
                    50035,
                    "Invalid Form Body",
                    {
                        "message_reference": {
                            "_errors": [{"code": "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "message": "Unknown message"}]
                        }
                    },
                )
            ref_payload = {
                "type": reference.get("type", 0),
                "message_id": str(ref_id),
                "channel_id": str(ref_channel),
                "fail_if_not_exists": reference.get("fail_if_not_exists", True),
            }
            gid = self.guild_id_of(ref_channel) if ref_channel in self.channels else None
            if gid:
                ref_payload["guild_id"] = str(gid)
        replied_author = int(referenced["author"]["id"]) if referenced else None
        content = body.get("content") or ""
        mentions, mention_roles, mention_everyone = self._mentions(
            content, body.get("allowed_mentions"), extra_mentions, replied_author
        )
        attachments = self.build_attachments(channel_id, files or [], body.get("attachments") or [])
        msg: JSON = {
            "id": str(mid),
            "type": message_type if message_type is not None else (MsgType.REPLY if referenced else MsgType.DEFAULT),
            "channel_id": str(channel_id),
            "author": self.user(author_id),
            "content": content,
            "timestamp": iso_timestamp(),
            "edited_timestamp": None,
            "tts": bool(body.get("tts", False)),
            "mention_everyone": mention_everyone,
            "mentions": mentions,
            "mention_roles": mention_roles,
            "attachments": attachments,
            "embeds": [_normalize_embed(e) for e in body.get("embeds") or []],
            "reactions": [],
            "pinned": False,
            "flags": int(body.get("flags") or 0),
            "components": copy.deepcopy(body.get("components") or []),
        }
        if body.get("nonce") is not None:
            msg["nonce"] = body["nonce"]
        if body.get("poll"):
            msg["poll"] = copy.deepcopy(body["poll"])
        if ref_payload:
            msg["message_reference"] = ref_payload
            msg["referenced_message"] = copy.deepcopy(referenced)
        if webhook_id is not None:
            msg["webhook_id"] = str(webhook_id)
            msg["application_id"] = str(webhook_id)
        if interaction is not None:
            user = self.user(interaction.user_id)
            msg["interaction_metadata"] = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": user,
                "authorizing_integration_owners": interaction.payload.get("authorizing_integration_owners", {}),
            }
            if interaction.type == 2:
                msg["interaction"] = {
                    "id": str(interaction.id),
                    "type": interaction.type,
                    "name": interaction.payload["data"]["name"],
                    "user": user,
                }
        self.messages[mid] = msg
        self.channel_messages.setdefault(channel_id, []).append(mid)
        channel["last_message_id"] = str(mid)
        if channel["type"] in ChannelType.THREADS:
            channel["message_count"] = channel.get("message_count", 0) + 1
            channel["total_message_sent"] = channel.get("total_message_sent", 0) + 1
        return copy.deepcopy(msg)

    def message(self, message_id: int | str, channel_id: int | None = None) -> JSON:
        return copy.deepcopy(self._message(message_id, channel_id))

    def _message(self, message_id: int | str, channel_id: int | None = None) -> JSON:
        try:
            msg = self.messages[int(message_id)]
        except (KeyError, ValueError):
            raise ApiError(404, 10008, "Unknown Message") from None
        if channel_id is not None and int(msg["channel_id"]) != channel_id:
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    def edit_message(self, message_id: int, body: JSON, files: list[UploadedFile] | None = None) -> JSON:
        msg = self._message(message_id)
        for key in ("content", "embeds", "components", "flags", "poll"):
            if key in body:
                value = body[key]
                if key == "embeds":
                    value = [_normalize_embed(e) for e in value or []]
                elif key == "content":
                    value = value or ""
                elif key == "components":
                    value = copy.deepcopy(value or [])
                elif key == "flags":
                    # Ephemeral/loading state is not editable through flags; keep it.
                    value = int(value or 0) | (msg["flags"] & (MsgFlag.EPHEMERAL | MsgFlag.LOADING))
                msg[key] = value
        if "content" in body and "allowed_mentions" in body:
            mentions, roles, everyone = self._mentions(msg["content"], body["allowed_mentions"], (), None)
            msg.update(mentions=mentions, mention_roles=roles, mention_everyone=everyone)
        if "attachments" in body:
            keep = {str(a.get("id")) for a in body["attachments"] or []}
            msg["attachments"] = [a for a in msg["attachments"] if a["id"] in keep]
        new_files = self.build_attachments(int(msg["channel_id"]), files or [], body.get("attachments") or [])
        msg["attachments"].extend(new_files)
        # Any edit of a deferred ("thinking") response replaces the loading state.
        msg["flags"] &= ~MsgFlag.LOADING
        msg["edited_timestamp"] = iso_timestamp()
        return copy.deepcopy(msg)

    def remember_nonce(self, channel_id: int, author_id: int, nonce: str, message_id: int) -> None:
        self.nonces[(channel_id, author_id, nonce)] = (message_id, self.now())

    def message_by_nonce(self, channel_id: int, author_id: int, nonce: str, window: float) -> JSON | None:
        """The message created with this nonce by this author in this channel within ``window`` s."""
        found = self.nonces.get((channel_id, author_id, nonce))
        if found is None or self.now() - found[1] > window or found[0] not in self.messages:
            return None
        return self.message(found[0])

    def delete_message(self, message_id: int) -> JSON:
        msg = self._message(message_id)
        del self.messages[message_id]
        ids = self.channel_messages.get(int(msg["channel_id"]), [])
        if message_id in ids:
            ids.remove(message_id)
        return msg

    def channel_history(
        self, channel_id: int, *, limit: int = 50, before: int | None = None, after: int | None = None
    ) -> list[JSON]:
        self._channel(channel_id)
        ids = list(self.channel_messages.get(channel_id, []))
        if before is not None:
            ids = [i for i in ids if i < before]
        if after is not None:
            ids = [i for i in ids if i > after][:limit]
        return [self.message(i) for i in reversed(ids[-limit:])]

    def gateway_message(self, message: JSON) -> JSON:
        """Gateway form of a message: REST form plus guild_id and member objects."""
        out = copy.deepcopy(message)
        gid = self.guild_id_of(int(message["channel_id"]))
        if gid is None:
            return out
        out["guild_id"] = str(gid)
        guild = self.guilds[gid]
        author_id = int(message["author"]["id"])
        if author_id in guild.members:
            out["member"] = self.member_payload(gid, author_id, with_user=False)
        for mention in out["mentions"]:
            uid = int(mention["id"])
            if uid in guild.members:
                mention["member"] = self.member_payload(gid, uid, with_user=False)
        return out

    # --------------------------------------------------------------- commands
    def command_scope(self, application_id: int, guild_id: int | None) -> dict[int, JSON]:
        if application_id != self.identity.app_id:
            raise ApiError(403, 50001, "Missing Access")
        if guild_id is not None:
            self.guild(guild_id)
        return self.commands.setdefault((application_id, guild_id), {})

    def _command_payload(self, application_id: int, guild_id: int | None, body: JSON, command_id: int) -> JSON:
        cmd: JSON = {
            "id": str(command_id),
            "application_id": str(application_id),
            "version": str(self.ids.next()),
            "type": body.get("type", 1),
            "name": body["name"],
            "description": body.get("description", ""),
            "options": copy.deepcopy(body.get("options") or []),
            "default_member_permissions": body.get("default_member_permissions"),
            "dm_permission": body.get("dm_permission", True),
            "nsfw": body.get("nsfw", False),
            "contexts": body.get("contexts"),
            "integration_types": body.get("integration_types", [0]),
            "name_localizations": body.get("name_localizations"),
            "description_localizations": body.get("description_localizations"),
        }
        if guild_id is not None:
            cmd["guild_id"] = str(guild_id)
        return cmd

    def upsert_command(self, application_id: int, guild_id: int | None, body: JSON) -> tuple[JSON, bool]:
        if not body.get("name"):
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                {"name": {"_errors": [{"code": "BASE_TYPE_REQUIRED", "message": "This field is required"}]}},
            )
        scope = self.command_scope(application_id, guild_id)
        kind = body.get("type", 1)
        existing = next((c for c in scope.values() if c["name"] == body["name"] and c["type"] == kind), None)
        cid = int(existing["id"]) if existing else self.ids.next()
        cmd = self._command_payload(application_id, guild_id, body, cid)
        scope[cid] = cmd
        return copy.deepcopy(cmd), existing is None

    def bulk_overwrite_commands(self, application_id: int, guild_id: int | None, bodies: list[JSON]) -> list[JSON]:
        scope = self.command_scope(application_id, guild_id)
        old = dict(scope)
        scope.clear()
        out = []
        for body in bodies:
            kind = body.get("type", 1)
            # Re-syncing keeps the id of a command with the same name and type, like Discord.
            existing = next((c for c in old.values() if c["name"] == body["name"] and c["type"] == kind), None)
            cid = int(existing["id"]) if existing else self.ids.next()
            scope[cid] = self._command_payload(application_id, guild_id, body, cid)
            out.append(copy.deepcopy(scope[cid]))
        return out

    def edit_command(self, application_id: int, guild_id: int | None, command_id: int, body: JSON) -> JSON:
        scope = self.command_scope(application_id, guild_id)
        if command_id not in scope:
            raise ApiError(404, 10063, "Unknown application command")
        merged = {**scope[command_id], **body}
        scope[command_id] = self._command_payload(application_id, guild_id, merged, command_id)
        return copy.deepcopy(scope[command_id])

    def find_command(self, name: str, guild_id: int | None, kind: int = 1) -> JSON | None:
        """Guild command first (as Discord shows it), then global."""
        app = self.identity.app_id
        scopes = [(app, guild_id)] if guild_id is not None else []
        scopes.append((app, None))
        for key in scopes:
            for cmd in self.commands.get(key, {}).values():
                if cmd["name"] == name and cmd["type"] == kind:
                    return copy.deepcopy(cmd)
        return None

    # ----------------------------------------------------------- interactions
    def new_interaction_token(self) -> str:
        # Real tokens are long opaque strings; discord.py only needs them URL-safe.
        return "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(60).replace("-", "x").replace("_", "y")

    def register_interaction(self, state: InteractionState) -> None:
        self.interactions[state.id] = state
        self.interaction_tokens[state.token] = state.id

    def interaction_by_token(self, application_id: int, token: str) -> InteractionState:
        iid = self.interaction_tokens.get(token)
        state = self.interactions.get(iid) if iid is not None else None
        if state is None or state.application_id != application_id:
            raise ApiError(404, 10015, "Unknown Webhook")
        return state

    def now(self) -> float:
        return time.monotonic()


def _normalize_embed(embed: JSON) -> JSON:
    out = copy.deepcopy(embed)
    out.setdefault("type", "rich")
    return out
