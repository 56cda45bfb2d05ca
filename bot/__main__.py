"""`python -m bot`: run the Discord bot (default), or `feedback --export FILE`.

Exit codes: 0 ok, 1 failure, 2 usage or configuration error (one line, no traceback).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

import discord

from bot.config import BotSettings, load_bot_settings
from bot.lifecycle import abandoned_workers
from bot.logs import secrets_of, setup_logging
from index import EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, SettingsError

log = logging.getLogger("bot")

INVITE_PERMISSIONS = discord.Permissions(
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    read_message_history=True,
)


def no_token_help() -> str:
    return f"""error: DISCORD_TOKEN is not set, so the bot can't log in to Discord.

To get a token and invite the bot:
  1. Developer Portal (https://discord.com/developers/applications) → Applications → New
     Application (or open yours) → Bot → Reset Token, and copy the token.
  2. Put it in the environment or in a .env file in this folder:   DISCORD_TOKEN=<your token>
  3. Invite the bot with an OAuth2 URL (OAuth2 → URL Generator) with the scopes `bot` and
     `applications.commands` and the permissions Send Messages, Send Messages in Threads,
     Create Public Threads, Embed Links, Read Message History:
     https://discord.com/oauth2/authorize?client_id=<APPLICATION_ID>&scope=bot+applications.commands&permissions={INVITE_PERMISSIONS.value}
  4. Run `python -m bot` (or `make run`) again.

No Discord needed to try it: `python -m index ask "这篇文章讲了什么？"` (or `make chat`) answers the
same questions in the terminal."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see --help)\n")


def _parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--log-level",
        default=argparse.SUPPRESS,
        type=str.upper,
        choices=["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"],
        help="default: BOT_LOG_LEVEL or INFO",
    )
    parser = _Parser(
        prog="python -m bot",
        parents=[common],
        description="The Discord bot that answers questions about the article.",
    )
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    sub.add_parser("run", parents=[common], help="run the bot (the default)")
    feedback = sub.add_parser("feedback", parents=[common], help="the 👍/👎 feedback collected")
    feedback.add_argument(
        "--export",
        type=Path,
        required=True,
        metavar="FILE",
        help="write it to FILE: .csv or .jsonl, by the extension",
    )
    feedback.add_argument("--db", type=Path, metavar="PATH", help="the database (default: BOT_FEEDBACK_DB)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        settings = load_bot_settings(log_level=getattr(args, "log_level", None))
    except SettingsError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    if args.command == "feedback":
        return export_feedback(settings, args.export, args.db)
    return run(settings)


def run(settings: BotSettings) -> int:
    if settings.token is None:
        print(no_token_help(), file=sys.stderr)
        return EXIT_USAGE
    setup_logging(settings.log_level_number, secrets_of(settings.token))
    # Imported here: torch and the model load only for `run`, and after logging is set up.
    from bot.client import configure_endpoints
    from bot.feedback import FeedbackStore
    from bot.runner import prepare_engine, serve
    from index import CorpusError, EmbedderError, IndexLoadError

    configure_endpoints(settings)
    try:
        engine = prepare_engine(settings.index)
        store = FeedbackStore(settings.feedback_db)
    except SettingsError as error:  # an invalid LLM_* setting
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except (IndexLoadError, CorpusError, EmbedderError) as error:
        log.error("can't start: %s", error)
        return EXIT_FAILURE
    except (sqlite3.Error, OSError) as error:
        log.error("can't open the feedback database %s: %s", settings.feedback_db, error)
        return EXIT_FAILURE
    except KeyboardInterrupt:
        log.info("interrupted while starting")
        return EXIT_INTERRUPTED
    except Exception:  # logged (through the token filter) rather than a raw traceback
        log.exception("can't start")
        return EXIT_FAILURE
    try:
        code = asyncio.run(serve(settings, engine, store))
    except KeyboardInterrupt:
        log.info("interrupted")
        code = EXIT_INTERRUPTED
    except Exception:
        log.exception("the bot stopped on an unexpected error")
        code = EXIT_FAILURE
    finally:
        store.close()
        log.info("feedback database closed")
    # Everything is saved and closed. Skip the interpreter's finalization: tearing down torch and
    # the model takes seconds, and waits on any rebuild or question abandoned at shutdown.
    left = abandoned_workers()
    if left:
        log.info("leaving %d background computation(s) unfinished", len(left))
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def export_feedback(settings: BotSettings, target: Path, db: Path | None) -> int:
    from bot.feedback import ExportError, FeedbackStore, export_format, write_feedback

    path = db or settings.feedback_db
    try:
        export_format(target)
    except ExportError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    if not path.is_file():
        print(f"error: no feedback database at {path} (set BOT_FEEDBACK_DB or --db)", file=sys.stderr)
        return EXIT_FAILURE
    try:
        store = FeedbackStore(path)
        try:
            rows = store.feedback()
        finally:
            store.close()
        count = write_feedback(rows, target)
    except (sqlite3.Error, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_FAILURE
    print(f"wrote {count} feedback row(s) to {target}")
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
