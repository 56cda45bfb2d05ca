"""The client: commands and their localizations, endpoints, intents, and a failed login."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import discord
import pytest
from aiohttp import web

from bot.client import EXTENSIONS, ArticleBot, configure_endpoints, make_intents
from bot.config import BotSettings
from bot.feedback import FeedbackStore
from bot.logs import secrets_of, setup_logging
from bot.runner import serve
from bot.translations import CommandTranslator
from index import EXIT_USAGE

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"
NAME = re.compile(r"^[-_'\w]{1,32}$")
LOCALES = {"zh-CN", "zh-TW", "en-US"}


def settings(engine, tmp_path: Path, **values: object) -> BotSettings:  # type: ignore[no-untyped-def]
    return BotSettings(_env_file=None, index=engine.settings, feedback_db=tmp_path / "f.sqlite3", **values)  # type: ignore[call-arg]


async def test_commands_are_localized_and_ask_has_a_required_question(engine, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    s = settings(engine, tmp_path)
    bot = ArticleBot(s, engine, FeedbackStore(s.feedback_db))
    try:
        for extension in EXTENSIONS:
            await bot.load_extension(extension)
        translator = CommandTranslator()
        payloads = {c.name: await c.get_translated_payload(bot.tree, translator) for c in bot.tree.get_commands()}
    finally:
        await bot.close()
    assert set(payloads) == {"ask", "article", "help", "reindex"}
    ask = payloads["ask"]
    assert ask["name_localizations"] == {"zh-CN": "提问", "zh-TW": "提問", "en-US": "ask"}
    options = {o["name"]: o for o in ask["options"]}
    assert options["question"]["type"] == discord.AppCommandOptionType.string.value
    assert options["question"]["required"] is True
    assert options["ephemeral"]["type"] == discord.AppCommandOptionType.boolean.value
    assert not options["ephemeral"].get("required")
    for payload in payloads.values():
        assert set(payload["name_localizations"]) == LOCALES
        assert set(payload["description_localizations"]) == LOCALES
        assert all(NAME.match(n) and n == n.lower() for n in payload["name_localizations"].values())
        assert all(0 < len(d) <= 100 for d in payload["description_localizations"].values())
        for option in payload.get("options", []):
            assert set(option["name_localizations"]) == LOCALES
            assert set(option["description_localizations"]) == LOCALES


def test_endpoints_and_intents(engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    )
    s = settings(
        engine,
        tmp_path,
        discord_api_base_url="http://127.0.0.1:9/api/v10",
        discord_gateway_url="ws://127.0.0.1:9/gateway",
    )
    configure_endpoints(s)
    route = discord.http.Route(
        "POST",
        "/interactions/{interaction_id}/{interaction_token}/callback",
        interaction_id=1,
        interaction_token="t",
    )
    assert route.url == "http://127.0.0.1:9/api/v10/interactions/1/t/callback"
    assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == "ws://127.0.0.1:9/gateway"
    assert not make_intents(s).message_content  # mentions and DMs don't need it
    assert make_intents(settings(engine, tmp_path, auto_answer_channel_ids="5")).message_content
    bot = ArticleBot(s, engine, FeedbackStore(s.feedback_db))
    assert bot.allowed_mentions is not None and bot.allowed_mentions.to_dict() == {"parse": []}


async def test_a_rejected_token_exits_2_without_logging_it(  # type: ignore[no-untyped-def]
    engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    seen: list[str | None] = []

    async def users_me(request: web.Request) -> web.Response:
        seen.append(request.headers.get("Authorization"))
        return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)

    app = web.Application()
    app.router.add_get("/api/v10/users/@me", users_me)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    s = settings(engine, tmp_path, discord_token=TOKEN, discord_api_base_url=f"http://127.0.0.1:{port}/api/v10")
    handler = setup_logging(logging.DEBUG, secrets_of(TOKEN))
    store = FeedbackStore(s.feedback_db)
    try:
        configure_endpoints(s)
        code = await serve(s, engine, store)
    finally:
        logging.getLogger().removeHandler(handler)
        store.close()
        await runner.cleanup()
    assert code == EXIT_USAGE
    assert seen == [f"Bot {TOKEN}"]  # the configured API base was used
    err = capsys.readouterr().err
    assert "rejected DISCORD_TOKEN" in err
    assert TOKEN not in err and "abcdefghijklmnopqrstuvwxyz0123456789AB" not in err
