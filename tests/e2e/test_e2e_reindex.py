"""Index updates while the bot runs: /reindex (refused to members without Manage Server), a build
from the command line picked up by the watcher, and a broken build rejected while the old index
keeps answering. The module has its own bot, with its own copies of the corpus and the index (ARTICLE_CORPUS_DIR,
ARTICLE_INDEX_DIR); the tests run in order, each adding one fact to the corpus."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from index import message as phrase
from tests.e2e.harness import (
    EPHEMERAL,
    BotUnderTest,
    assert_never_pings,
    bot_environment,
    embed_text,
)
from tests.fakediscord import Perm

MEMBER = Perm.VIEW_CHANNEL | Perm.SEND_MESSAGES | Perm.READ_MESSAGE_HISTORY
ADMIN = MEMBER | Perm.MANAGE_GUILD
# Facts the article doesn't contain, appended as new paragraphs.
SLASH_FACT = ("Composer 2.5 的内部代号是青鸾七四二一。", "Composer 2.5 的内部代号是什么？", "青鸾七四二一")
CLI_FACT = ("Composer 2.5 的发布口令是赤霄五三零九。", "Composer 2.5 的发布口令是什么？", "赤霄五三零九")
BOT = "reindex"  # the module's bot (conftest.py)


def _current(bot: BotUnderTest) -> str:
    return (bot.index_dir / "CURRENT").read_text(encoding="utf-8").strip()


def _append(bot: BotUnderTest, paragraph: str) -> None:
    (document,) = bot.corpus_dir.glob("*.txt")
    with document.open("a", encoding="utf-8") as handle:
        handle.write(f"\n\n{paragraph}\n")


def _answer(bot: BotUnderTest, question: str, user: str) -> str:
    _, _, edit = bot.ask(question, user=bot.user(user))
    return embed_text(edit.json)


def _versions(bot: BotUnderTest) -> list[str]:
    return sorted(p.name for p in (bot.index_dir / "versions").iterdir())


def test_reindex_is_refused_to_a_member_without_manage_server(bot: BotUnderTest) -> None:
    before = _current(bot)
    versions = _versions(bot)  # one, or two when the seeded developer index was older than the code
    member = bot.user("member", permissions=MEMBER)
    interaction = bot.slash("reindex", user=member, member_permissions=MEMBER)

    response = bot.callback(interaction, 4)
    assert response.payload["flags"] & EPHEMERAL
    assert "Manage Server" in response.payload["content"]
    bot.wait_log("reindex refused")
    assert _current(bot) == before
    assert _versions(bot) == versions  # no build was started


def test_reindex_by_an_admin_serves_the_new_version_without_restart(bot: BotUnderTest) -> None:
    paragraph, question, fact = SLASH_FACT
    before = _current(bot)
    assert fact not in _answer(bot, question, "curious")
    _append(bot, paragraph)

    admin = bot.user("admin", permissions=ADMIN)
    interaction = bot.slash("reindex", user=admin, member_permissions=ADMIN)
    ack = bot.callback(interaction, 5)
    assert ack.json["data"]["flags"] & EPHEMERAL
    # only a rebuild makes /reindex busy (a watcher's poll holding the lock for a moment is waited for)
    second = bot.callback(bot.slash("reindex", user=admin, member_permissions=ADMIN), 4)
    assert second.payload["flags"] & EPHEMERAL
    assert second.payload["content"] in {phrase("admin.busy", "en"), phrase("admin.busy", "zh")}
    done = bot.edited_original(interaction, timeout=180).json["content"]
    version = _current(bot)
    assert version != before
    assert f"now serving `{version}`" in done, done

    assert fact in _answer(bot, question, "curious")
    assert bot.fake.identifies and len(bot.fake.identifies) == 1  # same process, same session


def test_a_command_line_build_is_hot_reloaded(bot: BotUnderTest) -> None:
    paragraph, question, fact = CLI_FACT
    before = _current(bot)
    _append(bot, paragraph)
    env = bot_environment(bot.fake, bot.root, bot.corpus_dir, bot.index_dir)
    build = subprocess.run(
        [
            sys.executable,
            "-m",
            "index",
            "build",
            "--quiet",
            "--index",
            str(bot.index_dir),
            "--corpus",
            str(bot.corpus_dir),
        ],
        cwd=bot.root / "cwd",
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert build.returncode == 0, build.stdout + build.stderr
    version = _current(bot)
    assert version != before

    bot.wait_log(rf"now serving index {re.escape(version)}", timeout=60)
    assert fact in _answer(bot, question, "cli-curious")
    # No one asked for a command-line build: the admin channel (BOT_ADMIN_CHANNEL_ID) is told.
    news = _admin_news(bot, version)
    assert "now served" in news and "已生效" in news


def test_a_broken_build_is_rejected_and_the_old_index_keeps_answering(bot: BotUnderTest) -> None:
    serving = _current(bot)
    broken = "29991231T235959000000Z-broken"
    folder = bot.index_dir / "versions" / broken
    folder.mkdir()
    (folder / "manifest.json").write_text("{ not json", encoding="utf-8")
    pointer = bot.index_dir / ".CURRENT.new"
    pointer.write_text(broken + "\n", encoding="utf-8")
    os.replace(pointer, bot.index_dir / "CURRENT")

    bot.wait_log(rf"index {broken} rejected, still serving {re.escape(serving)}", timeout=60)
    assert CLI_FACT[2] in _answer(bot, CLI_FACT[1], "after-broken")
    assert SLASH_FACT[2] in _answer(bot, SLASH_FACT[1], "after-broken")
    assert bot.log().count(f"index {broken} rejected") == 1, "a broken build is reported once, not every poll"
    news = _admin_news(bot, serving, "rejected")
    assert "manifest" in news and "已拒绝" in news
    assert sum("rejected" in (m.get("content") or "") for m in bot.fake.bot_messages(bot.fake.channel_id)) == 1


def _admin_news(bot: BotUnderTest, *words: str) -> str:
    """The bot's message in the admin channel that contains every one of ``words``."""
    found = bot.wait_until(
        lambda: next(
            (
                m["content"]
                for m in bot.fake.bot_messages(bot.fake.channel_id)
                if all(w in (m.get("content") or "") for w in words)
            ),
            None,
        ),
        what=f"a message in the admin channel with {words}",
    )
    return str(found)


def test_no_message_of_the_module_could_ping(bot: BotUnderTest) -> None:
    assert bot.alive
    assert_never_pings(bot.fake, at_least=6)
