"""Builders for INTERACTION_CREATE payloads (slash commands, components, modal submits)."""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from typing import Any

from ._constants import InteractionType, OptionType
from ._state import InteractionState, Store

JSON = dict[str, Any]

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


def _base_payload(
    store: Store,
    *,
    interaction_id: int,
    kind: int,
    token: str,
    user_id: int,
    channel_id: int,
    member_permissions: int | str | None,
) -> JSON:
    guild_id = store.guild_id_of(channel_id)
    bot_id = store.identity.user_id
    payload: JSON = {
        "id": str(interaction_id),
        "application_id": str(store.identity.app_id),
        "type": kind,
        "token": token,
        "version": 1,
        "channel_id": str(channel_id),
        "channel": _interaction_channel(store, channel_id, guild_id, user_id, member_permissions),
        "locale": "en-US",
        "entitlements": [],
        "entitlement_sku_ids": [],
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    }
    if guild_id is not None:
        perms = store.member_permissions(guild_id, user_id) if member_permissions is None else member_permissions
        payload.update(
            guild_id=str(guild_id),
            guild={"id": str(guild_id), "locale": "en-US", "features": []},
            guild_locale="en-US",
            member=store.member_payload(guild_id, user_id, permissions=perms),
            app_permissions=str(store.member_permissions(guild_id, bot_id)),
            authorizing_integration_owners={"0": str(guild_id)},
            context=0,
        )
    else:
        payload.update(
            user=store.user(user_id),
            app_permissions=str(0),
            authorizing_integration_owners={"0": "0"},
            context=1,
        )
    return payload


def _interaction_channel(
    store: Store, channel_id: int, guild_id: int | None, user_id: int, member_permissions: int | str | None
) -> JSON:
    channel = store.channel(channel_id)
    if guild_id is not None:
        perms = store.member_permissions(guild_id, user_id) if member_permissions is None else member_permissions
        channel["permissions"] = str(perms)
    return channel


def _register(store: Store, payload: JSON, user_id: int, channel_id: int) -> InteractionState:
    state = InteractionState(
        id=int(payload["id"]),
        token=payload["token"],
        application_id=store.identity.app_id,
        type=payload["type"],
        guild_id=store.guild_id_of(channel_id),
        channel_id=channel_id,
        user_id=user_id,
        dispatched_at=store.now(),
        payload=payload,
    )
    store.register_interaction(state)
    return state


# ----------------------------------------------------------------- slash
def build_slash(
    store: Store,
    name: str,
    options: Mapping[str, Any],
    *,
    user_id: int,
    channel_id: int,
    member_permissions: int | str | None = None,
    require_synced: bool = True,
    command_type: int = 1,
) -> InteractionState:
    """``name`` may include subcommands: "config set" or "admin config set"."""
    parts = name.split()
    guild_id = store.guild_id_of(channel_id)
    command = store.find_command(parts[0], guild_id, command_type)
    if command is None:
        if require_synced:
            raise LookupError(
                f"command {parts[0]!r} has not been synced to the fake server "
                "(run tree.sync() first, or pass require_synced=False)"
            )
        command = {"id": str(store.ids.next()), "name": parts[0], "type": command_type, "options": []}
    resolved: JSON = {}
    guild_scope = command.get("guild_id")
    option_defs: list[JSON] = command.get("options") or []
    nested: list[JSON] = []
    root = nested
    for sub in parts[1:]:
        sub_def = next((o for o in option_defs if o["name"] == sub and o["type"] in (1, 2)), None)
        if sub_def is None:
            if require_synced:
                raise LookupError(f"subcommand {sub!r} not found in synced command {name!r}")
            sub_def = {"name": sub, "type": OptionType.SUB_COMMAND, "options": []}
        entry: JSON = {"name": sub, "type": sub_def["type"], "options": []}
        nested.append(entry)
        nested = entry["options"]
        option_defs = sub_def.get("options") or []
    for opt_name, value in options.items():
        opt_def = next((o for o in option_defs if o["name"] == opt_name), None)
        if opt_def is None:
            if require_synced:
                known = ", ".join(o["name"] for o in option_defs) or "none"
                raise LookupError(f"option {opt_name!r} is not defined on {name!r} (known: {known})")
            opt_def = {"name": opt_name, "type": _infer_option_type(value)}
        nested.append(
            {
                "name": opt_name,
                "type": opt_def["type"],
                "value": _option_value(store, opt_def["type"], value, resolved, guild_id),
            }
        )
    data: JSON = {"id": command["id"], "name": parts[0], "type": command_type}
    if root:
        data["options"] = root
    if resolved:
        data["resolved"] = resolved
    if guild_scope:
        data["guild_id"] = guild_scope
    iid = store.ids.next()
    payload = _base_payload(
        store,
        interaction_id=iid,
        kind=InteractionType.APPLICATION_COMMAND,
        token=store.new_interaction_token(),
        user_id=user_id,
        channel_id=channel_id,
        member_permissions=member_permissions,
    )
    payload["data"] = data
    return _register(store, payload, user_id, channel_id)


def _infer_option_type(value: Any) -> int:
    if isinstance(value, bool):
        return OptionType.BOOLEAN
    if isinstance(value, int):
        return OptionType.INTEGER
    if isinstance(value, float):
        return OptionType.NUMBER
    return OptionType.STRING


def _option_value(store: Store, kind: int, value: Any, resolved: JSON, guild_id: int | None) -> Any:
    """Convert a Python value to the wire value Discord sends, filling ``resolved``."""
    if kind == OptionType.STRING:
        return str(value)
    if kind == OptionType.INTEGER:
        return int(value)
    if kind == OptionType.NUMBER:
        return float(value)
    if kind == OptionType.BOOLEAN:
        return bool(value)
    snowflake = str(value["id"]) if isinstance(value, dict) else str(value)
    sid = int(snowflake)
    if kind in (OptionType.USER, OptionType.MENTIONABLE) and sid in store.users:
        resolved.setdefault("users", {})[snowflake] = store.user(sid)
        if guild_id is not None and sid in store.guilds[guild_id].members:
            member = store.member_payload(
                guild_id, sid, with_user=False, permissions=store.member_permissions(guild_id, sid)
            )
            resolved.setdefault("members", {})[snowflake] = member
    elif kind in (OptionType.ROLE, OptionType.MENTIONABLE) and guild_id is not None:
        role = store.guilds[guild_id].roles.get(sid)
        if role is not None:
            resolved.setdefault("roles", {})[snowflake] = copy.deepcopy(role)
    elif kind == OptionType.CHANNEL and sid in store.channels:
        channel = store.channel(sid)
        partial = {k: channel[k] for k in ("id", "name", "type", "parent_id", "thread_metadata") if k in channel}
        partial["permissions"] = str(store.member_permissions(guild_id, store.identity.user_id)) if guild_id else "0"
        resolved.setdefault("channels", {})[snowflake] = partial
    return snowflake


# ------------------------------------------------------------ components
def iter_components(components: list[JSON]) -> Iterator[JSON]:
    """Depth-first walk through action rows, containers, sections and labels."""
    for component in components or []:
        yield component
        yield from iter_components(component.get("components") or [])
        for key in ("accessory", "component"):
            child = component.get(key)
            if isinstance(child, dict):
                yield from iter_components([child])


def build_component(
    store: Store,
    message: JSON,
    custom_id: str,
    *,
    user_id: int,
    values: list[str] | None = None,
    member_permissions: int | str | None = None,
) -> InteractionState:
    component = next(
        (c for c in iter_components(message.get("components") or []) if c.get("custom_id") == custom_id), None
    )
    if component is None:
        ids = [c.get("custom_id") for c in iter_components(message.get("components") or []) if c.get("custom_id")]
        raise LookupError(f"message {message['id']} has no component with custom_id {custom_id!r} (has {ids})")
    channel_id = int(message["channel_id"])
    data: JSON = {"custom_id": custom_id, "component_type": component["type"]}
    if component["type"] != 2:  # select menus always carry values (possibly empty)
        data["values"] = list(values or [])
    payload = _base_payload(
        store,
        interaction_id=store.ids.next(),
        kind=InteractionType.MESSAGE_COMPONENT,
        token=store.new_interaction_token(),
        user_id=user_id,
        channel_id=channel_id,
        member_permissions=member_permissions,
    )
    payload["data"] = data
    payload["message"] = message
    state = _register(store, payload, user_id, channel_id)
    # For component interactions "@original" is the message the component is on.
    state.original_message_id = int(message["id"])
    state.ephemeral = bool(int(message.get("flags", 0)) & 64)
    return state


def build_modal_submit(
    store: Store,
    modal: JSON,
    values: Mapping[str, str | list[str]],
    *,
    user_id: int,
    channel_id: int,
    source: InteractionState | None,
    member_permissions: int | str | None = None,
) -> InteractionState:
    """Echo the modal's own component tree back with the submitted values filled in."""

    def fill(component: JSON) -> JSON | None:
        kind = component.get("type")
        if kind == 1:  # action row (legacy modal layout)
            children = [c for c in (fill(x) for x in component.get("components") or []) if c is not None]
            return {"type": 1, "components": children}
        if kind == 18:  # label wrapping one interactive component
            child = component.get("component")
            filled = fill(child) if isinstance(child, dict) else None
            return {"type": 18, "id": component.get("id", 0), "component": filled} if filled else None
        custom_id = component.get("custom_id")
        if custom_id is None:
            return None
        if kind == 4:  # text input
            return {
                "type": 4,
                "id": component.get("id", 0),
                "custom_id": custom_id,
                "value": str(values.get(custom_id, "")),
            }
        value = values.get(custom_id, [])
        return {
            "type": kind,
            "id": component.get("id", 0),
            "custom_id": custom_id,
            "values": [value] if isinstance(value, str) else list(value),
        }

    components = [c for c in (fill(x) for x in modal.get("components") or []) if c is not None]
    payload = _base_payload(
        store,
        interaction_id=store.ids.next(),
        kind=InteractionType.MODAL_SUBMIT,
        token=store.new_interaction_token(),
        user_id=user_id,
        channel_id=channel_id,
        member_permissions=member_permissions,
    )
    payload["data"] = {"custom_id": modal["custom_id"], "components": components}
    state = _register(store, payload, user_id, channel_id)
    if source is not None and source.type == InteractionType.MESSAGE_COMPONENT and source.original_message_id:
        # A modal opened from a button can answer with UPDATE_MESSAGE on that message.
        payload["message"] = store.message(source.original_message_id)
        state.original_message_id = source.original_message_id
    return state
