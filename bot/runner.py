"""Starting and stopping: the engine (building the index first if there is none), the client,
signals, and what a failed start means for the user."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal

import aiohttp
import discord

from bot.client import ArticleBot
from bot.config import BotSettings
from bot.feedback import FeedbackStore
from index import EXIT_FAILURE, EXIT_OK, EXIT_USAGE, Engine, IndexSettings, load_llm_settings, open_engine

log = logging.getLogger(__name__)

STOP_TIMEOUT = 5.0
RESTART_DELAY, MAX_RESTART_DELAY = 2.0, 60.0


def prepare_engine(settings: IndexSettings) -> Engine:
    """An Engine with the index and the model loaded, by the CLI's start-up path (index.open_engine):
    builds the index first if there is none, and rebuilds one that can't be used (e.g. built for
    another model) rather than not start. Blocking: call before the event loop starts."""
    llm = load_llm_settings()  # LLM_* unset: extractive answers only (a bad value stops the start)
    # warm: the first question shouldn't be the slow one (it asks itself one per language)
    engine = open_engine(settings, llm, report=log.info, rebuild_unusable=True, warm=True)
    log.info("serving index %s (%d chunks)", engine.snapshot.version, len(engine.snapshot.stored.chunks))
    return engine


async def serve(settings: BotSettings, engine: Engine, store: FeedbackStore) -> int:
    """Run until SIGINT/SIGTERM (clean shutdown) or a fatal start error; returns the exit code."""
    token = settings.token
    if token is None:
        raise ValueError("serve() needs a token")
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    signals = (signal.SIGINT, signal.SIGTERM)

    def on_signal(name: str) -> None:
        log.info("%s received: shutting down", name)
        stop.set()
        _remove_handlers(loop, signals)  # a second signal gets the default behaviour: an impatient user wins

    for sig in signals:
        try:
            loop.add_signal_handler(sig, on_signal, sig.name)
        except (NotImplementedError, RuntimeError, ValueError):  # not the main thread, or Windows
            log.debug("can't handle %s here; stop the bot with bot.close()", sig.name)
    try:
        return await _run_until_stopped(ArticleBot(settings, engine, store), token, stop, settings)
    finally:
        _remove_handlers(loop, signals)


def _remove_handlers(loop: asyncio.AbstractEventLoop, signals: tuple[signal.Signals, ...]) -> None:
    for sig in signals:
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.remove_signal_handler(sig)


async def _run_until_stopped(bot: ArticleBot, token: str, stop: asyncio.Event, settings: BotSettings) -> int:
    async with bot:
        try:
            await bot.login(token)  # also runs setup_hook: extensions, command sync
        except Exception as error:
            return _start_failure(error, settings)
        runner = asyncio.create_task(_stay_connected(bot), name="discord-client")
        stopper = asyncio.create_task(stop.wait(), name="stop-signal")
        done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if stopper in done:
            await bot.close()
            try:
                await asyncio.wait_for(runner, timeout=STOP_TIMEOUT)
            except Exception as error:  # already closing: whatever the client raises now is moot
                log.debug("client ended with %s", type(error).__name__)
            log.info("stopped")
            return EXIT_OK
        stopper.cancel()
        error = runner.exception()
    if error is None:
        return EXIT_OK
    return _start_failure(error, settings)


async def _stay_connected(bot: ArticleBot) -> None:
    """discord.py reconnects and resumes by itself after network errors and gateway closes; what
    escapes it is fatal (a rejected token or intent) or unexpected (an event payload it can't
    parse). Fatal errors end the bot; unexpected ones are logged and the connection restarted."""
    delay = RESTART_DELAY
    while not bot.is_closed():
        started = loop_time()
        try:
            await bot.connect(reconnect=True)
            return
        except (discord.LoginFailure, discord.PrivilegedIntentsRequired, discord.ConnectionClosed):
            raise
        except Exception:
            if bot.is_closed():
                return
            if loop_time() - started > 300:
                delay = RESTART_DELAY  # it ran fine for a while: start the backoff afresh
            log.exception("the Discord connection failed unexpectedly; reconnecting in %.0f s", delay)
            await asyncio.sleep(delay)
            delay = min(delay * 2, MAX_RESTART_DELAY)


def loop_time() -> float:
    return asyncio.get_running_loop().time()


def _start_failure(error: BaseException, settings: BotSettings) -> int:
    if isinstance(error, discord.LoginFailure):
        log.error(
            "Discord rejected DISCORD_TOKEN (%s). Reset the token in the Developer Portal "
            "(Applications → your app → Bot → Reset Token) and set DISCORD_TOKEN again.",
            error,
        )
        return EXIT_USAGE
    if isinstance(error, discord.PrivilegedIntentsRequired):
        log.error(
            "Discord refused the message content intent. Enable it in the Developer Portal "
            "(Applications → your app → Bot → Privileged Gateway Intents → Message Content Intent), "
            "or set BOT_MESSAGE_CONTENT=false (auto-answer channels and thread follow-ups then need "
            "a mention)."
        )
        return EXIT_USAGE
    if isinstance(error, discord.ConnectionClosed) and error.code == 4004:
        log.error("the gateway rejected DISCORD_TOKEN (close code 4004); reset the token and set it again")
        return EXIT_USAGE
    if isinstance(error, discord.ConnectionClosed) and error.code in (4013, 4014):
        log.error("the gateway rejected the requested intents (close code %s): %s", error.code, error.reason)
        return EXIT_USAGE
    if isinstance(error, discord.HTTPException | aiohttp.ClientError | OSError | discord.GatewayNotFound):
        log.error("could not connect to Discord at %s: %s", settings.discord_api_base_url, error)
        return EXIT_FAILURE
    log.error("the bot stopped on an unexpected error", exc_info=error)
    return EXIT_FAILURE
