"""``python -m tests.fakediscord --port N``: run the fake server standalone (e.g. for benchmarks)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys

from .server import FakeDiscord


def _parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tests.fakediscord", description=__doc__)
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0 = pick a free one)")
    parser.add_argument("--token", default="fake-bot-token", help="bot token the server accepts")
    parser.add_argument("--bot-id", type=int, default=1_234_567_890_123_456_789, help="bot user id")
    parser.add_argument("--app-id", type=int, default=None, help="application id (default: bot id)")
    parser.add_argument("--heartbeat-ms", type=int, default=41_250, help="gateway heartbeat interval")
    parser.add_argument("--ack-timeout", type=float, default=3.0, help="interaction callback window in s (<=0: off)")
    parser.add_argument("--no-gateway-log", action="store_true", help="do not keep gateway frames in memory")
    return parser.parse_args(argv)


async def _serve(args: argparse.Namespace) -> None:
    fake = FakeDiscord(
        token=args.token,
        bot_user_id=args.bot_id,
        application_id=args.app_id,
        heartbeat_interval_ms=args.heartbeat_ms,
        interaction_ack_timeout=args.ack_timeout if args.ack_timeout > 0 else None,
        record_gateway=not args.no_gateway_log,
    )
    await fake.start()
    try:
        print(f"FakeDiscord listening on {fake.base_url}")
        for key, value in fake.env().items():
            print(f"{key}={value}")
        print(f"control API: {fake.base_url}/_fake/info")
        # One machine-readable line for harnesses that spawn this process.
        print(
            "FAKEDISCORD_READY "
            + json.dumps({**fake.env(), "guild_id": str(fake.guild_id), "channel_id": str(fake.channel_id)})
        )
        sys.stdout.flush()
        await asyncio.Event().wait()
    finally:
        await fake.stop()


def main(argv: list[str] | None = None) -> None:
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_serve(_parse_args(argv)))


if __name__ == "__main__":
    main()
