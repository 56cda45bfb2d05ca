"""`python -m bot` without a token says how to get one, and exits 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def run_bot(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("BOT_", "ARTICLE_", "DISCORD_"))}
    clean.update(PYTHONPATH=str(REPO), **env)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], cwd=cwd, env=clean, capture_output=True, text=True, timeout=60
    )


def test_without_a_token_it_explains_and_exits_2(tmp_path: Path) -> None:
    done = run_bot(tmp_path)
    assert done.returncode == 2
    err = done.stderr
    assert "DISCORD_TOKEN" in err
    assert "Developer Portal" in err and "developers/applications" in err and "Bot → Reset Token" in err
    assert "`bot`" in err and "`applications.commands`" in err
    for permission in (
        "Send Messages",
        "Send Messages in Threads",
        "Create Public Threads",
        "Embed Links",
        "Read Message History",
    ):
        assert permission in err
    assert "permissions=309237729280" in err
    assert "python -m index ask" in err
    assert "Traceback" not in err


def test_an_empty_token_counts_as_none(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=\n", encoding="utf-8")
    assert run_bot(tmp_path, "run").returncode == 2


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    done = run_bot(tmp_path, "frobnicate")
    assert done.returncode == 2 and "invalid choice" in done.stderr
    assert run_bot(tmp_path, "--help").returncode == 0
