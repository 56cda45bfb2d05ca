from __future__ import annotations

import discord

from bot.exts.admin._permissions import is_admin


def test_manage_server_or_administrator_is_admin() -> None:
    assert is_admin(1, [discord.Permissions(manage_guild=True)], [])
    assert is_admin(1, [discord.Permissions(administrator=True)], [])
    assert is_admin(1, [None, discord.Permissions(manage_guild=True)], [])


def test_other_permissions_are_not() -> None:
    assert not is_admin(1, [discord.Permissions(manage_messages=True, ban_members=True)], [])
    assert not is_admin(1, [discord.Permissions.none(), None], [2, 3])
    assert not is_admin(1, [], [])


def test_configured_admins_need_no_permissions() -> None:
    assert is_admin(7, [], [7])
    assert is_admin(7, [discord.Permissions.none()], [5, 7])
