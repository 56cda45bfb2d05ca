"""Stopping: SIGTERM while an answer is in flight. Runs last (it stops the shared bot; the launcher
would start a new one for any test after it)."""

from __future__ import annotations

import signal
import time
from pathlib import Path

from tests.e2e.harness import BotUnderTest, assert_never_pings, custom_ids, embed_text

BOT = "shared"  # the module's bot (conftest.py)
VERIFIED_EN = "What is Composer 2.5's score on SWE-bench Verified?"


def test_sigterm_lets_the_answer_in_flight_finish_then_exits_0_with_the_db_closed(bot: BotUnderTest) -> None:
    """Last: stops the module's bot. Delivery is slowed down so SIGTERM lands mid-answer."""
    interaction = bot.slash("ask", {"question": VERIFIED_EN}, user=bot.user("last-asker"))
    bot.callback(interaction, 5)
    bot.fake.rest_latency = 1.0  # the answer's edit now takes a second to go through
    started = time.monotonic()
    bot.proc.send_signal(signal.SIGTERM)
    code = bot.proc.wait(timeout=30)
    elapsed = time.monotonic() - started
    bot.fake.rest_latency = 0.0
    print(f"\nexited with {code} {elapsed:.1f} s after SIGTERM")

    assert code == 0, bot.log_tail()
    assert elapsed < 10, f"took {elapsed:.1f} s to stop"
    log = bot.log()
    assert "SIGTERM received: shutting down" in log
    assert "feedback database closed" in log
    assert "Traceback" not in log, bot.log_tail()
    # Closed cleanly: SQLite checkpoints and removes the write-ahead log when the last connection
    # closes (checked before this test opens the file itself).
    assert not Path(f"{bot.db_path}-wal").exists(), "the database was not closed (WAL left behind)"
    # The answer in flight was delivered and stored before the database was closed.
    edit = bot.edited_original(interaction, timeout=1)
    assert "70.2%" in embed_text(edit.json)
    answer_id = custom_ids(edit.json)[0].split(":")[2]
    assert bot.query("SELECT 1 FROM answers WHERE answer_id = ?", (answer_id,))
    assert bot.query("PRAGMA integrity_check")[0][0] == "ok"
    assert not bot.fake.connected
    assert_never_pings(bot.fake)  # including what was sent while shutting down
