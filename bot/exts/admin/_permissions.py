"""Who may run admin commands: members with Manage Server (or Administrator), and the user ids
listed in BOT_ADMIN_USER_IDS — checked here, in code, so configured admins work anywhere
(default_member_permissions would hide the command from them)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord


def is_admin(user_id: int, permissions: Iterable[discord.Permissions | None], admin_ids: Iterable[int]) -> bool:
    if user_id in set(admin_ids):
        return True
    return any(p is not None and (p.manage_guild or p.administrator) for p in permissions)


def interaction_is_admin(interaction: discord.Interaction[Any], admin_ids: Iterable[int]) -> bool:
    """The interaction carries the member's resolved permissions; a cached Member adds its roles'."""
    sources: list[discord.Permissions | None] = []
    if interaction.guild_id is not None:
        sources.append(interaction.permissions)
        if isinstance(interaction.user, discord.Member):
            sources.append(interaction.user.guild_permissions)
    return is_admin(interaction.user.id, sources, admin_ids)
