"""A local Discord-compatible server (HTTP API v10 + Gateway) for testing discord.py bots.

Point an unmodified discord.py client at it::

    fake = await FakeDiscord(heartbeat_interval_ms=500).start()
    discord.http.Route.BASE = fake.api_base                                   # DISCORD_API_BASE_URL
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)  # DISCORD_GATEWAY_URL
    # or: with fake.patch_discord(): ...   (sets both and restores them)

then log in with ``fake.token``. Inject traffic with ``dispatch_message`` / ``dispatch_slash`` /
``dispatch_component`` / ``dispatch_modal_submit``, inspect ``fake.requests``, and await
``wait_for_request`` / ``wait_for_interaction_response`` / ``wait_for`` instead of sleeping.
Standalone: ``python -m tests.fakediscord --port N`` (control API under ``/_fake/``).
"""

from ._constants import Callback, Intent, Perm
from ._faults import FaultRule
from ._records import GatewayRecord, RecordedRequest, UploadedFile
from .server import FakeDiscord

__all__ = [
    "Callback",
    "FakeDiscord",
    "FaultRule",
    "GatewayRecord",
    "Intent",
    "Perm",
    "RecordedRequest",
    "UploadedFile",
]
