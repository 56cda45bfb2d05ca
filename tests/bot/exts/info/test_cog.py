"""/article and /help content."""

from __future__ import annotations

from pathlib import Path

from bot import formatting
from bot.client import ArticleBot
from bot.config import BotSettings
from bot.exts.info._cog import article_spec, help_spec
from bot.feedback import FeedbackStore


def test_article_has_title_author_date_and_outline(engine) -> None:  # type: ignore[no-untyped-def]
    stored = engine.snapshot.stored
    for lang in ("zh", "en"):
        spec = article_spec(stored, lang)
        assert spec.title == "Composer 2/2.5 技术拆解与行业启示"
        assert "Kate" in spec.description and "2026-05-20" in spec.description
        # an English reader's outline is translated; its sources name the sections as the article does
        shown = spec.description if lang == "zh" else spec.fields[0][1]
        assert "一、传闻是真的" in shown and "结语" in shown
        # every marker of the outline is listed with its section and paragraph
        sources = spec.fields[0][1].split("\n")
        assert sources and all(line.startswith(f"[{n}] ") and "¶" in line for n, line in enumerate(sources, 1))
        assert all(f"[{n}]" in spec.description for n in range(1, len(sources) + 1))
        messages = formatting.pack_embeds(spec)
        assert len(messages) == 1 and sum(len(e) for e in messages[0]) <= formatting.EMBED_TOTAL_LIMIT


def test_help_is_bilingual_and_reflects_the_settings(engine, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    settings = BotSettings(
        _env_file=None,
        index=engine.settings,
        feedback_db=tmp_path / "f.sqlite3",  # type: ignore[call-arg]
        cooldown_count=3,
        cooldown_seconds=30,
        auto_answer_channel_ids="77",
        threads=True,
    )
    bot = ArticleBot(settings, engine, FeedbackStore(settings.feedback_db))
    engine.snapshot  # noqa: B018 — a running bot has loaded its index (run alone, this test's engine had not)
    spec = help_spec(bot)
    text = spec.description
    assert "/ask" in text and "/article" in text and "/reindex" in text
    assert "提问" in text and "follow-up" in text  # Chinese and English
    assert "3 个问题" in text and "At most 3 questions per 30 s" in text
    assert "<#77>" in text and "thread" in text
    assert spec.title is not None and "Composer 2/2.5" in spec.title
    assert len(formatting.pack_embeds(spec)) == 1
