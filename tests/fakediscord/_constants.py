"""Numeric constants of the Discord API v10 used by the fake server.

Kept in one place so the rest of the package reads as names, not magic numbers.
Values come from the Discord developer documentation (topics/opcodes-and-status-codes,
topics/gateway#gateway-intents, topics/permissions, resources/message#message-object-message-flags).
"""

from __future__ import annotations

from typing import Final

API_VERSION: Final = 10


class Op:
    """Gateway opcodes."""

    DISPATCH: Final = 0
    HEARTBEAT: Final = 1
    IDENTIFY: Final = 2
    PRESENCE_UPDATE: Final = 3
    VOICE_STATE_UPDATE: Final = 4
    RESUME: Final = 6
    RECONNECT: Final = 7
    REQUEST_GUILD_MEMBERS: Final = 8
    INVALID_SESSION: Final = 9
    HELLO: Final = 10
    HEARTBEAT_ACK: Final = 11


class Close:
    """Gateway close codes (4xxx are Discord specific)."""

    UNKNOWN_ERROR: Final = 4000
    UNKNOWN_OPCODE: Final = 4001
    DECODE_ERROR: Final = 4002
    NOT_AUTHENTICATED: Final = 4003
    AUTHENTICATION_FAILED: Final = 4004
    ALREADY_AUTHENTICATED: Final = 4005
    INVALID_API_VERSION: Final = 4012
    INVALID_INTENTS: Final = 4013
    DISALLOWED_INTENTS: Final = 4014


class Intent:
    """Gateway intent bits."""

    GUILDS: Final = 1 << 0
    GUILD_MEMBERS: Final = 1 << 1
    GUILD_PRESENCES: Final = 1 << 8
    GUILD_MESSAGES: Final = 1 << 9
    GUILD_MESSAGE_REACTIONS: Final = 1 << 10
    GUILD_MESSAGE_TYPING: Final = 1 << 11
    DIRECT_MESSAGES: Final = 1 << 12
    DIRECT_MESSAGE_REACTIONS: Final = 1 << 13
    DIRECT_MESSAGE_TYPING: Final = 1 << 14
    MESSAGE_CONTENT: Final = 1 << 15

    PRIVILEGED: Final = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT
    # Highest defined bit is AUTO_MODERATION_EXECUTION/GUILD_MESSAGE_POLLS/DIRECT_MESSAGE_POLLS (1 << 25).
    ALL: Final = (1 << 26) - 1


class Perm:
    """Permission bits (only the ones the fake reasons about by name)."""

    CREATE_INSTANT_INVITE: Final = 1 << 0
    ADMINISTRATOR: Final = 1 << 3
    MANAGE_CHANNELS: Final = 1 << 4
    MANAGE_GUILD: Final = 1 << 5
    ADD_REACTIONS: Final = 1 << 6
    VIEW_CHANNEL: Final = 1 << 10
    SEND_MESSAGES: Final = 1 << 11
    MANAGE_MESSAGES: Final = 1 << 13
    EMBED_LINKS: Final = 1 << 14
    ATTACH_FILES: Final = 1 << 15
    READ_MESSAGE_HISTORY: Final = 1 << 16
    USE_EXTERNAL_EMOJIS: Final = 1 << 18
    CONNECT: Final = 1 << 20
    SPEAK: Final = 1 << 21
    USE_APPLICATION_COMMANDS: Final = 1 << 31
    CREATE_PUBLIC_THREADS: Final = 1 << 35
    SEND_MESSAGES_IN_THREADS: Final = 1 << 38

    # Discord answers app_permissions with every defined bit set for administrators.
    ALL: Final = (1 << 53) - 1

    # What a fresh guild grants @everyone (close to Discord's default role).
    EVERYONE_DEFAULT: Final = (
        CREATE_INSTANT_INVITE
        | ADD_REACTIONS
        | VIEW_CHANNEL
        | SEND_MESSAGES
        | EMBED_LINKS
        | ATTACH_FILES
        | READ_MESSAGE_HISTORY
        | USE_EXTERNAL_EMOJIS
        | CONNECT
        | SPEAK
        | USE_APPLICATION_COMMANDS
        | CREATE_PUBLIC_THREADS
        | SEND_MESSAGES_IN_THREADS
    )


class AppFlag:
    """Application flags advertising which privileged intents are enabled."""

    GATEWAY_PRESENCE_LIMITED: Final = 1 << 13
    GATEWAY_GUILD_MEMBERS_LIMITED: Final = 1 << 15
    GATEWAY_MESSAGE_CONTENT_LIMITED: Final = 1 << 19
    APPLICATION_COMMAND_BADGE: Final = 1 << 23


class MsgFlag:
    EPHEMERAL: Final = 1 << 6
    LOADING: Final = 1 << 7
    IS_COMPONENTS_V2: Final = 1 << 15


class MsgType:
    DEFAULT: Final = 0
    REPLY: Final = 19
    CHAT_INPUT_COMMAND: Final = 20


class ChannelType:
    GUILD_TEXT: Final = 0
    DM: Final = 1
    GUILD_VOICE: Final = 2
    GUILD_CATEGORY: Final = 4
    PUBLIC_THREAD: Final = 11
    PRIVATE_THREAD: Final = 12
    THREADS: Final = (10, 11, 12)


class InteractionType:
    PING: Final = 1
    APPLICATION_COMMAND: Final = 2
    MESSAGE_COMPONENT: Final = 3
    AUTOCOMPLETE: Final = 4
    MODAL_SUBMIT: Final = 5


class Callback:
    """Interaction callback (response) types."""

    PONG: Final = 1
    CHANNEL_MESSAGE_WITH_SOURCE: Final = 4
    DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: Final = 5
    DEFERRED_UPDATE_MESSAGE: Final = 6
    UPDATE_MESSAGE: Final = 7
    AUTOCOMPLETE_RESULT: Final = 8
    MODAL: Final = 9
    LAUNCH_ACTIVITY: Final = 12


class OptionType:
    SUB_COMMAND: Final = 1
    SUB_COMMAND_GROUP: Final = 2
    STRING: Final = 3
    INTEGER: Final = 4
    BOOLEAN: Final = 5
    USER: Final = 6
    CHANNEL: Final = 7
    ROLE: Final = 8
    MENTIONABLE: Final = 9
    NUMBER: Final = 10
    ATTACHMENT: Final = 11


class ErrorCode:
    """JSON error codes returned in REST error bodies."""

    GENERAL: Final = 0
    UNKNOWN_CHANNEL: Final = 10003
    UNKNOWN_GUILD: Final = 10004
    UNKNOWN_MEMBER: Final = 10007
    UNKNOWN_MESSAGE: Final = 10008
    UNKNOWN_USER: Final = 10013
    UNKNOWN_WEBHOOK: Final = 10015
    UNKNOWN_APPLICATION_COMMAND: Final = 10063
    UNKNOWN_INTERACTION: Final = 10062
    CANNOT_EDIT_OTHER_USERS_MESSAGE: Final = 50005
    CANNOT_SEND_EMPTY_MESSAGE: Final = 50006
    INVALID_FORM_BODY: Final = 50035
    INTERACTION_ALREADY_ACKNOWLEDGED: Final = 40060
