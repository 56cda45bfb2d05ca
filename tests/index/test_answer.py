"""Answers on the real index (index/answer.py through Engine.ask): facts, citations that point at
the exact source text, overviews, metadata, abstention, messy input and follow-ups."""

from __future__ import annotations

import re

import pytest

from index import answer as answers
from index.abstain import only_the_subject_matches
from index.chunking import SECTION_SEPARATOR
from index.lexical import tokenize
from index.models import AskResult
from tests.index.support import ARTICLE, line_spans

SOURCE = ARTICLE.read_text(encoding="utf-8")
SWE_ZH = "Composer 2.5 在 SWE-bench Verified 上的成绩是多少？"
SWE_EN = "What is Composer 2.5's SWE-bench Verified score?"
TOP_SECTIONS = [
    "一、传闻是真的",
    "二、怎么「套」的？技术拆解",
    "三、性能怎么样？值不值",
    "四、「套壳」有问题吗？",
    "五、马斯克为什么站台？",
    "六、对行业的启示",
    "结语",
]


LINES = line_spans(SOURCE)


def check_citations(result: AskResult, engine) -> None:  # type: ignore[no-untyped-def]
    """Every citation quotes its source span exactly, names the right paragraphs and chunk,
    and its [n] marker appears in the answer."""
    chunks = {c.chunk_id: c for c in engine.snapshot.stored.chunks}
    assert [c.n for c in result.citations] == list(range(1, len(result.citations) + 1))
    markers = {int(n) for n in re.findall(r"\[(\d+)\]", result.answer)}
    assert markers == {c.n for c in result.citations}
    for cite in result.citations:
        assert cite.doc_id == "composer-2-5"
        assert SOURCE[cite.start : cite.end] == cite.quote
        covered = [n for n, (a, b) in enumerate(LINES, 1) if a < cite.end and b > cite.start]
        assert cite.paragraphs == covered, cite.quote[:40]
        chunk = chunks[cite.chunk_id]
        assert chunk.start <= cite.start < cite.end <= chunk.end
        assert cite.section == chunk.section


@pytest.mark.parametrize(("question", "language"), [(SWE_ZH, "zh"), (SWE_EN, "en")])
def test_benchmark_score(engine, question: str, language: str) -> None:  # type: ignore[no-untyped-def]
    result = engine.ask(question)
    assert not result.abstained and result.kind == "extractive"
    assert result.language == language
    assert "70.2%" in result.answer
    assert result.citations
    assert any("70.2%" in c.quote for c in result.citations)
    assert "70.2%" in result.passages[0].text
    check_citations(result, engine)


@pytest.mark.parametrize("question", ["这篇文章讲了什么？", "summarize the article"])
def test_overview(engine, question: str) -> None:  # type: ignore[no-untyped-def]
    result = engine.ask(question)
    assert result.kind == "overview" and not result.abstained
    for heading in TOP_SECTIONS:
        assert heading in result.answer
    assert len(result.citations) >= len(TOP_SECTIONS)
    check_citations(result, engine)
    cited = {c.chunk_id for c in result.citations}
    assert result.passages and result.passages[0].chunk_id in cited


@pytest.mark.parametrize("question", ["这篇文章是谁写的？", "Who wrote this article?", "Who is Kate?", "Kate 是谁"])
def test_author_and_date(engine, question: str) -> None:  # type: ignore[no-untyped-def]
    result = engine.ask(question)
    assert not result.abstained
    assert "Kate" in result.answer
    assert "2026年5月20日" in result.answer or "2026-05-20" in result.answer
    assert result.citations and 2 in result.citations[0].paragraphs  # the byline line
    check_citations(result, engine)


@pytest.mark.parametrize(
    ("question", "says"),
    [
        ("What is the capital of France?", "doesn't say"),
        ("明天上海会下雨吗？", "没有提到"),
        ("Which GPU should I buy for gaming?", "doesn't say"),  # e5 finds it close; no word of it is there
        ("Give me a 3-day itinerary for Rome", "doesn't say"),  # e5 finds it close; the article never names Rome
        ("GPT-5 什么时候发布？", "没有提到"),  # near the subject, but the article never names GPT-5
    ],
)
def test_off_topic_is_abstained(engine, question: str, says: str) -> None:  # type: ignore[no-untyped-def]
    result = engine.ask(question)
    assert result.abstained and result.kind == "abstained"
    assert result.citations == []
    assert says in result.answer
    sections = {c.section for c in engine.snapshot.stored.chunks}
    assert result.nearest_sections and set(result.nearest_sections) <= sections
    for section in result.nearest_sections:
        assert section in result.answer
    assert not re.search(r"\[\d+\]", result.answer)


@pytest.mark.parametrize(
    "question",
    [
        "\u200bComposer\u200b 2.5 在 SWE-bench Verified 上的成绩是多少？\u200d",
        "**Composer 2.5** 在 _SWE-bench Verified_ 上的 `成绩` 是多少？",
        "```\nComposer 2.5 在 SWE-bench Verified 上的成绩是多少？\n```",
        "   Composer 2.5 在 SWE-bench Verified 上的成绩是多少？？？   \n\n",
    ],
    ids=["zero-width", "markdown", "code-fence", "whitespace"],
)
def test_messy_input_is_answered(engine, question: str) -> None:  # type: ignore[no-untyped-def]
    result = engine.ask(question)
    assert not result.abstained
    assert "70.2%" in result.answer
    assert "\u200b" not in result.question and "`" not in result.question
    check_citations(result, engine)


@pytest.mark.parametrize(
    ("question", "language"),
    [
        ("Quel est le score de Composer 2.5 sur SWE-bench Verified ?", "en"),
        ("Composer 2.5 の SWE-bench Verified のスコアは何ですか？", "ja"),
        ("Composer 2.5의 SWE-bench Verified 점수는?", "ko"),
    ],
)
def test_other_languages_do_not_break(engine, question: str, language: str) -> None:  # type: ignore[no-untyped-def]
    result = engine.ask(question)
    assert result.language == language
    assert result.answer
    check_citations(result, engine)


def test_follow_up_uses_the_previous_question(engine) -> None:  # type: ignore[no-untyped-def]
    result = engine.ask("那价格呢？", context=SWE_ZH)
    assert not result.abstained
    assert "15 美元" in result.answer and "2.50 美元" in result.answer
    assert any("价格" in c.quote for c in result.citations)
    check_citations(result, engine)


# -- the pieces, on the loaded index ---------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "overview", "meta"),
    [
        ("这篇文章讲了什么？", True, False),
        ("总结一下", True, False),
        ("summarize the article", True, False),
        ("What are the main points?", True, False),
        ("tl;dr", True, False),
        ("给我一句话总结这篇文章", True, False),
        ("总结全文", True, False),
        ("Summarize the article in one sentence", True, False),
        ("结语怎么总结 Cursor 的做法", False, False),  # about the conclusion's words on Cursor
        ("这篇文章是谁写的？", False, True),
        ("作者是谁", False, True),
        ("Who wrote this article?", False, True),
        ("When was the article published?", False, True),
        ("What year was the article written?", False, True),
        ("这篇文章是哪年写的", False, True),
        ("文章几月几号发表的？", False, True),
        ("Cursor 是哪一年成立的？", False, False),
        ("What's the headline of this article?", False, True),
        ("Who wrote this piece and when was it published?", False, True),  # two asks, "piece" for the article
        ("Who's the author, and what's the date on it?", False, True),  # the second ask, in other words
        ("who wrote it and when was it dated", False, True),
        ("Who wrote this and what is Muon?", False, False),
        ("When was it published?", False, True),
        ("When was Composer 2.5 published?", False, False),
        ("Who wrote Kimi K2.5?", False, False),
        ("When did it come out?", False, True),
        ("When did Composer 2.5 come out?", False, False),
        ("这篇文章的副标题是什么？", False, True),
        (SWE_ZH, False, False),
        ("Cursor CEO 怎么说的？", False, False),
        ("What did Michael Truell say about the compute?", False, False),
    ],
)
def test_question_kinds(question: str, overview: bool, meta: bool) -> None:
    assert answers.is_overview_question(question) is overview
    assert answers.is_meta_question(question) is meta


TITLE = "Composer 2/2.5 技术拆解与行业启示"


@pytest.mark.parametrize(
    ("question", "meta"),
    [
        ("who wrote this Composer breakdown and when did it come out?", True),  # the title's words name it
        ("Who wrote the Composer 2.5 article?", True),
        ("Who wrote Composer 2.5?", False),  # the model, named without a word for the article
        ("Who wrote Composer 2.5 and when was it published?", False),
        ("这篇 Composer 文章是谁写的？", True),
        ("这篇文章的启示是谁写的？", False),  # a Chinese title's words are content words
    ],
)
def test_meta_question_named_by_its_title(question: str, meta: bool) -> None:
    assert answers.is_meta_question(question, [TITLE]) is meta


@pytest.mark.parametrize(
    ("question", "about_the_author"),
    [
        ("who is kate", True),
        ("介绍一下 Kate", True),
        ("Tell me about Kate.", True),
        ("Kate 对套壳怎么看？", False),  # her view, which the article gives
        ("Who is Michael Truell?", False),
        ("Who is Kate Bush?", False),
    ],
)
def test_author_questions(question: str, about_the_author: bool) -> None:
    assert answers.is_author_question(question, ["Kate", ""]) is about_the_author


@pytest.mark.parametrize(
    "question",
    [
        "Cursor 的 CEO 说了什么？",
        "马斯克说了什么？",
        "What does the article say about pricing?",
        "Who is the author of Kimi K2.5?",
    ],
)
def test_questions_about_a_subject_are_not_answered_with_the_outline(engine, question: str) -> None:  # type: ignore[no-untyped-def]
    result = engine.ask(question)
    assert result.kind != "overview"
    assert "Kate" not in result.answer


def test_table_rows_read_as_header_and_cell(engine) -> None:  # type: ignore[no-untyped-def]
    stored = engine.snapshot.stored
    row = next(s for s in stored.sentences if stored.sentence_text(s).startswith("SWE-bench Verified\t"))
    assert answers.render_sentence(stored, row) == "SWE-bench Verified：Composer 2.5 70.2%（最高 75.6%），对比 显著提升"


def test_a_sentence_pointing_back_at_its_heading_is_answered_with_it(engine) -> None:  # type: ignore[no-untyped-def]
    # "这是 Cursor 真正下功夫的地方。" alone never says which stage "this" is
    stored = engine.snapshot.stored
    sid = next(i for i, s in enumerate(stored.sentences) if stored.sentence_text(s) == "这是 Cursor 真正下功夫的地方。")
    chosen = answers.with_heading(stored, [sid])
    assert chosen == [sid - 1, sid] and stored.sentence_text(stored.sentences[sid - 1]).startswith("阶段二")
    text, citations = answers.compose(stored, chosen, "zh")
    assert "阶段二：大规模强化学习（RL） — 这是 Cursor 真正下功夫的地方。" in text
    assert len(citations) == 1 and citations[0].quote.startswith("阶段二")
    after = sid + 1  # "他们做了三件事：" points at nothing above it
    assert answers.with_heading(stored, [after]) == [after]


def test_top_level_headings_are_never_answer_sentences(engine) -> None:  # type: ignore[no-untyped-def]
    stored = engine.snapshot.stored
    heading_lines = {(a, b) for a, b in LINES if SOURCE[a:b] in TOP_SECTIONS}
    assert len(heading_lines) == len(TOP_SECTIONS)
    inside = [
        sid for sid, s in enumerate(stored.sentences) if any(a <= s.start and s.end <= b for a, b in heading_lines)
    ]
    assert len(inside) >= len(TOP_SECTIONS)
    for sid in inside:
        assert answers.is_heading(stored, sid), stored.sentence_text(stored.sentences[sid])
    sub = next(
        sid
        for sid, s in enumerate(stored.sentences)
        if stored.sentence_text(s) == "第一，开源模型的威力正在被重新定义。"
    )
    assert not answers.is_heading(stored, sub)  # a sub-heading that makes a statement


def test_sub_headings_that_are_titles_are_never_answer_sentences(engine) -> None:  # type: ignore[no-untyped-def]
    stored = engine.snapshot.stored
    titles = [
        sid
        for sid, s in enumerate(stored.sentences)
        if stored.sentence_text(s) in ("阶段一：继续预训练（Continued Pretraining）", "阶段二：大规模强化学习（RL）")
    ]
    assert len(titles) == 2
    assert all(answers.is_heading(stored, sid) for sid in titles)
    result = engine.ask("阶段一继续预训练的目的是什么？")
    assert "阶段一" not in result.answer.split("[")[0] and "加深模型对代码的理解" in result.answer


def test_abstain_text() -> None:
    sections = ["三、性能怎么样？值不值", f"二、技术拆解{SECTION_SEPARATOR}阶段二"]
    zh = answers.abstain_text("zh", sections)
    assert zh.startswith("文章没有提到") and all(s in zh for s in sections)
    en = answers.abstain_text("en", [])
    assert "doesn't say" in en and "Nearest" not in en
    assert "never mentions Bitcoin" in answers.abstain_text("en", sections, unmentioned=("Bitcoin",))
    assert "没有出现 GPT-5、Python" in answers.abstain_text("zh", sections, unmentioned=("GPT-5", "Python"))


@pytest.mark.parametrize(
    ("question", "says"),
    [("What is the price of Bitcoin today?", "never mentions Bitcoin"), ("GPT-5 什么时候发布？", "没有出现 GPT-5")],
)
def test_a_decline_names_what_the_article_never_mentions(engine, question: str, says: str) -> None:  # type: ignore[no-untyped-def]
    result = engine.ask(question)
    assert result.abstained and says in result.answer


def _sentence_id(stored, text: str) -> int:  # type: ignore[no-untyped-def]
    return next(sid for sid, s in enumerate(stored.sentences) if stored.sentence_text(s) == text)


def test_a_short_last_sentence_does_not_pull_in_the_next_passage(engine) -> None:  # type: ignore[no-untyped-def]
    """'…Agent 能力越强。' ends its passage; the next one opens with the heading 阶段二：… , which
    would be quoted and cited for nothing."""
    stored = engine.snapshot.stored
    best = next(
        sid
        for sid, s in enumerate(stored.sentences)
        if stored.sentence_text(s).endswith("基础模型知识越好，Agent 能力越强。")
    )
    assert stored.sentences[best + 1].chunk != stored.sentences[best].chunk
    ranked = [answers.ScoredSentence(best, 1.0, 0)]
    assert answers.pick_sentences(stored, ranked, answers.AnswerParams()) == [best]


def test_a_lead_in_is_finished_by_the_next_sentence_even_across_passages(engine) -> None:  # type: ignore[no-untyped-def]
    stored = engine.snapshot.stored
    lead = next(sid for sid, s in enumerate(stored.sentences) if stored.sentence_text(s).endswith("提了个醒："))
    point = _sentence_id(stored, "第一，开源模型的威力正在被重新定义。")
    ranked = [answers.ScoredSentence(lead, 1.0, 0)]
    assert answers.pick_sentences(stored, ranked, answers.AnswerParams()) == [lead, point]


def test_a_short_sentence_is_not_extended_by_a_lead_in_left_dangling(engine) -> None:  # type: ignore[no-untyped-def]
    """'这种级别的站台，…' is short, but the next sentence, '背后的关系很复杂：', only leads into a list:
    joined alone it would end the answer on a colon."""
    stored = engine.snapshot.stored
    best = _sentence_id(stored, "这种级别的站台，不是普通的「产品推荐」。")
    assert stored.sentence_text(stored.sentences[best + 1]) == "背后的关系很复杂："
    ranked = [answers.ScoredSentence(best, 1.0, 0)]
    assert answers.pick_sentences(stored, ranked, answers.AnswerParams()) == [best]


@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_sentence_ending_in_a_semicolon_is_not_given_another(language: str) -> None:
    joined = answers._join(["这本身没问题；", "但缺乏透明度，有问题。"], language)
    assert joined.count("；") == 1 and ";" not in joined


@pytest.mark.parametrize(
    ("question", "listing"),
    [
        ("文章对行业有哪些启示？", True),
        ("Cursor 的 RL 做了哪三件事？", True),
        ("What are Musk's ties to Cursor?", True),
        ("What lessons does the article draw for the industry?", True),
        ("行业启示第一条是啥", False),
        ("What is Composer 2.5's SWE-bench Verified score?", False),
        ("What benchmarks was Composer 2.5 tested on?", True),  # a plural after what/which
        ("Which models does the article name?", True),
        ("What does the article say about pricing?", False),
        ("What was Composer 2's score?", False),
        ("行业启示有几条？", True),  # how many items: the list answers it
        ("How many stages did the training have?", True),
        ("三个启示是什么", True),  # a count and a measure word: got the first lesson alone (make chat)
        ("训练分成了哪两个阶段？", True),
        ("Cursor 用了 3 个月", False),
        ("100 万个 H100", False),
        ("第一个启示是什么", False),
    ],
)
def test_list_questions(question: str, listing: bool) -> None:
    assert answers.is_list_question(question) is listing


@pytest.mark.parametrize("question", ["Give me the three lessons", "讲讲那几个启示"])
def test_a_list_question_naming_its_items_gets_that_list(engine, question: str) -> None:  # type: ignore[no-untyped-def]
    """'the three lessons' is nearer to RL's '他们做了三件事：' than to the lessons' lead-in; the noun
    picks the list whose lead-in or headings use it."""
    result = engine.ask(question)
    for item in ("第一，开源模型", "第二，垂直场景", "第三，透明度"):
        assert item in result.answer
    check_citations(result, engine)


def test_a_list_question_gets_every_item_of_the_list(engine) -> None:  # type: ignore[no-untyped-def]
    subsections = engine.ask("文章对行业有哪些启示？")
    for item in ("第一，开源模型", "第二，垂直场景", "第三，透明度"):
        assert item in subsections.answer
    assert len({c.chunk_id for c in subsections.citations}) == 4  # the lead-in's passage and each sub-section's
    check_citations(subsections, engine)
    # every cited passage is among the passages, even those retrieval ranked below the top k
    assert {c.chunk_id for c in subsections.citations} <= {p.chunk_id for p in subsections.passages}
    assert [p.rank for p in subsections.passages] == list(range(1, engine.settings.top_k + 1))
    bullets = engine.ask("What three things did Cursor do in RL?")
    for item in ("定向 RL", "合成数据规模翻 25 倍", "Muon"):
        assert item in bullets.answer
    assert bullets.answer.count("•") == 3 and len(bullets.citations) == 1
    check_citations(bullets, engine)


@pytest.mark.parametrize(
    "question",
    ["Cursor 的训练分几个阶段？", "What are the stages of training?", "How many stages did Cursor's training have?"],
)
def test_a_list_question_naming_sub_sections_gets_their_headings(engine, question: str) -> None:  # type: ignore[no-untyped-def]
    """No lead-in says "two stages", but the headings 阶段一 / 阶段二 do: each is given with its first
    statement. '训练分几个阶段？' was declined (its best sentence states no number)."""
    result = engine.ask(question)
    assert not result.abstained
    for heading in ("阶段一：继续预训练", "阶段二：大规模强化学习", "用自家的代码数据做了继续预训练"):
        assert heading in result.answer
    assert len({c.chunk_id for c in result.citations}) == 2
    check_citations(result, engine)


def test_a_list_inside_one_sub_section_is_not_replaced_by_the_sub_sections(engine) -> None:  # type: ignore[no-untyped-def]
    result = engine.ask("RL 阶段做了几项工作？")  # names a stage, asks for the RL stage's three things
    assert "他们做了三件事" in result.answer and "阶段一" not in result.answer


def test_a_question_about_one_item_gets_that_item(engine) -> None:  # type: ignore[no-untyped-def]
    result = engine.ask("行业启示第一条是啥")
    assert "第一，开源模型的威力正在被重新定义" in result.answer and "第二" not in result.answer


@pytest.mark.parametrize(
    ("question", "evidence", "asked"),
    [
        ("Composer 2 的价格是多少？", "价格上，Composer 2.5 Fast 版每百万 token 输入 15 美元", "Composer 2"),
        ("When will Composer 3 ship?", "Composer 2.5 基于与 Composer 2 相同的开源检查点构建", "Composer 3"),
        ("What does CursorBench v2 measure?", "CursorBench v3.1：Composer 2.5 63.2%", "CursorBench v2"),
        ("Composer 2 和 2.5 是基于哪个开源模型训练的？", "training of Composer 2, our coding model", None),
        ("Is Composer 2.5 built on the same checkpoint as Composer 2?", "Composer 2.5 基于…Kimi K2.5", None),
        ("Kimi K2.5 的模型 ID 是什么？", "accounts/anysphere/models/kimi-k2p5-rl-0317-s515-fast", None),
        ("H100 有多少张？", "Colossus 2 的 100 万个 H100 等效算力", None),
        ("Kimi K2.5 有多少参数？", "Cursor 用 Kimi K2.5 做出了对标 Claude Opus 4.7 的代码 Agent", None),
    ],
)
def test_version_mismatch(question: str, evidence: str, asked: str | None) -> None:
    mismatch = answers.version_mismatch(question, evidence)
    assert (mismatch.asked if mismatch else None) == asked


def test_sentences_about_another_version_are_no_answer(engine) -> None:  # type: ignore[no-untyped-def]
    result = engine.ask("Composer 2 的输出价格是多少？")
    assert result.abstained and result.citations == []
    assert "Composer 2.5" in result.answer and "不是 Composer 2" in result.answer
    assert not engine.ask("Composer 2.5 Fast 的输出价格是多少？").abstained


def test_the_sentence_with_the_questions_rare_words_joins_the_answer(engine) -> None:  # type: ignore[no-untyped-def]
    stored = engine.snapshot.stored
    ids = {stored.sentence_text(s): i for i, s in enumerate(stored.sentences)}
    best = ids["Cursor CEO Michael Truell 的回应也很有意思。"]
    implied = next(i for text, i in ids.items() if text.startswith("言外之意"))
    assert answers.term_sentence(stored, best, [best], {"言外之意": 3.0, "cursor": 0.1}, 0.15) == implied
    # a sentence that holds only a small share of the weighted terms doesn't join
    assert answers.term_sentence(stored, best, [best], {"言外之意": 0.1, "cursor": 3.0}, 0.15) is None
    result = engine.ask("CEO 的回应有什么言外之意？")
    assert "底座是借的" in result.answer and len(result.citations) == 1
    check_citations(result, engine)


def test_a_joining_sentence_that_only_leads_in_brings_what_it_leads_to(engine) -> None:  # type: ignore[no-untyped-def]
    stored = engine.snapshot.stored
    ids = {stored.sentence_text(s): i for i, s in enumerate(stored.sentences)}
    best = next(i for text, i in ids.items() if text.startswith("于是有用户在论坛里吐槽"))
    lead = next(i for text, i in ids.items() if text.endswith("发现模型 ID 是："))
    model_id = ids["accounts/anysphere/models/kimi-k2p5-rl-0317-s515-fast"]
    ranked = [answers.ScoredSentence(best, 0.1, 0)]
    chosen = answers.pick_sentences(stored, ranked, answers.AnswerParams(), terms={"发现": 2.0, "cursor": 0.1})
    assert chosen == [lead, model_id, best]
    assert answers.pick_sentences(stored, ranked, answers.AnswerParams()) == [best]


@pytest.mark.parametrize(
    ("question", "quantity"),
    [
        ("Kimi K2.5 有多少参数？", True),
        ("Cursor 的 RL 做了几件事？", True),
        ("How many GPUs does xAI have?", True),
        ("How much does the Fast version cost?", True),
        ("训练分成了哪几个阶段？", False),  # which ones, not how many
        ("上下文窗口多大", True),
        ("Kimi K2.5 的上下文有多长？", True),
        ("很多大模型都是开源的吗", False),  # many large models
        ("What did Musk post on X?", False),
        # a share or a factor is a number too
        ("What share of the compute went into RL?", True),
        ("What percentage of the compute was Cursor's own?", True),
        ("By what factor was the synthetic data scaled up?", True),
        ("RL 的算力占比？", True),
        ("Which models share a base with Composer 2?", False),  # share, the verb
    ],
)
def test_quantity_questions(question: str, quantity: bool) -> None:
    assert answers.is_quantity_question(question) is quantity


@pytest.mark.parametrize(
    ("question", "words"),
    [
        ("how big is it?", {"big"}),  # asks for a size: "big" names nothing the article lacks
        ("Composer 2.5 的上下文窗口多大", {"多大"}),
        ("Cursor 一年营收多少？", {"一年"}),  # 多少 is a stopword already; 营收 is what is counted
        ("苹果多少钱一斤？", {"一斤"}),  # per jin: a unit
        ("What did Musk post on X?", set()),
        ("What date did Composer 2.5 come out?", {"date"}),  # asks for the date (dev_more: declined)
        ("Which year was Cursor founded?", {"year"}),
    ],
)
def test_asking_words(question: str, words: set[str]) -> None:
    assert answers.asking_words(question) == words


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("他说 Kimi 打底，自家额外训练+RL 占了 85% 的总算力。", True),
        ("他们做了三件事：", True),
        ("用了 Colossus 2 的一百万个等效算力", True),
        ("既然官方都摊牌了，那我们就来看看 Cursor 到底在 Kimi K2.5 的基础上做了什么。", False),  # K2.5 is a name
        ("毕竟 Kimi K2.5 是一个通用大模型", False),  # 一个 is "a"
        ("H100 等效算力", False),
        ("三元。", True),
        ("这里还有一条暗线：马斯克。", False),
    ],
)
def test_states_a_number(text: str, number: bool) -> None:
    assert answers.states_a_number(text) is number


def test_a_how_many_question_answered_without_a_number_is_declined(engine) -> None:  # type: ignore[no-untyped-def]
    result = engine.ask("Kimi K2.5 的参数量是多少？")
    assert result.abstained and result.citations == []
    assert not engine.ask("Cursor 自家的训练占了多少算力？").abstained  # 85%


def test_a_how_many_question_answered_with_a_number_of_something_else_is_declined(engine) -> None:  # type: ignore[no-untyped-def]
    # 市值 is nowhere in the article; the nearest number is Musk's 600 亿美元 option on Cursor
    assert engine.ask("Cursor 的市值有多少？").abstained
    assert engine.ask("Composer 2.5 的上下文有多长").abstained
    # the same kind of question about what the article has is answered
    assert "85%" in engine.ask("Cursor 自家的训练占了多少算力？").answer
    assert "2.50 美元" in engine.ask("Composer 2.5 Fast 的输出价格是多少？").answer


def test_a_plural_model_name_is_the_name_the_article_writes(engine) -> None:  # type: ignore[no-untyped-def]
    result = engine.ask("How many H100s did they use?")  # was declined: "It never mentions H100s"
    assert not result.abstained and "100 万个 H100" in result.answer


def test_a_how_many_question_takes_its_number_from_a_lower_passage(engine) -> None:  # type: ignore[no-untyped-def]
    # the first passage (继续预训练's 代码数据) states no number; the third has 合成数据规模翻 25 倍
    result = engine.ask("How many times more synthetic data did they use?")
    assert not result.abstained and "25 倍" in result.answer
    # a sentence holding one of the question's two rarer words (训练, not RL) is no answer to it
    assert engine.ask("How long did the RL training take?").abstained


def test_an_answer_comes_from_a_passage_naming_what_was_asked(engine) -> None:  # type: ignore[no-untyped-def]
    # the first passage (第三，透明度…: 被质疑的其实不是「套壳」) doesn't name the CEO; the second, his, answers it
    result = engine.ask("Cursor CEO 是怎么回应套壳质疑的？")
    assert not result.abstained and "Kimi 打底" in result.answer
    check_citations(result, engine)


def test_sentence_stating(engine) -> None:  # type: ignore[no-untyped-def]
    stored = engine.snapshot.stored
    ids = {stored.sentence_text(s): i for i, s in enumerate(stored.sentences)}
    code = next(i for t, i in ids.items() if t.startswith("Cursor 在 Kimi K2.5 的基础上，用自家的代码数据"))
    synthetic = next(i for t, i in ids.items() if "合成数据规模翻 25 倍" in t)
    report = next(i for t, i in ids.items() if t.startswith("Cursor 在 2026 年 3 月 27 日发布的技术报告"))
    ranked = [answers.ScoredSentence(i, 0.3 - n / 10, n) for n, i in enumerate((code, synthetic, report))]
    number = answers.states_a_number
    assert answers.sentence_stating(stored, ranked, _concepts("合成", "数据", "规模"), number) == ranked[1]
    assert answers.sentence_stating(stored, ranked, _concepts("合成", "优化器", "算力"), number) is None  # one of three
    assert answers.sentence_stating(stored, ranked, _concepts("技术", "报告"), answers.states_a_date) == ranked[2]
    # a word and its translations are one concept: training / 训练 / 调教 counted three, and four of
    # the five things asked fell short
    asked = [frozenset({"training", "训练", "调教"}), *_concepts("合成", "数据", "生成"), frozenset({"model"})]
    assert answers.sentence_stating(stored, ranked, asked, number) == ranked[1]


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("On CursorBench, which Anthropic model is Composer 2.5 said to be on par with?", True),
        ("Which company did Cursor team up with for compute?", True),
        ("which version of CursorBench were those numbers from", True),
        ("Composer 2.5 对标的是哪个模型？", True),
        ("Which training stage did Cursor put its effort into?", False),
        ("Who is backing Cursor?", False),  # a person: the article writes 马斯克
    ],
)
def test_questions_that_ask_for_a_name(question: str, asks: bool) -> None:
    assert answers.asks_for_a_name(question) is asks


def test_names_beyond_the_question() -> None:
    names_one = answers.names_beyond("On CursorBench, which model is Composer 2.5 on par with?")
    assert not names_one("光说不练假把式，我们来看看 Composer 2.5 的实际表现。")
    assert names_one("CursorBench v3.1：Composer 2.5 63.2%，对比 Claude Opus 4.7 水平")


def test_a_which_model_question_is_answered_by_a_sentence_naming_one(engine) -> None:  # type: ignore[no-untyped-def]
    # the passage's best sentence (光说不练假把式…) names only what the question does; its table row answers
    result = engine.ask("On CursorBench, which Anthropic model is Composer 2.5 said to be on par with?")
    assert not result.abstained and "Claude Opus 4.7" in result.answer
    check_citations(result, engine)


def _concepts(*words: str) -> list[frozenset[str]]:
    return [frozenset({w}) for w in words]


@pytest.mark.parametrize(
    ("question", "when"),
    [
        ("Cursor 的技术报告是哪天发的？", True),
        ("Cursor 是哪一年成立的？", True),
        ("传统RL什么时候才给奖励", True),
        ("When was Cursor founded?", True),
        ("So when did Musk post?", True),
        ("Composer 2.5 came out when?", True),
        ("What date did the arXiv paper come out?", True),
        ("What kind of feedback does Cursor give when a test fails?", False),  # "when" of a clause
        ("What did the developer find when calling Cursor's model directly?", False),
        ("Composer 2.5 多少钱", False),
    ],
)
def test_when_questions(question: str, when: bool) -> None:
    assert answers.is_when_question(question) is when


@pytest.mark.parametrize(
    ("text", "dated"),
    [
        ("Cursor 在 2026 年 3 月 27 日发布的技术报告中写得明明白白：", True),
        ("Composer 2.5 发布当天，马斯克在 X 上发了一条帖子", True),
        ("传统的 RL 只在任务完成时给奖励", True),  # a clause ending in 时 says when
        ("Released on May 18, it…", True),
        ("马斯克之前还从 Cursor 挖过人", False),
        ("同时，Cursor 也在训练", False),
        ("Cursor 用 Kimi K2.5 训练 Composer 2/2.5", False),
    ],
)
def test_states_a_date(text: str, dated: bool) -> None:
    assert answers.states_a_date(text) is dated


def test_a_when_question_is_answered_with_a_date_or_declined(engine) -> None:  # type: ignore[no-untyped-def]
    # the best passage (第三，透明度…公开技术报告) says no date; the report's own sentence, ranked lower, does
    dated = engine.ask("Cursor 的技术报告是哪天发的？")
    assert not dated.abstained and "3 月 27 日" in dated.answer
    check_citations(dated, engine)
    assert "任务完成时" in engine.ask("When does traditional RL hand out rewards?").answer
    # software "ships": a tech term for 发布 (dev_more2: declined)
    assert "5 月 18 日" in engine.ask("when did Composer 2.5 ship?").answer
    # the article dates no founding, no partnership: these got Musk's 600 亿 option and the Colossus bullet
    for question in ("When was Cursor founded?", "Cursor 是哪一年成立的？", "When did Cursor partner with SpaceX AI?"):
        assert engine.ask(question).abstained, question


def test_a_number_is_looked_for_in_every_passage_retrieved(engine) -> None:  # type: ignore[no-untyped-def]
    """The three passages answers come from state no number for this question; the fourth, the CEO's
    remark, does (85% 的总算力): it answers, rather than a decline."""
    result = engine.ask("How much of the total compute did Cursor's own training use?")
    assert not result.abstained and "85%" in result.answer
    check_citations(result, engine)
    passages = [p.chunk_id for p in result.passages]
    assert passages.index(result.citations[0].chunk_id) >= answers.AnswerParams().passages


def test_poached_finds_the_sentence_that_says_it_in_chinese(engine) -> None:  # type: ignore[no-untyped-def]
    # 挖 is one character, which the dictionary's glosses never give: these got Musk's post or nothing
    for question in ("Who did Musk poach?", "Which Cursor person got poached?", "Who did Musk headhunt?"):
        assert "Arvid Lunnemark" in engine.ask(question).answer, question


def test_a_question_about_a_name_the_article_has_gets_its_mention(engine) -> None:  # type: ignore[no-untyped-def]
    result = engine.ask("Muon 是什么？")  # the article names it once, and explains nothing
    assert not result.abstained and "Muon" in result.answer


def test_an_english_question_quoting_a_chinese_term(engine) -> None:  # type: ignore[no-untyped-def]
    # it was taken for Chinese, and "What" for a name the article lacks: declined
    result = engine.ask("What does 套壳 mean?")
    assert not result.abstained and result.language == "en" and "套壳" in result.answer


def test_only_the_subject_matches(engine) -> None:  # type: ignore[no-untyped-def]
    retriever = engine.snapshot.retriever
    option = "更微妙的是，马斯克 reportedly 握有 600 亿美元收购 Cursor 的优先权。"
    # Cursor is in nearly every passage; 市值 in none
    assert only_the_subject_matches(retriever, tokenize("Cursor 的市值有多少"), option)
    # 马斯克 is in few passages: the answer shares more than the subject
    assert not only_the_subject_matches(retriever, tokenize("马斯克的市值有多少"), option)
    # every word of the question is in the article
    assert not only_the_subject_matches(retriever, tokenize("Cursor 收购多少"), option)
    # more subject words shared than unknown words: "want" alone doesn't make it about something else
    question = "Kimi K2.5 is a general model, but what did Cursor want?"
    said = "毕竟 Kimi K2.5 是一个通用大模型，而 Cursor 要的是「代码Agent」。"
    assert not only_the_subject_matches(retriever, tokenize(question), said)


def test_an_english_date_finds_the_passage_that_writes_it_in_chinese(engine) -> None:  # type: ignore[no-untyped-def]
    """'in May' is searched as '5 月': the release on 5 月 18 日, not a decline for naming 'May'."""
    result = engine.ask("What did Cursor release in May?")
    assert not result.abstained and "5 月 18 日" in result.answer
    assert result.question == "What did Cursor release in May?"  # shown as asked
    check_citations(result, engine)
    assert engine.search("What did Cursor publish on March 27?").passages[0].text.count("3 月 27 日")


@pytest.mark.parametrize(
    "question", ["Composer 2.5 在哪些基准上测试了？", "What benchmarks was Composer 2.5 tested on?"]
)
def test_a_list_question_about_a_table_gets_every_row(engine, question: str) -> None:  # type: ignore[no-untyped-def]
    result = engine.ask(question)
    for row in ("CursorBench v3.1：", "SWE-bench Verified：", "SWE-bench Multilingual："):
        assert row in result.answer
    assert "基准测试" not in result.answer  # the header names the cells; it isn't a row
    check_citations(result, engine)


def test_table_rows_are_those_of_the_table_a_sentence_is_in_or_introduces(engine) -> None:  # type: ignore[no-untyped-def]
    stored = engine.snapshot.stored
    intro = _sentence_id(stored, "光说不练假把式，我们来看看 Composer 2.5 的实际表现。")
    rows = answers._table_rows(stored, intro)
    assert [stored.sentence_text(stored.sentences[r]).split("\t")[0] for r in rows] == [
        "CursorBench v3.1",
        "SWE-bench Verified",
        "SWE-bench Multilingual",
    ]
    assert answers._table_rows(stored, rows[1]) == rows
    assert answers._table_rows(stored, _sentence_id(stored, "这种级别的站台，不是普通的「产品推荐」。")) == []


@pytest.mark.parametrize(
    "question",
    [
        "Why does transparency matter according to the author?",
        "What really happened with the model ID?",
        "What does the author say a user actually wants?",  # declined on its first run (holdout_blind4)
        "What's the author's personal take on model 'wrapping'?",  # declined on its first run (dev_more)
    ],
)
def test_words_that_frame_a_question_are_not_its_subject(engine, question: str) -> None:  # type: ignore[no-untyped-def]
    """'matter' / 'happened' / 'wants' counted as unknown content words halved the question's known
    share, and a weak dense match then got it declined."""
    result = engine.ask(question)
    assert not result.abstained
    check_citations(result, engine)


@pytest.mark.parametrize(
    ("question", "why"),
    [
        ("Why would Musk promote Cursor?", True),
        ("马斯克为什么站台？", True),
        ("How come it's cheap?", True),
        ("What did Musk post?", False),
        ("马斯克发了什么？", False),
    ],
)
def test_why_questions(question: str, why: bool) -> None:
    marker = answers.sought_marker(question)  # a why question seeks a sentence giving a cause
    assert (marker is not None and bool(marker.search("因为"))) is why


def test_a_why_question_is_answered_with_the_reason_its_passage_gives(engine) -> None:  # type: ignore[no-untyped-def]
    # the passage's cosine-best sentences told what Musk holds; the reason came two sentences later
    answer = engine.ask("Why would Musk promote Cursor?")
    assert "这是在为潜在的收购铺路" in answer.answer and len(answer.citations) == 1
    stored = engine.snapshot.stored
    reason = next(i for i, s in enumerate(stored.sentences) if stored.sentence_text(s).startswith("这是在为潜在的收购"))
    ranked = [answers.ScoredSentence(reason - 3, 0.1, 0), answers.ScoredSentence(reason, 0.05, 0)]
    because = answers.sought_marker("Why would Musk promote Cursor?")
    assert because is not None
    assert answers.marked_sentence(stored, ranked, [reason - 3], because) == reason
    assert answers.marked_sentence(stored, ranked, [reason - 3, reason], because) is None  # stated already


@pytest.mark.parametrize(
    ("text", "duration"),
    [
        ("训练了三个月", True),
        ("用了 10 天", True),
        ("took 2 weeks", True),
        ("花了 2 年", True),
        ("翻 25 倍", False),
        ("5 月 18 日", False),
        ("2026 年 3 月 27 日", False),
        ("100 万个 H100", False),
    ],
)
def test_states_a_duration(text: str, duration: bool) -> None:
    assert answers.states_a_duration(text) is duration


def test_a_how_long_did_it_take_question_must_state_a_time() -> None:
    # with the rarer words counted as concepts, "翻 25 倍" (a number, no time) answered one
    assert answers.what_it_must_state("How long did the RL stage take?") is answers.states_a_duration
    assert answers.what_it_must_state("RL 训练花了多久？") is answers.states_a_duration
    assert answers.what_it_must_state("How long is the model ID?") is answers.states_a_number
    assert answers.what_it_must_state("How many GPUs did they use?") is answers.states_a_count
    assert answers.what_it_must_state("How much does Composer 2.5 cost?") is answers.states_a_number


def test_a_how_old_question_must_state_an_age() -> None:
    assert answers.what_it_must_state("how old is he?") is answers.states_an_age
    assert answers.what_it_must_state("Cursor 的 CEO 几岁？") is answers.states_an_age
    assert answers.states_an_age("他今年 32 岁") and answers.states_an_age("a 25-year-old founder")
    assert not answers.states_an_age("自家额外训练+RL 占了 85% 的总算力")


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("他们做了三件事：", True),
        ("用了 Colossus 2 的 100 万个 H100 等效算力", True),
        ("合成数据规模翻 25 倍", True),
        ("a 10x jump", True),
        ("自家额外训练+RL 占了 85% 的总算力", False),
        ("600 亿美元", False),
        ("Kimi K2.5 是一个通用大模型", False),  # 一个 is "a"; K2.5 is a name
    ],
)
def test_states_a_count(text: str, count: bool) -> None:
    assert answers.states_a_count(text) is count


def test_a_how_many_things_question_is_answered_by_a_count(engine) -> None:  # type: ignore[no-untyped-def]
    # the CEO's 85 % is a number but counts nothing; 他们做了三件事 counts under 阶段二's heading (RL)
    result = engine.ask("how many things did they do in RL")
    assert not result.abstained and "三件事" in result.answer
    assert answers.what_it_must_state("这件事给行业带来哪几点启示") is None  # 哪几点 asks which


@pytest.mark.parametrize(
    ("question", "closing"),
    [
        ("What's the one-liner that closes the Musk section?", True),
        ("how does the author wrap up the part on wrapping", True),
        ("What line ends the section on transparency?", True),
        ("What's the first part of training?", False),
        ("When does the RL stage end?", False),
    ],
)
def test_questions_asking_for_a_sections_closing_line(question: str, closing: bool) -> None:
    assert answers.asks_for_closing_line(question) is closing


def test_a_sections_closing_line_is_its_last_sentence(engine) -> None:  # type: ignore[no-untyped-def]
    # the cosine ranked the section's last line below its three bullets
    answer = engine.ask("How does the author wrap up the section about Musk?")
    assert "商业世界，没有无缘无故的爱" in answer.answer and len(answer.citations) == 1
    # asked with few words the article has, it points at a part of the article: not declined (make chat)
    assert "没有无缘无故的爱" in engine.ask("what is the one-liner that closes the Musk section?").answer
    stored = engine.snapshot.stored
    musk = next(i for i, c in enumerate(stored.chunks) if c.section.startswith("五、"))
    last = answers.closing_sentence(stored, musk)
    assert last is not None and stored.sentence_text(stored.sentences[last]) == "商业世界，没有无缘无故的爱。"


def test_an_analogy_question_gets_the_sentence_that_draws_it(engine) -> None:  # type: ignore[no-untyped-def]
    # the cosine chose the CEO's words; the building metaphor is the passage's 言外之意 sentence
    assert answers.sought_marker("Which metaphor sums up what the CEO said?") is not None
    assert answers.sought_marker("作者用了什么比喻？") is not None
    assert answers.sought_marker("What did the CEO say?") is None
    answer = engine.ask("Which metaphor sums up what the CEO said?")
    assert "上面这栋楼是自己盖的" in answer.answer
