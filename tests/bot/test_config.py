"""Settings: environment and .env, lists as commas or JSON, errors that name the field."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import BotSettings, load_bot_settings
from index.config import SettingsError

REPO = Path(__file__).resolve().parents[2]


def test_defaults() -> None:
    settings = load_bot_settings()
    assert settings.token is None
    assert settings.discord_api_base_url == "https://discord.com/api/v10"
    assert settings.discord_gateway_url is None
    assert (settings.cooldown_count, settings.cooldown_seconds, settings.max_question_chars) == (5, 60, 1000)
    assert settings.feedback_db == Path("var/feedback.sqlite3")
    assert settings.allow_dms and not settings.threads and not settings.wants_message_content
    assert settings.index.index_dir == Path("var/index")


def test_environment_names(monkeypatch: pytest.MonkeyPatch) -> None:
    env = {
        "DISCORD_TOKEN": "abc.def.ghi",
        "DISCORD_API_BASE_URL": "http://127.0.0.1:8080/api/v10/",
        "DISCORD_GATEWAY_URL": "ws://127.0.0.1:8080/gateway",
        "BOT_GUILD_IDS": "1, 2,3",
        "BOT_AUTO_ANSWER_CHANNEL_IDS": "[40, 41]",
        "BOT_ALLOWED_CHANNEL_IDS": "40",
        "BOT_ADMIN_USER_IDS": "7",
        "BOT_ALLOW_DMS": "false",
        "BOT_COOLDOWN_COUNT": "3",
        "BOT_COOLDOWN_SECONDS": "30",
        "BOT_MAX_QUESTION_CHARS": "500",
        "BOT_THREADS": "true",
        "BOT_FEEDBACK_DB": "/tmp/x.sqlite3",
        "BOT_POLL_SECONDS": "2",
        "BOT_LOG_LEVEL": "debug",
        "ARTICLE_INDEX_DIR": "/tmp/idx",
    }
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    s = load_bot_settings()
    assert s.token == "abc.def.ghi" and "abc.def.ghi" not in repr(s)
    assert s.discord_api_base_url == "http://127.0.0.1:8080/api/v10"
    assert s.discord_gateway_url == "ws://127.0.0.1:8080/gateway"
    assert s.guild_ids == [1, 2, 3] and s.auto_answer_channel_ids == [40, 41] and s.admin_user_ids == [7]
    assert s.allowed_channel_ids == [40, 41]  # auto-answer channels are allowed by definition
    assert not s.allow_dms and s.threads and s.wants_message_content
    assert (s.cooldown_count, s.cooldown_seconds, s.max_question_chars, s.poll_seconds) == (3, 30, 500, 2)
    assert s.feedback_db == Path("/tmp/x.sqlite3") and s.log_level == "DEBUG"
    assert s.index.index_dir == Path("/tmp/idx")


def test_dotenv_file(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=from-dotenv\nBOT_GUILD_IDS=5\nARTICLE_TOP_K=9\n", encoding="utf-8")
    s = load_bot_settings()  # the tests run in tmp_path
    assert s.token == "from-dotenv" and s.guild_ids == [5] and s.index.top_k == 9


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        ("BOT_COOLDOWN_COUNT", "0", "cooldown_count (BOT_COOLDOWN_COUNT)"),
        ("BOT_GUILD_IDS", "12,abc", "guild_ids (BOT_GUILD_IDS): 'abc' is not a Discord id"),
        ("BOT_ADMIN_USER_IDS", "[1,", "admin_user_ids (BOT_ADMIN_USER_IDS): not a JSON list"),
        ("BOT_MAX_QUESTION_CHARS", "lots", "max_question_chars (BOT_MAX_QUESTION_CHARS)"),
        ("BOT_LOG_LEVEL", "loud", "log_level (BOT_LOG_LEVEL)"),
        (
            "DISCORD_API_BASE_URL",
            "discord.com/api",
            "discord_api_base_url (DISCORD_API_BASE_URL): must start with",
        ),
        (
            "DISCORD_GATEWAY_URL",
            "http://x",
            "discord_gateway_url (DISCORD_GATEWAY_URL): must start with ws://",
        ),
        ("DISCORD_TOKEN", "two words", "discord_token (DISCORD_TOKEN): must not contain spaces"),
        ("ARTICLE_TOP_K", "0", "top_k (ARTICLE_TOP_K)"),
    ],
)
def test_invalid_settings_name_the_field(monkeypatch: pytest.MonkeyPatch, name: str, value: str, expected: str) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError) as error:
        load_bot_settings()
    assert expected in str(error.value)
    assert "two words" not in str(error.value)  # values (a token) are never echoed


def test_invalid_setting_exits_2_with_the_field_named(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BOT_", "ARTICLE_", "DISCORD_"))}
    env.update(BOT_COOLDOWN_SECONDS="-1", PYTHONPATH=str(REPO), DISCORD_TOKEN="x")
    done = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert "cooldown_seconds (BOT_COOLDOWN_SECONDS)" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_model_is_the_one_settings_class() -> None:
    fields = set(BotSettings.model_fields)
    assert {
        "discord_token",
        "discord_api_base_url",
        "discord_gateway_url",
        "guild_ids",
        "auto_answer_channel_ids",
        "allowed_channel_ids",
        "allow_dms",
        "cooldown_count",
        "cooldown_seconds",
        "max_question_chars",
        "admin_user_ids",
        "threads",
        "feedback_db",
        "poll_seconds",
        "log_level",
        "index",
    } <= fields
