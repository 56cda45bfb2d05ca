"""Chunking (index/build/chunking.py) on the real article and on synthetic edge cases.

Every check is made against the source text itself (line numbers, offsets, terminators),
not against the chunker's own helpers."""

from __future__ import annotations

import itertools
import re

import pytest

from index.build.chunking import (
    SECTION_SEPARATOR,
    Kind,
    chunk_document,
    chunk_id_for,
    classify_paragraphs,
    passage_text,
    sentence_spans,
    split_paragraphs,
    title_line,
)
from index.models import Chunk
from tests.index.support import ARTICLE, TITLE, line_spans

SIZES = (100, 220, 450, 900)
DOC_ID = "composer-2-5"
SOURCE = ARTICLE.read_text(encoding="utf-8")

# Characters a chunk may end with (besides the end of a line): sentence terminators and the
# closing quotes/brackets that follow them.
ENDINGS = "。！？；…」』”’）)]》.?!;:："
# Strings that must never be cut by a chunk boundary.
ATOMS = ("70.2%", "63.2%", "73.7%", "1/10", "K2.5", "2.50 美元", "85%", "H100", "SWE-bench")


def _chunks(size: int = 450, overlap: int = 0, text: str = SOURCE):  # type: ignore[no-untyped-def]
    return chunk_document(DOC_ID, text, TITLE, size, overlap)


def _boundaries(chunks) -> set[int]:  # type: ignore[no-untyped-def]
    return {c.start for c in chunks} | {c.end for c in chunks}


@pytest.mark.parametrize("overlap", [0, 1])
@pytest.mark.parametrize("size", SIZES)
def test_chunks_are_exact_spans_with_the_paragraphs_they_cover(size: int, overlap: int) -> None:
    chunks = _chunks(size, overlap)
    lines = line_spans(SOURCE)
    assert chunks
    for chunk in chunks:
        assert SOURCE[chunk.start : chunk.end] == chunk.text
        assert chunk.text == chunk.text.strip()
        covered = [n for n, (a, b) in enumerate(lines, 1) if a < chunk.end and b > chunk.start]
        assert chunk.paragraphs == covered, chunk.text[:40]
        assert chunk.doc_id == DOC_ID
    starts = [c.start for c in chunks]
    assert starts == sorted(starts)


@pytest.mark.parametrize("size", SIZES)
def test_every_line_but_the_end_mark_is_in_a_chunk(size: int) -> None:
    chunks = _chunks(size)
    lines = line_spans(SOURCE)
    in_chunks = {n for c in chunks for n in c.paragraphs}
    missing = [SOURCE[a:b] for n, (a, b) in enumerate(lines, 1) if n not in in_chunks]
    assert missing == ["—— END ——"]
    assert not any("END" in c.text for c in chunks)


def test_paragraph_numbers_are_one_based_over_non_empty_lines() -> None:
    paragraphs = split_paragraphs("\n\n  first line  \n\n\nsecond\n   \nthird")
    assert [(p.number, p.text) for p in paragraphs] == [(1, "first line"), (2, "second"), (3, "third")]
    text = "\n\n  first line  \n\n\nsecond\n   \nthird"
    assert all(text[p.start : p.end] == p.text for p in paragraphs)
    # in the article: paragraph 3 is the first heading, 24 the table header
    numbered = {p.number: p.text for p in split_paragraphs(SOURCE)}
    assert numbered[1] == "——" + TITLE
    assert numbered[2] == "Kate | 2026年5月20日"
    assert numbered[3] == "一、传闻是真的"
    assert numbered[24] == "基准测试\tComposer 2.5\t对比"


@pytest.mark.parametrize("overlap", [0, 1])
@pytest.mark.parametrize("size", SIZES)
def test_no_chunk_starts_or_ends_inside_a_sentence(size: int, overlap: int) -> None:
    for chunk in _chunks(size, overlap):
        before = SOURCE[: chunk.start].rstrip(" ")
        assert chunk.start == 0 or before.endswith(("\n", *ENDINGS)), chunk.text[:30]
        after = SOURCE[chunk.end : chunk.end + 1]
        assert after in ("", "\n") or chunk.text.endswith(tuple(ENDINGS)), chunk.text[-30:]


@pytest.mark.parametrize("overlap", [0, 1])
@pytest.mark.parametrize("size", SIZES)
def test_no_boundary_inside_a_number_a_model_name_or_a_quotation(size: int, overlap: int) -> None:
    cuts = _boundaries(_chunks(size, overlap))
    protected = [(m.start(), m.end()) for atom in ATOMS for m in re.finditer(re.escape(atom), SOURCE)]
    protected += [(m.start(), m.end()) for m in re.finditer(r"『[^』]*』", SOURCE)]
    assert len(protected) > 20
    for start, end in protected:
        inside = [cut for cut in cuts if start < cut < end]
        assert not inside, SOURCE[start:end]


@pytest.mark.parametrize("size", SIZES)
def test_title_and_byline_are_a_chunk_of_their_own(size: int) -> None:
    chunks = _chunks(size)
    first = chunks[0]
    assert first.section == TITLE
    assert first.paragraphs == [1, 2]
    assert first.text == "——" + TITLE + "\n\nKate | 2026年5月20日"
    assert all(c.section != TITLE for c in chunks[1:])


@pytest.mark.parametrize("size", SIZES)
def test_section_paths(size: int) -> None:
    chunks = _chunks(size)
    sections = {c.section for c in chunks}
    assert "二、怎么「套」的？技术拆解 › 阶段二：大规模强化学习（RL）" in sections
    assert "二、怎么「套」的？技术拆解 › 阶段一：继续预训练（Continued Pretraining）" in sections
    assert "六、对行业的启示 › 第一，开源模型的威力正在被重新定义。" in sections
    assert "六、对行业的启示 › 第三，透明度正在变成护城河。" in sections
    assert "结语" in sections
    by_text = {c.text: c.section for c in chunks}
    directed = next(t for t in by_text if "定向 RL（Directed RL）" in t)
    assert by_text[directed] == "二、怎么「套」的？技术拆解 › 阶段二：大规模强化学习（RL）"
    musk = next(t for t in by_text if "这里还有一条暗线" in t)
    assert by_text[musk] == "五、马斯克为什么站台？"
    # a new top-level heading ends the sub-section of the previous one
    table = next(t for t in by_text if "SWE-bench Verified" in t)
    assert by_text[table] == "三、性能怎么样？值不值"
    assert all(len(c.section.split(SECTION_SEPARATOR)) <= 2 for c in chunks)


@pytest.mark.parametrize("size", SIZES)
def test_benchmark_table_stays_in_one_chunk(size: int) -> None:
    rows = [
        "基准测试\tComposer 2.5\t对比",
        "CursorBench v3.1\t63.2%（最高 64.8%）\tClaude Opus 4.7 水平",
        "SWE-bench Verified\t70.2%（最高 75.6%）\t显著提升",
        "SWE-bench Multilingual\t73.7%\t行业顶尖",
    ]
    holders = [c for c in _chunks(size) if rows[0] in c.text]
    assert len(holders) == 1
    assert all(row in holders[0].text for row in rows)


def test_english_quotation_stays_with_its_translation() -> None:
    chunks = _chunks(450)
    report = next(c for c in chunks if "We posted to the arXiv" in c.text)
    assert "翻译过来就是：我们基于开源模型 Kimi K2.5" in report.text
    forum = next(c for c in chunks if "lack of transparency isn’t" in c.text)
    assert "翻译：Composer 2 就是 Kimi K2.5++" in forum.text


@pytest.mark.parametrize("size", SIZES)
def test_ids_are_stable_and_unique(size: int) -> None:
    first, second = _chunks(size), _chunks(size)
    assert [c.chunk_id for c in first] == [c.chunk_id for c in second]
    assert len({c.chunk_id for c in first}) == len(first)
    assert all(re.fullmatch(r"[0-9a-f]{16}", c.chunk_id) for c in first)


def test_ids_depend_on_content_not_position() -> None:
    """Editing one paragraph changes the id of its chunk only (what incremental builds rely on)."""
    edited = SOURCE.replace("这里还有一条暗线：马斯克。", "这里还有一条暗线：马斯克本人。")
    before, after = _chunks(450), _chunks(450, text=edited)
    changed = {c.chunk_id for c in before} ^ {c.chunk_id for c in after}
    assert len(changed) == 2
    assert chunk_id_for(DOC_ID, "a  b\n") == chunk_id_for(DOC_ID, "a b")  # whitespace-normalized
    assert chunk_id_for(DOC_ID, "a b") != chunk_id_for("other-doc", "a b")


def test_identical_texts_still_get_distinct_ids() -> None:
    paragraph = "这是一段会在文档里原样出现好几次的段落内容，足够长所以各自成块。"
    text = "# 标题\n\n" + "\n\n".join([paragraph] * 3) + "\n"
    chunks = chunk_document("dup", text, title="标题", size=40)
    repeated = [c for c in chunks if c.text == paragraph]
    assert len(repeated) == 3
    assert len({c.chunk_id for c in chunks}) == len(chunks)


def test_overlap_repeats_whole_sentences() -> None:
    plain, overlapping = _chunks(100, 0), _chunks(100, 1)
    assert all(a.end <= b.start for a, b in itertools.pairwise(plain))
    overlaps = [(a, b) for a, b in itertools.pairwise(overlapping) if b.start < a.end]
    assert overlaps
    for a, b in overlaps:
        repeated = SOURCE[b.start : a.end]
        assert repeated.endswith(tuple(ENDINGS)), repeated  # a whole sentence (or more) is carried
        assert a.section == b.section


# -- synthetic documents -------------------------------------------------------------------


def test_document_of_only_headings() -> None:
    text = "一、开始\n\n二、中间\n\n三、结束\n"
    chunks = chunk_document("h", text)
    assert [(c.section, c.text, c.paragraphs) for c in chunks] == [
        ("一、开始", "一、开始", [1]),
        ("二、中间", "二、中间", [2]),
        ("三、结束", "三、结束", [3]),
    ]


def test_long_paragraph_without_terminators_is_kept_exactly() -> None:
    long = "没有标点的长段落" * 500
    text = "标题\n\n" + long + "\n"
    chunks = chunk_document("long", text, size=200)
    assert all(text[c.start : c.end] == c.text for c in chunks)
    assert "".join(c.text for c in chunks if c.paragraphs == [2]) == long


@pytest.mark.parametrize(
    "body",
    [
        "没有标点的长段落" * 500,
        "\n".join(f"row {i}\tvalue {i}\tnote {i}" for i in range(300)),
    ],
    ids=["unpunctuated", "table"],
)
def test_chunks_stay_near_the_target_size(body: str) -> None:
    text = "标题\n\n" + body + "\n"
    chunks = chunk_document("long", text, size=200)
    assert max(len(c.text) for c in chunks) <= 2 * 200


BARE = (
    "华沙是波兰的首都和最大城市，位于维斯瓦河畔。\n\n"
    "华沙有一百七十万人口，是欧盟第九大城市。\n\n"
    "华沙的历史可以追溯到十四世纪。\n"
)


@pytest.mark.parametrize("title", ["", "华沙", "华沙是波兰的首都和最大城市"], ids=["none", "sidecar", "in-text"])
def test_a_text_without_a_title_line_is_all_body(title: str) -> None:
    chunks = chunk_document("warsaw", BARE, title, size=40)
    assert [p for c in chunks for p in c.paragraphs] == [1, 2, 3]
    assert {c.section for c in chunks} == {title or "warsaw"}
    assert chunks[0].text == "华沙是波兰的首都和最大城市，位于维斯瓦河畔。"
    assert all(p.kind is Kind.BODY for p in classify_paragraphs(BARE, title))


@pytest.mark.parametrize(
    "text",
    ["华沙\n\n" + BARE, "——华沙\n\n" + BARE, "# 华沙\n\n" + BARE, "# 华沙\n" + BARE],
    ids=["plain", "dashes", "markdown", "markdown-no-blank"],
)
def test_a_title_line_is_the_title(text: str) -> None:
    kinds = [p.kind for p in classify_paragraphs(text, "华沙")]
    assert kinds == [Kind.TITLE, Kind.BODY, Kind.BODY, Kind.BODY]
    assert title_line(text) == "华沙"
    assert chunk_document("warsaw", text, "华沙", size=40)[1].text.startswith("华沙是波兰的首都")


def test_a_byline_opens_the_body_with_or_without_a_title_line() -> None:
    byline = "Kate | 2026年5月20日\n\n"
    for text, first in ((f"标题\n\n{byline}{BARE}", 1), (byline + BARE, 0)):
        kinds = [p.kind for p in classify_paragraphs(text, "标题")]
        assert kinds[first] is Kind.BYLINE and kinds[first + 1 :] == [Kind.BODY] * 3
    dated = "2024年5月，华沙举办了一场展览。\n\n" + BARE  # a sentence with a date is body
    assert classify_paragraphs(dated)[0].kind is Kind.BODY


def test_markdown_headings_make_sections() -> None:
    text = "# Guide\n\n## Setup\n\nInstall it. Then run it.\n\n### Linux\n\nUse apt.\n\nThe end.\n"
    chunks = chunk_document("guide", text, title="Guide")
    assert chunks[0].section == "Guide" and chunks[0].text == "# Guide"
    sections = {c.text.split("\n")[-1]: c.section for c in chunks}
    assert sections["Install it. Then run it."] == "Setup"
    assert sections["The end."] == "Setup › Linux"
    assert all(text[c.start : c.end] == c.text for c in chunks)


def test_markdown_sibling_heading_after_a_deeper_one() -> None:
    text = "# Guide\n\n## Setup\n\nInstall it.\n\n### Linux\n\nUse apt.\n\n## Usage\n\nRun it.\n"
    chunks = chunk_document("guide", text, title="Guide")
    usage = next(c for c in chunks if "Run it." in c.text)
    assert usage.section == "Usage"


def test_crlf_line_endings() -> None:
    text = (
        "——标题\r\n\r\n一、第一节\r\n\r\nFirst line. Second line.\r\n中文句子。第二句。\r\n\r\n"
        "二、第二节\r\n\r\n内容。\r\n"
    )
    chunks = chunk_document("crlf", text, title="标题")
    assert all(text[c.start : c.end] == c.text for c in chunks)
    assert all("\r" not in c.section and not c.text.endswith("\r") for c in chunks)
    assert [c.section for c in chunks] == ["标题", "一、第一节", "二、第二节"]
    assert chunks[1].paragraphs == [2, 3, 4]
    assert [text[s.start : s.end] for s in sentence_spans(chunks[1].text, chunks[1].start)][-2:] == [
        "中文句子。",
        "第二句。",
    ]


def test_ten_megabyte_document() -> None:
    paragraph = "这是第一句话，包含数字 70.2% 和 K2.5。这是第二句话！Then an English one. " * 20
    count = 10_000_000 // len((paragraph + "\n\n").encode())
    text = "大文档\n\n" + "\n\n".join([paragraph.strip()] * count) + "\n"
    assert len(text.encode()) > 9_900_000
    chunks = chunk_document("big", text, size=450)
    assert len(chunks) > count  # every paragraph is longer than the size: split into sentences
    for chunk in chunks[:50] + chunks[-50:]:
        assert text[chunk.start : chunk.end] == chunk.text
    assert chunks[-1].end == len(text.rstrip())


def test_latin_sentences_split_at_a_period_and_space_only() -> None:
    text = "Composer 2.5 scores 70.2% on SWE-bench. It costs 1/10 as much! Is K2.5 open? Yes; it is."
    sentences = [text[s.start : s.end] for s in sentence_spans(text)]
    assert sentences == [
        "Composer 2.5 scores 70.2% on SWE-bench.",
        "It costs 1/10 as much!",
        "Is K2.5 open?",
        "Yes;",
        "it is.",
    ]


def test_abbreviations_do_not_end_a_sentence() -> None:
    text = "Some models, e.g. Kimi K2.5, are open. Others are not."
    sentences = [text[s.start : s.end] for s in sentence_spans(text)]
    assert sentences == ["Some models, e.g. Kimi K2.5, are open.", "Others are not."]


def test_chinese_terminators_inside_quotations_do_not_split() -> None:
    text = "他说：「今天很好。明天也好！」然后离开了。『第一句。第二句。』最后一句？"
    spans = sentence_spans(text, 10)
    assert [text[s.start - 10 : s.end - 10] for s in spans] == [
        "他说：「今天很好。明天也好！」然后离开了。",
        "『第一句。第二句。』最后一句？",
    ]


def _chunk(section: str, text: str) -> Chunk:
    return Chunk(chunk_id="x", doc_id="d", section=section, paragraphs=[1], start=0, end=len(text), text=text)


def test_passage_text_gives_short_passages_their_section() -> None:
    short = _chunk("三、性能 › 价格", "每百万 token 15 美元。")
    assert passage_text(short) == "三、性能 › 价格\n每百万 token 15 美元。"
    assert passage_text(_chunk("三、性能", "三、性能\n\n正文。")) == "三、性能\n\n正文。"  # starts with its heading
