"""End-to-end tests: an unmodified discord.py client talking to FakeDiscord over real sockets."""

from __future__ import annotations

import asyncio
import contextlib
import json
import zlib
from collections.abc import AsyncIterator

import aiohttp
import discord
import pytest
import pytest_asyncio
from discord import app_commands
from discord.ext import commands

from .server import FakeDiscord

# Explicit so the file also runs under asyncio_mode=strict.
pytestmark = pytest.mark.asyncio

HEARTBEAT_MS = 250
# discord.py waits this long after the last GUILD_CREATE before firing on_ready (default 2 s).
GUILD_READY_TIMEOUT = 0.05


def _intents(message_content: bool = True) -> discord.Intents:
    intents = discord.Intents.default()
    intents.message_content = message_content
    return intents


@pytest_asyncio.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord(heartbeat_interval_ms=HEARTBEAT_MS)
    await server.start()
    try:
        with server.patch_discord():
            yield server
    finally:
        await server.stop()


@contextlib.asynccontextmanager
async def running(client: discord.Client, fake: FakeDiscord, timeout: float = 5.0) -> AsyncIterator[discord.Client]:
    """Run ``client`` against the fake until the block exits; fail fast if login/connect fails."""
    await client.login(fake.token)  # what client.start() does first; raises LoginFailure here
    task = asyncio.create_task(client.connect())
    ready = asyncio.ensure_future(client.wait_until_ready())
    try:
        await asyncio.wait({task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if task.done():
            task.result()  # re-raise ConnectionClosed & co.
            raise AssertionError("client stopped before becoming ready")
        if not ready.done():
            raise AssertionError(f"client not ready within {timeout}s")
        yield client
    finally:
        ready.cancel()
        await client.close()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, timeout=5.0)


def _bot(**kwargs: object) -> commands.Bot:
    return commands.Bot(
        command_prefix=commands.when_mentioned,
        intents=_intents(),
        guild_ready_timeout=GUILD_READY_TIMEOUT,
        **kwargs,  # type: ignore[arg-type]
    )


async def test_connect_ready_guild_available(fake: FakeDiscord) -> None:
    client = discord.Client(intents=_intents(), guild_ready_timeout=GUILD_READY_TIMEOUT)
    async with running(client, fake):
        guild = client.get_guild(fake.guild_id)
        assert guild is not None and not guild.unavailable
        channel = client.get_channel(fake.channel_id)
        assert isinstance(channel, discord.TextChannel) and channel.name == "general"
        assert guild.me is not None and guild.me.guild_permissions.administrator
        assert client.user is not None and client.user.id == fake.bot_user_id
        assert client.application_id == fake.application_id

        assert fake.intents == client.intents.value
        assert fake.identifies[0]["token"] == fake.token
        assert [c.compressor.name for c in fake.gateway.connections.values()] == ["zlib-stream"]
        assert fake.requests_to("GET", r"/users/@me$")[0].status == 200
        assert fake.requests_to("GET", r"/oauth2/applications/@me$")[0].status == 200
        # Heartbeats are acknowledged, so discord.py measures a finite latency.
        await fake.wait_for(lambda: fake.gateway.heartbeats >= 1)
        await fake.wait_for(lambda: client.latency != float("inf"))


async def test_bad_token_is_rejected_on_rest_and_gateway(fake: FakeDiscord) -> None:
    client = discord.Client(intents=_intents())
    with pytest.raises(discord.LoginFailure):
        await client.login("wrong-token")
    await client.close()
    assert fake.requests_to("GET", r"/users/@me$")[-1].status == 401

    # Raw gateway client: check the zlib-stream framing by hand and the 4004 close.
    async with aiohttp.ClientSession() as session:
        url = f"{fake.gateway_url}?v=10&encoding=json&compress=zlib-stream"
        async with session.ws_connect(url) as ws:
            inflate = zlib.decompressobj()
            hello_frame = await ws.receive_bytes(timeout=2)
            assert hello_frame.endswith(b"\x00\x00\xff\xff")
            hello = json.loads(inflate.decompress(hello_frame))
            assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] == HEARTBEAT_MS
            await ws.send_json({"op": 2, "d": {"token": "nope", "intents": 1, "properties": {}}})
            closing = await ws.receive(timeout=2)
            assert closing.type is aiohttp.WSMsgType.CLOSE
            assert ws.close_code == 4004


async def test_slash_command_defer_then_edit_original(fake: FakeDiscord) -> None:
    bot = _bot()

    @bot.tree.command(name="progress", description="Report progress")
    @app_commands.describe(label="what", loud="shout?")
    async def progress(interaction: discord.Interaction, label: str, loud: bool = False) -> None:
        await interaction.response.defer(thinking=True)
        text = f"{label}: 70.2%"
        await interaction.edit_original_response(content=text.upper() if loud else text)

    async with running(bot, fake):
        synced = await bot.tree.sync()
        stored = fake.store.find_command("progress", None)
        assert stored is not None and synced[0].id == int(stored["id"])
        assert await bot.tree.fetch_commands() and fake.requests_to("PUT", r"/applications/\d+/commands$")

        interaction = await fake.dispatch_slash("progress", {"label": "indexing", "loud": False})
        assert interaction["data"]["options"][1] == {"name": "loud", "type": 5, "value": False}
        edit = await fake.wait_for_request(
            "PATCH", r"/messages/@original$", predicate=lambda r: "70.2%" in (r.content or "")
        )
        assert edit.status == 200 and edit.content == "indexing: 70.2%"

        steps = fake.interaction_responses(interaction)
        assert [(r.method, r.callback_type) for r in steps] == [("POST", 5), ("PATCH", None)]
        assert steps[0].response["interaction"]["response_message_loading"] is True
        original = fake.message(steps[0].response["interaction"]["response_message_id"])
        assert original["content"] == "indexing: 70.2%" and not original["flags"] & 128
        # Non-ephemeral responses are echoed on the gateway like on Discord.
        await fake.wait_for_dispatch("MESSAGE_UPDATE")


async def test_manage_guild_check_uses_member_permissions(fake: FakeDiscord) -> None:
    bot = _bot()

    @bot.tree.command(name="admin", description="Needs Manage Server")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def admin(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("ok", ephemeral=True)

    @admin.error
    async def admin_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await interaction.response.send_message("denied", ephemeral=True)

    async with running(bot, fake):
        await bot.tree.sync()
        allowed = await fake.dispatch_slash("admin", member_permissions=str(1 << 5))
        denied = await fake.dispatch_slash("admin", member_permissions="0")
        ok = await fake.wait_for_interaction_response(allowed, 4)
        no = await fake.wait_for_interaction_response(denied, 4)
        assert ok.payload["content"] == "ok" and ok.payload["flags"] == 64
        assert no.payload["content"] == "denied"
        assert not fake.dispatched("MESSAGE_CREATE")  # ephemeral messages never reach the gateway


async def test_message_reply_has_reference_and_no_pings(fake: FakeDiscord) -> None:
    client = discord.Client(intents=_intents(), guild_ready_timeout=GUILD_READY_TIMEOUT)
    seen: asyncio.Queue[discord.Message] = asyncio.Queue()

    @client.event
    async def on_message(message: discord.Message) -> None:
        await seen.put(message)
        if client.user in message.mentions and message.author != client.user:
            await message.reply(f"pong {message.author.mention}", allowed_mentions=discord.AllowedMentions.none())

    async with running(client, fake):
        sent = await fake.dispatch_message("ping", mention_bot=True)
        assert sent["mentions"][0]["id"] == str(fake.bot_user_id)
        received = await asyncio.wait_for(seen.get(), 2)
        assert received.content == f"{fake.bot_mention} ping" and received.channel.id == fake.channel_id
        assert isinstance(received.author, discord.Member)

        reply = await fake.wait_for_request("POST", rf"/channels/{fake.channel_id}/messages$")
        assert reply.json["message_reference"]["message_id"] == int(sent["id"])
        assert reply.json["allowed_mentions"] == {"parse": []}
        assert reply.response["mentions"] == []  # allowed_mentions respected
        assert reply.response["type"] == 19 and reply.response["referenced_message"]["id"] == sent["id"]

        # The bot's own message comes back as MESSAGE_CREATE.
        echoed = await asyncio.wait_for(seen.get(), 2)
        assert echoed.author == client.user and echoed.reference is not None
        assert echoed.reference.message_id == int(sent["id"])

        # User uploads are served from the fake's /cdn route, so Attachment.read() works.
        await fake.dispatch_message("see file", files={"notes.txt": b"hello"})
        with_file = await asyncio.wait_for(seen.get(), 2)
        assert await with_file.attachments[0].read() == b"hello"


async def test_without_message_content_intent_content_is_hidden(fake: FakeDiscord) -> None:
    client = discord.Client(intents=_intents(message_content=False), guild_ready_timeout=GUILD_READY_TIMEOUT)
    seen: asyncio.Queue[discord.Message] = asyncio.Queue()
    client.on_message = seen.put  # type: ignore[attr-defined]

    async with running(client, fake):
        await fake.dispatch_message("secret")
        await fake.dispatch_message("hello bot", mention_bot=True)
        assert (await asyncio.wait_for(seen.get(), 2)).content == ""
        assert (await asyncio.wait_for(seen.get(), 2)).content.endswith("hello bot")


async def test_component_click_callbacks(fake: FakeDiscord) -> None:
    client = discord.Client(intents=_intents(), guild_ready_timeout=GUILD_READY_TIMEOUT)

    class Buttons(discord.ui.View):
        @discord.ui.button(label="Ack", custom_id="ack")
        async def ack(self, interaction: discord.Interaction, button: discord.ui.Button[Buttons]) -> None:
            await interaction.response.defer()  # type 6

        @discord.ui.button(label="Bump", custom_id="bump")
        async def bump(self, interaction: discord.Interaction, button: discord.ui.Button[Buttons]) -> None:
            await interaction.response.edit_message(content="bumped")  # type 7

    async with running(client, fake):
        channel = client.get_channel(fake.channel_id)
        assert isinstance(channel, discord.TextChannel)
        message = await channel.send("pick one", view=Buttons(timeout=None))

        click = await fake.dispatch_component(message.id, "ack")
        assert (await fake.wait_for_interaction_response(click, 6)).status == 200

        click = await fake.dispatch_component(message.id, "bump", user="bob")
        update = await fake.wait_for_interaction_response(click, 7)
        assert update.response["resource"]["message"]["content"] == "bumped"
        assert fake.message(message.id)["content"] == "bumped"
        assert (await fake.wait_for_dispatch("MESSAGE_UPDATE")).data["id"] == str(message.id)


async def test_rate_limited_original_edit_is_retried(fake: FakeDiscord) -> None:
    bot = _bot()

    @bot.tree.command(name="slow", description="Defers then edits")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content="done")

    async with running(bot, fake):
        await bot.tree.sync()
        rule = fake.fail_next("PATCH", r"/webhooks/\d+/[^/]+/messages/@original$", 429, retry_after=0.3)
        interaction = await fake.dispatch_slash("slow")
        done = await fake.wait_for_request("PATCH", r"/messages/@original$", status=200)
        assert done.content == "done" and rule.hits == 1
        limited, retried = [r for r in fake.interaction_responses(interaction) if r.method == "PATCH"]
        assert limited.status == 429 and limited.injected and limited.response["retry_after"] == 0.3
        assert retried is done and retried.t - limited.t >= 0.25


class _NoIdentifyDelayClient(discord.Client):
    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        # discord.py sleeps 5 s before every non-initial IDENTIFY (identify rate limit).
        return None


async def test_reconnect_and_dropped_socket_resume(fake: FakeDiscord) -> None:
    client = _NoIdentifyDelayClient(intents=_intents(), guild_ready_timeout=GUILD_READY_TIMEOUT)
    seen: asyncio.Queue[discord.Message] = asyncio.Queue()
    client.on_message = seen.put  # type: ignore[attr-defined]

    async with running(client, fake):
        session_id = fake.sessions[0].id

        assert await fake.send_reconnect() == 1  # op 7
        await fake.wait_for_resume(1)
        await fake.dispatch_message("after reconnect")
        assert (await asyncio.wait_for(seen.get(), 2)).content == "after reconnect"

        assert await fake.drop_connections() == 1  # no close frame
        # Sent while the bot is disconnected: buffered in the session and replayed on RESUME.
        await fake.dispatch_message("while dropped")
        await fake.wait_for_resume(2)
        assert (await asyncio.wait_for(seen.get(), 2)).content == "while dropped"

        assert len(fake.identifies) == 1
        assert [r["session_id"] for r in fake.resumes] == [session_id, session_id]

        await fake.invalidate_session(resumable=False)  # op 9 false -> fresh IDENTIFY
        await fake.wait_for_identify(2)
        await fake.wait_for_dispatch("READY", 2)


async def test_unknown_route_is_recorded_as_404(fake: FakeDiscord) -> None:
    client = discord.Client(intents=_intents(), guild_ready_timeout=GUILD_READY_TIMEOUT)
    async with running(client, fake):
        with pytest.raises(discord.NotFound):
            await client.http.request(discord.http.Route("GET", "/not/a/real/route"))
        assert [r.route for r in fake.unknown_routes] == ["/not/a/real/route"]
        assert fake.unknown_routes[0].response == {"message": "404: Not Found", "code": 0}


async def test_threads_followups_and_files(fake: FakeDiscord) -> None:
    bot = _bot()

    @bot.tree.command(name="report", description="Followups after defer")
    async def report(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("first")  # resolves the thinking message
        await interaction.followup.send("second", file=discord.File(__file__, filename="t.py"))

    async with running(bot, fake):
        await bot.tree.sync()
        interaction = await fake.dispatch_slash("report")
        await fake.wait_for(lambda: len(fake.interaction_responses(interaction)) == 3)
        callback, first, second = fake.interaction_responses(interaction)
        original_id = callback.response["interaction"]["response_message_id"]
        assert first.response["id"] == original_id and first.response["content"] == "first"
        assert second.response["id"] != original_id
        assert second.files[0].filename == "t.py" and second.response["attachments"][0]["filename"] == "t.py"

        created: asyncio.Queue[discord.Thread] = asyncio.Queue()
        bot.add_listener(created.put, "on_thread_create")
        channel = bot.get_channel(fake.channel_id)
        assert isinstance(channel, discord.TextChannel)
        starter = await channel.send("thread starter")
        thread = await starter.create_thread(name="discussion")
        assert thread.id == starter.id  # Discord reuses the starter message id
        assert (await asyncio.wait_for(created.get(), 2)).id == thread.id
        assert bot.get_channel(thread.id) is not None
        in_thread = await thread.send("inside")
        assert in_thread.channel.id == thread.id
        assert fake.messages_in(thread.id)[0]["content"] == "inside"


async def test_modal_round_trip(fake: FakeDiscord) -> None:
    bot = _bot()

    class Feedback(discord.ui.Modal, title="Feedback"):
        comment: discord.ui.TextInput[Feedback] = discord.ui.TextInput(label="Comment", custom_id="comment")

        def __init__(self) -> None:
            super().__init__(custom_id="feedback-modal")

        async def on_submit(self, interaction: discord.Interaction) -> None:
            await interaction.response.send_message(f"got {self.comment.value}", ephemeral=True)

    @bot.tree.command(name="feedback", description="Opens a modal")
    async def feedback(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(Feedback())

    async with running(bot, fake):
        await bot.tree.sync()
        opened = await fake.dispatch_slash("feedback")
        await fake.wait_for_interaction_response(opened, 9)
        submitted = await fake.dispatch_modal_submit("feedback-modal", {"comment": "nice"})
        answer = await fake.wait_for_interaction_response(submitted, 4)
        assert answer.payload["content"] == "got nice"


async def test_enforce_nonce_returns_the_earlier_message(fake: FakeDiscord) -> None:
    """As Discord: the same nonce from the same author in the same channel within minutes, with
    enforce_nonce, returns the message already created; without enforce_nonce it creates another."""
    client = discord.Client(intents=_intents(), guild_ready_timeout=GUILD_READY_TIMEOUT)
    async with running(client, fake):
        channel = client.get_channel(fake.channel_id)
        assert isinstance(channel, discord.TextChannel)
        first = await channel.send("once", nonce=4242)  # discord.py adds enforce_nonce to a nonce
        again = await channel.send("once", nonce=4242)
        assert again.id == first.id
        assert fake.requests_to("POST", r"/messages$")[-1].json["enforce_nonce"] is True
        other = await channel.send("once", nonce=4243)
        assert other.id != first.id
        headers = {"Authorization": f"Bot {fake.token}"}
        async with aiohttp.ClientSession() as http:
            url = f"{fake.api_base}/channels/{fake.channel_id}/messages"
            for _ in range(2):
                async with http.post(url, json={"content": "loose", "nonce": "77"}, headers=headers) as response:
                    assert response.status == 200
        assert sum(1 for m in fake.bot_messages() if m["content"] == "loose") == 2
        assert sum(1 for m in fake.bot_messages() if m["content"] == "once") == 2


async def test_a_failure_after_the_request_was_carried_out(fake: FakeDiscord) -> None:
    """``after=True``: the message is created, the client sees a 502 and retries with the same
    nonce (discord.py resends the same body), and gets the stored message back: one message."""
    client = discord.Client(intents=_intents(), guild_ready_timeout=GUILD_READY_TIMEOUT)
    async with running(client, fake):
        channel = client.get_channel(fake.channel_id)
        assert isinstance(channel, discord.TextChannel)
        fake.fail_next("POST", rf"/channels/{fake.channel_id}/messages$", 502, after=True)
        sent = await channel.send("stored despite the 502")
        attempts = fake.requests_to("POST", r"/messages$")
        assert [r.status for r in attempts] == [502, 200] and attempts[0].committed
        assert [m["id"] for m in fake.bot_messages()] == [str(sent.id)]


async def test_an_acknowledgement_whose_response_was_lost_is_already_acknowledged(fake: FakeDiscord) -> None:
    """A 502 after Discord accepted the deferral: discord.py retries, and Discord answers 40060."""
    bot = _bot()
    errors: list[discord.HTTPException] = []

    @bot.tree.command(name="lost", description="Defers once")
    async def lost(interaction: discord.Interaction) -> None:
        try:
            await interaction.response.defer()
        except discord.HTTPException as error:
            errors.append(error)
        await interaction.edit_original_response(content="answered anyway")

    async with running(bot, fake):
        await bot.tree.sync()
        fake.fail_next("POST", r"/interactions/\d+/[^/]+/callback", 502, after=True)
        interaction = await fake.dispatch_slash("lost")
        await fake.wait_for_request("PATCH", r"/messages/@original$", status=200, timeout=10)
        assert [e.code for e in errors] == [40060]
        callbacks = [r for r in fake.interaction_responses(interaction) if r.callback_type is not None]
        assert [r.status for r in callbacks] == [502, 400] and callbacks[0].committed
        assert fake.interaction_state(interaction).callback_type == 5
