"""Answers as Discord embeds: every limit respected, nothing cut inside a marker or a grapheme."""

from __future__ import annotations

import random
import re

import discord
import pytest
import regex

from bot import formatting
from bot.formatting import (
    CONTENT_LIMIT,
    DESCRIPTION_LIMIT,
    EMBED_TOTAL_LIMIT,
    EMBEDS_PER_MESSAGE,
    FIELD_NAME_LIMIT,
    FIELD_VALUE_LIMIT,
    FIELDS_PER_EMBED,
    TITLE_LIMIT,
    EmbedSpec,
    pack_embeds,
    safe_cut,
    split_text,
    truncate,
)
from index.answer.decline import decline_text
from index.models import AskResult, Citation, SourceInfo

MARKER = re.compile(r"\[\d+\]")
# Clusters that must never be split: ZWJ family, flag, keycap, skin tone, combining accent, Hangul jamo.
CLUSTERS = ["👨‍👩‍👧‍👦", "🇨🇳", "1️⃣", "👍🏽", "e\u0301", "\u1100\u1161\u11a8", "中", "文", "a", " ", "。", "\n"]


def boundaries(text: str) -> set[int]:
    points = {0}
    for match in regex.finditer(r"\X", text):
        points.add(match.end())
    return points


def inside_marker(text: str, cut: int) -> bool:
    return any(m.start() < cut < m.end() for m in MARKER.finditer(text))


def random_text(rng: random.Random, size: int) -> str:
    parts = []
    while sum(map(len, parts)) < size:
        parts.append(f"[{rng.randint(1, 30)}]" if rng.random() < 0.15 else rng.choice(CLUSTERS))
    return "".join(parts)


def check_embed_limits(messages: list[list[discord.Embed]]) -> None:
    assert messages
    for embeds in messages:
        assert 1 <= len(embeds) <= EMBEDS_PER_MESSAGE
        assert sum(len(e) for e in embeds) <= EMBED_TOTAL_LIMIT
        for embed in embeds:
            data = embed.to_dict()
            assert len(data.get("title", "")) <= TITLE_LIMIT
            assert len(data.get("description", "")) <= DESCRIPTION_LIMIT
            fields = data.get("fields", [])
            assert len(fields) <= FIELDS_PER_EMBED
            for field in fields:
                assert 0 < len(field["name"]) <= FIELD_NAME_LIMIT
                assert 0 < len(field["value"]) <= FIELD_VALUE_LIMIT


# -- cutting -------------------------------------------------------------------------------
def test_safe_cut_lands_on_grapheme_boundaries_outside_markers() -> None:
    rng = random.Random(7)
    for _ in range(300):
        text = random_text(rng, rng.randint(1, 200))
        allowed = boundaries(text)
        for limit in range(0, len(text) + 2, 3):
            cut = safe_cut(text, limit)
            assert cut <= max(limit, 0) or cut == len(text) <= limit
            assert cut in allowed, (text, limit, cut)
            assert not inside_marker(text, cut)


def test_safe_cut_is_the_largest_safe_point() -> None:
    text = "答案见 [12] 段"
    assert safe_cut(text, 5) == 4  # "答案见 [" would split the marker: back to before "["
    assert safe_cut(text, 8) == 8  # right after "]"
    assert safe_cut("ab👨‍👩‍👧‍👦cd", 4) == 2  # mid-family: back to before the emoji


def test_truncate_fits_and_marks_the_cut() -> None:
    text = "Composer 2.5 基于 Kimi K2.5 [1][2] 并做了强化学习 👨‍👩‍👧‍👦 更多内容"
    for limit in range(2, len(text)):
        short = truncate(text, limit)
        assert len(short) <= limit
        assert short.endswith("…")
        head = short[:-1].rstrip()
        assert text.startswith(head)
        assert not inside_marker(text, len(head))
        assert len(head) in boundaries(text)
    assert truncate(text, len(text)) == text


@pytest.mark.parametrize("limit", [1, 7, 50, 333, 2000])
def test_split_text_keeps_everything_within_the_limit(limit: int) -> None:
    rng = random.Random(limit)
    text = random_text(rng, 5000)
    pieces = split_text(text, limit)
    assert "".join(pieces) == text
    assert all(pieces)
    position = 0
    allowed = boundaries(text)
    for piece in pieces[:-1]:
        position += len(piece)
        if limit >= 7:  # a 7-code-point family emoji can't fit in fewer
            assert len(piece) <= limit
            assert position in allowed
        assert not inside_marker(text, position) or limit < 4


def test_split_prefers_sentence_and_line_breaks() -> None:
    sentence = "第一句话说的是价格。" * 30 + "\n" + "Second part. " * 40
    pieces = split_text(sentence, 200)
    assert all(len(p) <= 200 for p in pieces)
    assert all(p.endswith(("。", "\n", ".")) for p in pieces[:-1])


def test_marker_at_the_cut_moves_to_the_next_piece() -> None:
    text = "x" * 98 + "[12]" + "y" * 50
    pieces = split_text(text, 100)
    assert pieces[0] == "x" * 98
    assert pieces[1].startswith("[12]")


# -- embeds --------------------------------------------------------------------------------
def make_citation(n: int, quote: str, section: str = "三、性能怎么样？值不值") -> Citation:
    return Citation(
        n=n,
        chunk_id=f"c{n:03d}",
        doc_id="composer-2-5",
        section=section,
        paragraphs=[n, n + 1],
        start=n * 10,
        end=n * 10 + len(quote),
        quote=quote,
    )


SOURCE = SourceInfo(doc_id="composer-2-5", title="Composer 2/2.5 技术拆解与行业启示", author="Kate", date="2026-05-20")


def test_a_huge_answer_with_30_citations_is_split_within_every_limit() -> None:
    rng = random.Random(3)
    body = random_text(rng, 6000)
    markers = "".join(f"[{n}]" for n in range(1, 31))
    result = AskResult(
        question="问" * 300,  # longer than a title may be
        answer=body + " " + markers,
        abstained=False,
        language="zh",
        citations=[make_citation(n, "引文🇨🇳" * 300, section="章节" * 200) for n in range(1, 31)],
        sources=[SOURCE],
    )
    messages = formatting.answer_embeds(result)
    check_embed_limits(messages)
    assert len(messages) >= 2  # 6000+ characters can't fit one message
    embeds = [e for m in messages for e in m]
    # The whole answer is there, in order, split only between embeds.
    description = "".join(e.description or "" for e in embeds)
    assert re.sub(r"\s", "", description) == re.sub(r"\s", "", result.answer)
    # One field per citation, in order, each starting with its marker.
    names = [f.name for e in embeds for f in e.fields]
    assert [n.split(" ")[0] for n in names] == [f"[{n}]" for n in range(1, 31)]
    assert all(name.endswith(f"· ¶{n}–{n + 1}") for n, name in zip(range(1, 31), names, strict=True))
    values = [f.value for e in embeds for f in e.fields]
    assert all(v.endswith("…") and "🇨🇳" in v for v in values)
    for value in values:
        assert len(value[:-1]) in boundaries("引文🇨🇳" * 300)
    assert embeds[0].title is not None and len(embeds[0].title) <= TITLE_LIMIT
    assert embeds[-1].footer.text == "Composer 2/2.5 技术拆解与行业启示 — Kate, 2026-05-20"


def test_a_normal_answer_is_one_embed(engine) -> None:  # type: ignore[no-untyped-def]
    result = engine.ask("Composer 2.5 在 SWE-bench Verified 上的成绩是多少？")
    messages = formatting.answer_embeds(result)
    assert len(messages) == 1 and len(messages[0]) == 1
    embed = messages[0][0]
    assert embed.description == result.answer
    assert embed.title == result.question
    assert [f.name for f in embed.fields] == [formatting.citation_name(c) for c in result.citations]
    assert [f.value for f in embed.fields] == [c.quote for c in result.citations]
    for citation in result.citations:
        assert f"[{citation.n}]" in embed.description
    assert "Composer 2/2.5 技术拆解与行业启示" in embed.footer.text and "Kate" in embed.footer.text


def test_an_abstention_says_so_and_lists_the_nearest_sections() -> None:
    sections = ["三、性能怎么样？值不值", "六、对行业的启示"]
    result = AskResult(
        question="今天上海的天气怎么样？",
        answer=decline_text("zh", sections),
        abstained=True,
        language="zh",
        nearest_sections=sections,
        kind="abstained",
        sources=[SOURCE],
    )
    embed = formatting.answer_embeds(result)[0][0]
    assert embed.description == result.answer
    assert "没有提到" in embed.description
    assert embed.color is not None and embed.color.value == formatting.ABSTAIN_COLOR
    shown = embed.description + "".join(f.value for f in embed.fields)
    assert all(s in shown for s in sections)


def test_abstention_without_sections_in_the_text_gets_a_field() -> None:
    result = AskResult(
        question="天气？",
        answer="文章没有提到这个问题。",
        abstained=True,
        language="zh",
        nearest_sections=["一、传闻是真的", "结语"],
        sources=[SOURCE],
    )
    embed = formatting.answer_embeds(result)[0][0]
    assert embed.fields[0].name == "最接近的章节"
    assert "一、传闻是真的" in embed.fields[0].value and "结语" in embed.fields[0].value


def test_field_budget_moves_fields_to_more_embeds() -> None:
    spec = EmbedSpec(description="d", fields=[(f"[{n}] n", "v" * 1024) for n in range(1, 41)], footer="f" * 500)
    messages = pack_embeds(spec)
    check_embed_limits(messages)
    assert sum(len(e.fields) for m in messages for e in m) == 40
    assert messages[-1][-1].footer.text == truncate("f" * 500, 300)


def test_plain_text_answer_fits_message_content() -> None:
    result = AskResult(
        question="q",
        answer="答" * 2500 + " [1][2]",
        abstained=False,
        language="zh",
        citations=[make_citation(1, "x" * 900), make_citation(2, "y" * 900)],
        sources=[SOURCE],
    )
    contents = formatting.answer_text(result)
    assert all(0 < len(c) <= CONTENT_LIMIT for c in contents)
    joined = "".join(contents)
    assert "[1][2]" in joined and "[1] 三、性能怎么样？值不值" in joined and "Kate" in joined


def test_citation_name_shortens_only_the_section() -> None:
    name = formatting.citation_name(make_citation(12, "q", section="很长的章节" * 100))
    assert len(name) <= FIELD_NAME_LIMIT
    assert name.startswith("[12] ") and name.endswith(" · ¶12–13")
    assert formatting.paragraphs_label([23]) == "¶23"
    assert formatting.paragraphs_label([3, 7]) == "¶3,7"


@pytest.mark.parametrize(
    ("question", "shown"),
    [
        ("\u2066evil\u2069 what does it cost?", "evil what does it cost?"),
        ("\u202eTSOC\u202c 多少钱\u200f？", "TSOC 多少钱？"),
        ("join discord.gg/abc-123 now: what is Composer?", "join [invite] now: what is Composer?"),
        ("https://discord.com/invite/Xy9 price?", "[invite] price?"),
        ("HTTPS://DISCORDAPP.COM/INVITE/q and dsc.gg/z", "[invite] and [invite]"),
        ("Composer 2.5 在 SWE-bench 上多少分？", "Composer 2.5 在 SWE-bench 上多少分？"),
    ],
)
def test_the_question_echoed_in_the_title_has_no_direction_controls_or_invites(question: str, shown: str) -> None:
    result = AskResult(
        question=question, answer="答案。", abstained=True, language="zh", kind="abstained", sources=[SOURCE]
    )
    assert formatting.answer_embeds(result)[0][0].title == shown
    assert formatting.preview_embed(question, "…", "zh").title == shown
