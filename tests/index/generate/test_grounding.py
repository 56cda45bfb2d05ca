"""index/generate/grounding.py, and a generated answer checked before it is shown: wrong answers of the kind
a real 1.5B model wrote, fed through the fake OpenAI-compatible server, end in the English line."""

from __future__ import annotations

import json
import re

import pytest

from index.generate.cut import sentences
from index.generate.grounding import Grounding, grounding_of
from index.generate.settings import LLMSettings
from tests.fakeopenai import FakeOpenAI, Reply
from tests.index.support import REPO

CJK = re.compile(r"[\u3400-\u9fff]")
COMPUTE = "Cursor 还和 SpaceX AI 合作，用了 Colossus 2 的 100 万个 H100 等效算力。"
DATA = "合成数据规模翻 25 倍：用更强的模型生成高难度训练数据，再让 Composer 2.5 在这些数据上训练。"
BUYOUT = "更微妙的是，马斯克 reportedly 握有 600 亿美元收购 Cursor 的优先权。"
RUMOUR = (
    "最近圈子里在传一个消息：Cursor 的新模型 Composer 2 底层其实是用月之暗面（Moonshot）开源的 Kimi K2.5 做的。"
    "我先说结论：传闻属实。"
)

STAGE = "阶段二：大规模强化学习（RL）\n\n这是 Cursor 真正下功夫的地方。他们做了三件事："
REPORT = "Cursor 在 2026 年 3 月 27 日发布的技术报告中写得明明白白：\n『On training Composer 2 on Kimi K2.5.』"
RELEASE = "5 月 18 日 Cursor 发布 Composer 2.5 时，官方博客又重复了一遍。"
TABLE = (
    "基准测试\tComposer 2.5\t对比\nSWE-bench Verified\t70.2%（最高 75.6%）\t显著提升\n"
    "SWE-bench Multilingual\t73.7%\t行业顶尖"
)
SCORES = TABLE.replace("\n", "\nCursorBench v3.1\t63.2%（最高 64.8%）\tClaude Opus 4.7 水平\n", 1)
PRICE = "价格上，Composer 2.5 Fast 版每百万 token 输入 15 美元、输出 2.50 美元。"
SPLIT = "Cursor CEO Michael Truell 的回应也很有意思。他说 Kimi 打底，自家额外训练+RL 占了 85% 的总算力。"
MODEL_ID = "有开发者在 API 里直接看到了模型 ID：accounts/anysphere/models/kimi-k2p5-rl-0317-s515-fast"
# right and wrong answers in many phrasings, written by helpers that saw only the article (blind): the
# dev set shaped the checks; holdout, blind2 and blind3 were read after their first run
# (docs/evaluation.md has those first readings). Floors: the share measured now less one answer. Days said
# relative to an event ("a day after" where the source says 发布当天) are read since 2026-12-06: blind2,
# blind8 and blind11 one wrong answer fewer each. A number said of a name its source sentence gives
# another clause (Kimi 打底，自家额外训练+RL 占了 85%) is refused since: blind3 1 → 0 wrong, blind6, blind8,
# blind11 one fewer each. blind4 (first run 0.72 / 3 wrong)
# asks for what verification doesn't do: numbers derived from the source's (a difference in points,
# a price per thousand, "90% cheaper"); since, an answer's colon binds a label to its value
# ("CursorBench v3.1: 70.2%" is refused) and a bare "half" is a share: 1 wrong (a superlative).
# blind5 (written after those two, first run 0.88 / 2 wrong, the same without them): a meaning
# reversed, a claim the passage doesn't make. blind6 (first run 0.77 / 11 wrong, on this verifier):
# what a lexical check can't see (meanings reversed, roles swapped, claims the passage doesn't make),
# and derived numbers. blind7 (first run 0.83 / 5 wrong, all five wrong in meaning; none of its 28 wrong
# numbers, dates or names accepted). blind8 (first run 0.67 / 8 wrong; 0.755 / 7 once quantities worked out
# of the source's — gaps, totals, ratios, counts — are checked by arithmetic, "2.5-fold" is a number and an
# inflected word opening a sentence ("Sharded") no name;
# its second half, vi-076 on, never read: 0.67 → 0.73, 2 wrong both times). blind10 (first run 0.73 / 17 wrong:
# 15 wrong in meaning — reversed, roles or order swapped — and 2 in a name; no wrong number, date or price).
# blind11 (first run 0.79 / 18 wrong). blind12 (first run 0.86 / 23 wrong of 50: a number of the source
# said of another thing of it; the model's reading refuses one more). What refuses wrong meanings is the
# model's second reading (tests/index/generate/test_judge_llm.py), not these checks. blind13 (first run
# 0.92 / 33 wrong of 50, a number given to another thing its source names; both halves read): 30 wrong;
# since a table's number is said of its column's heading (2026-12-06): blind12 21 → 20, blind13 30 → 27.
# A sentence whose quantities the checks verify needs 0.3 of its words held, not 0.6 (2026-12-07): right
# accepted +79 over the sets above, wrong +1 (blind13). blind17 (2026-12-07, first run on that code; its
# 40 wrong answers half in a quantity, half in meaning with the source's numbers): 72 of 80, 16 wrong,
# none of them wrong in a quantity (65 of 80 on the code before).
VERIFIER_SETS = {
    "verifier_dev.jsonl": (0.97, 0),
    "verifier_holdout.jsonl": (0.98, 0),
    "verifier_blind2.jsonl": (0.92, 1),
    "verifier_blind3.jsonl": (0.95, 1),
    "verifier_blind4.jsonl": (0.90, 2),
    "verifier_blind5.jsonl": (0.92, 3),
    "verifier_blind6.jsonl": (0.93, 10),
    "verifier_blind7.jsonl": (0.90, 4),
    "verifier_blind8.jsonl": (0.86, 6),
    "verifier_blind9.jsonl": (0.87, 4),
    "verifier_blind10.jsonl": (0.78, 18),
    "verifier_blind11.jsonl": (0.82, 17),
    "verifier_blind12.jsonl": (0.90, 21),
    "verifier_blind13.jsonl": (0.96, 29),
    "verifier_blind17.jsonl": (0.88, 17),
}


@pytest.fixture(scope="module")
def grounding(engine) -> Grounding:  # type: ignore[no-untyped-def]
    return grounding_of(engine.snapshot.stored)


@pytest.mark.parametrize(
    ("answer", "source", "problem"),
    [
        ("Cursor used 1 million H100-equivalent GPUs from SpaceX AI's Colossus 2 [1].", COMPUTE, None),
        ("Cursor used 100,000 H100s [1].", COMPUTE, "number not in the cited passages: 100,000"),
        ("Cursor used 100 million H100s [1].", COMPUTE, "number not in the cited passages: 100 million"),
        ("Musk reportedly holds a right of first refusal to acquire Cursor for US$60 billion [1].", BUYOUT, None),
        ("Musk can buy Cursor for $600 billion [1].", BUYOUT, "number not in the cited passages: $600 billion"),
        ("Musk can buy Cursor for 600 dollars [1].", BUYOUT, "number not in the cited passages: 600 dollars"),
        ("Cursor's editor supports Python and JavaScript [1].", RUMOUR, "name not in the cited passages: Python"),
        ("Cursor scaled up its synthetic data 25 times [1].", DATA, None),
        ("Composer 2.5 shipped on the eighteenth of May [1].", RELEASE, None),
        ("Composer 2.5 shipped on the nineteenth of May [1].", RELEASE, "number not in the cited passages: nineteenth"),
        ("Composer 2.5 shipped on May the nineteenth [1].", RELEASE, "number not in the cited passages: nineteenth"),
        ("Composer 2.5 shipped the day Cursor announced it, on the same day [1].", RELEASE, None),
        ("Composer 2.5 shipped the next day [1].", RELEASE, "number not in the cited passages: the next day"),
        ("Composer 2.5's best SWE-bench Verified score was 75.6% [1].", SCORES, None),
        ("Its best CursorBench v3.1 score was 64.8% [1].", SCORES, None),
        ("Its best CursorBench v3.1 score was 75.6% [1].", SCORES, "number not in the cited passages: 75.6%"),
        ("Its highest SWE-bench Verified score was 64.8% [1].", SCORES, "number not in the cited passages: 64.8%"),
        ("It scores 73.7% on SWE-bench Multilingual, with a maximum of 75.6% [1].", TABLE, "number not in the"),
        pytest.param(
            "Composer 2.5 is 25 times larger [1].",
            DATA,
            "number not in the cited passages",
            marks=pytest.mark.xfail(
                strict=True,
                reason="a number said of another subject passes when the passage holds the sentence's words: "
                "the check by the word after a number refused 7 of 88 right blind answers and caught none",
            ),
        ),
        ("Composer 2.5 scored 70.2% on SWE-bench Verified, up to 75.6% at best [1].", TABLE, None),
        ("它在 SWE-bench Verified 上 70.2%，峰值为 75.6%[1]。", TABLE, None),  # a copula after the bound
        ("它在 SWE-bench Verified 上 75.6%，峰值为 70.2%[1]。", TABLE, "number not in the cited passages: 75.6%"),
        ("On SWE-bench Verified it tops out at 75.6% [1].", TABLE, None),
        ("At best it reaches 64.8% on CursorBench v3.1 [1].", SCORES, None),  # an opening bound, no comma
        ("At best it reaches 63.2% on CursorBench v3.1 [1].", SCORES, "number not in the cited passages: 63.2%"),
        ("On SWE-bench Verified it tops out at 70.2% [1].", TABLE, "number not in the cited passages: 70.2%"),
        # a verified quantity anchors a paraphrase the dictionary barely reaches; without one it is refused
        ("Reportedly, Musk has first dibs should anyone buy Cursor, at a price tag of $60 billion [1].", BUYOUT, None),
        ("Musk has first dibs should anyone buy Cursor, at a price tag of $6 billion [1].", BUYOUT, "number"),
        ("Reportedly, Musk has first dibs should anyone buy Cursor [1].", BUYOUT, "sentence not in the cited passages"),
        ("Training data got a twenty-five-fold boost, churned out by a beefier model [1].", DATA, None),
        ("Training data got a boost, churned out by a beefier model [1].", DATA, "sentence not in the cited passages"),
        ("Composer 2.5 scored 70.2% on SWE-bench Verified, and at least 75.6% [1].", TABLE, "number not"),
        ("Composer 2.5 scored 70.2% on SWE-bench Multilingual [1].", TABLE, "number not in the cited passages: 70.2%"),
        ("SWE-bench Verified: 70.2%; SWE-bench Multilingual: 73.7% [1].", TABLE, None),
        ("SWE-bench Multilingual: 70.2%; SWE-bench Verified: 73.7% [1].", TABLE, "number not in the cited passages"),
        ("With Kimi as the base, Cursor's own training and RL took 85% of the total compute [1].", SPLIT, None),
        ("Kimi is the base, and Cursor's own training plus RL took 85% of the compute [1].", SPLIT, None),
        ("Truell 说以 Kimi 打底，自家训练和 RL 占了总算力的 85%[1]。", SPLIT, None),
        ("Michael Truell said the Kimi base accounted for 85% of the total compute [1].", SPLIT, "number not in the"),
        ("Truell 说 Kimi 底座占了总算力的 85%[1]。", SPLIT, "number not in the cited passages: 85% (said of"),
        ("Input costs $15 and output $2.50, per million tokens [1].", PRICE, None),
        ("Input costs $2.50 and output $15, per million tokens [1].", PRICE, "number not in the cited passages: $2.50"),
        ("It scores up to 75.6% on SWE-bench Verified, 5.4 percentage points above its 70.2% [1].", TABLE, None),
        ("Its best is 4.5 points above its 70.2% [1].", TABLE, "number not in the cited passages: 4.5"),
        ("输入价比输出价贵 12.5 美元 [1]。", PRICE, None),
        ("Of its two benchmarks, SWE-bench Multilingual scores higher, at 73.7% [1].", TABLE, None),
        ("Of its three benchmarks, SWE-bench Multilingual scores higher, at 73.7% [1].", TABLE, "number not"),
        # a label fronted in a clause of its own is the number's ("On X, it scored N"); a name the passage
        # writes only in another sentence is another thing (the report's date, not the base model's)
        (
            "On SWE-bench Verified, Composer 2.5 posted 73.7%, while CursorBench v3.1 came in at 63.2% [1].",
            SCORES,
            "number",
        ),
        (
            "On SWE-bench Multilingual, Composer 2.5 posted 73.7%, while CursorBench v3.1 came in at 63.2% [1].",
            SCORES,
            None,
        ),
        (
            "It scores 63.2% (max 64.8%) on CursorBench v3.1 and 70.2% (max 75.6%) on SWE-bench Verified [1].",
            SCORES,
            None,
        ),
        ("Kimi K2.5 came out on March 27, 2026 [1].", REPORT, "number not in the cited passages: March 27"),
        ("Cursor's Composer 2 report was posted on March 27, 2026 [1].", REPORT, None),
        ("Cursor used the model kimi-k2p5-rl-0713-s515-fast [1].", MODEL_ID, "name not in the cited passages: 0713"),
        ("Yes, the rumour is true: Composer 2 is built on Moonshot's Kimi K2.5 [1].", RUMOUR, None),
        ("The rumour came from Moonshot's founder Yang Zhilin [1].", RUMOUR, "name not in the cited passages: Yang"),
        ("Stage 2 is large-scale RL, where Cursor did three things [1].", STAGE, None),  # 阶段二
        ("第二阶段是大规模强化学习，Cursor 做了三件事[1]。", STAGE, None),
        ("Stage 4 is large-scale RL, where Cursor did three things [1].", STAGE, "number not in the cited passages: 4"),
        ("In large-scale RL, Cursor did two things [1].", STAGE, "number not"),  # a count, not 阶段二's position
        ("Cursor 在大规模强化学习阶段做了两件事[1]。", STAGE, "number not"),
        ("In Composer 2's RL, Cursor did three things [1].", f"{STAGE}Composer 2.5", "number not"),  # a version
    ],
)
def test_problems(grounding: Grounding, answer: str, source: str, problem: str | None) -> None:
    found = grounding.first_problem(answer, {1: source})
    assert (found or "").startswith(problem or "") and (found is None) == (problem is None), found


@pytest.mark.parametrize("name", list(VERIFIER_SETS))
def test_right_answers_in_many_phrasings_pass_and_wrong_numbers_never(grounding: Grounding, name: str) -> None:
    rows = [json.loads(line) for line in (REPO / "tests" / "eval" / name).read_text(encoding="utf-8").splitlines()]
    verdicts = [(row, grounding.first_problem(row["answer"], {1: row["source"]})) for row in rows]
    right = [problem is None for row, problem in verdicts if row["right"]]
    accepted_wrong = [row["id"] for row, problem in verdicts if not row["right"] and problem is None]
    print(f"\n{name}: right accepted {sum(right)}/{len(right)}, wrong accepted {len(accepted_wrong)}")
    floor, wrong_allowed = VERIFIER_SETS[name]
    assert len(right) >= 50 and len(verdicts) - len(right) >= 30  # a floor on fewer says little
    assert sum(right) / len(right) >= floor
    assert len(accepted_wrong) <= wrong_allowed, accepted_wrong


# verifier_blind16 (2026-12-07; quantities only, said in many ways, and answers wrong in one quantity):
# its odd rows read first (first run: 37 of 38 right accepted, 0 of 22 wrong; 38 once a verified
# quantity anchors its sentence); the even rows' counts were read once by a run over every set (38 of
# 42, 0 of 18), no row of them listed, and are not asserted
def test_quantities_said_another_way_pass_and_wrong_quantities_never(grounding: Grounding) -> None:
    lines = (REPO / "tests" / "eval" / "verifier_blind16.jsonl").read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines[0::2]]
    verdicts = [(row, grounding.first_problem(row["answer"], {1: row["source"]})) for row in rows]
    right = [problem is None for row, problem in verdicts if row["right"]]
    accepted_wrong = [row["id"] for row, problem in verdicts if not row["right"] and problem is None]
    assert len(right) == 38
    assert sum(right) >= 37 and len(accepted_wrong) <= 1, (sum(right), accepted_wrong)


def test_a_code_glued_to_chinese_is_found(grounding: Grounding) -> None:
    assert grounding.name_supported("MBH99", ["该图表（即MBH99）为基础。"])
    assert not grounding.name_supported("MBH9", ["该图表（即MBH99）为基础。"])


def test_a_name_may_come_through_the_lexicon(grounding: Grounding) -> None:
    assert "Musk" in grounding.names("Cursor said that Musk backs it [1].")
    assert grounding.name_supported("Musk", [BUYOUT])  # 马斯克 → Elon Musk


def test_the_articles_subject_needs_no_naming_in_the_passage(grounding: Grounding) -> None:
    """A passage about Cursor's forum need not write "Cursor" (the article's subject, in nearly every
    passage); Kimi, in some of them, must be written where it is claimed."""
    forum = "这 ID 基本等于「Kimi K2.5 + RL」，连遮都懒得遮。于是有用户在论坛里吐槽：至少把模型 ID 改个名吧？"
    assert grounding.subject == frozenset({"cursor"})
    answer = "The ID amounts to 'Kimi K2.5 + RL', so users on the forum complained that Cursor should rename it [1]."
    assert grounding.first_problem(answer, {1: forum}) is None
    pricing = "价格上，Composer 2.5 Fast 版每百万 token 输入 15 美元、输出 2.50 美元。"
    problem = grounding.first_problem(
        "Kimi sells Composer 2.5 Fast at 15 dollars per million input tokens [1].", {1: pricing}
    )
    assert problem is not None and "Kimi" in problem


def test_a_date_in_chinese_numerals_is_its_date(grounding: Grounding) -> None:
    source = "5 月 18 日 Cursor 发布 Composer 2.5 时，官方博客又重复了一遍："
    assert grounding.first_problem("Cursor 于五月十八日发布了 Composer 2.5 [1]。", {1: source}) is None
    assert grounding.first_problem("Cursor 于五月十九日发布了 Composer 2.5 [1]。", {1: source}) is not None


def test_a_capitalised_common_word_may_come_through_any_sense(grounding: Grounding) -> None:
    source = "马斯克那套「地表最强超算」。"
    assert grounding.name_supported("Earth", [source])  # 地表: "the earth's surface", beside "the surface"
    assert not grounding.name_supported("Mars", [source])


def test_sentence_initial_words_are_no_names(grounding: Grounding) -> None:
    assert grounding.names("The article says so. However, Cursor did [1].") == ["Cursor"]
    # an inflected word is a word too ("sharded" of "shard"); a name inside a sentence stays one
    assert grounding.names("Sharded Muon with dual-mesh HSDP [1].") == ["Muon", "HSDP"]


def test_a_preview_shows_grounded_sentences_only(grounding: Grounding) -> None:
    text = "Cursor used Colossus 2 [1]. It used 100,000 H100s [1]. Then more"
    assert grounding.grounded_prefix(text, {1: COMPUTE}) == "Cursor used Colossus 2 [1]."


# -- through the generator, at the protocol level ---------------------------------------------------
WRONG = [
    ("How many H100 equivalents did Cursor get from SpaceX AI?", "Cursor used 100,000 H100s from Colossus 2 [1]."),
    ("How much would Musk pay to buy Cursor?", "Musk holds the right to acquire Cursor for 600 billion dollars [1]."),
    ("What is Composer 2 built on?", "Composer 2 is built on Kimi K2.5, and Cursor's editor supports Python [1]."),
    ("By how much did Cursor scale up its synthetic data?", "Composer 2.5 is 25 times larger than Composer 2 [1]."),
]


@pytest.fixture(scope="module")
def writer(engine):  # type: ignore[no-untyped-def]
    from index.engine import Engine

    with FakeOpenAI() as fake:
        llm = LLMSettings(base_url=fake.base_url, model="fake-model", timeout=5, deadline=10, passages=2)
        made = Engine(engine.settings, embedder=engine.embedder, llm=llm)
        try:
            yield made, fake
        finally:
            assert made.generator is not None
            made.generator.close()


@pytest.mark.parametrize(("question", "reply"), WRONG)
def test_a_wrong_answer_is_never_shown(writer, question: str, reply: str) -> None:  # type: ignore[no-untyped-def]
    engine, fake = writer
    fake.script(Reply.text(reply, chunk_size=5, chunk_delay=0.01))
    partials: list[str] = []
    result = engine.ask(question, on_partial=partials.append)
    assert result.generator == "extractive" and (result.generation or "").startswith("ungrounded"), result.generation
    opening = result.answer.split("\n")[0]
    assert opening and not CJK.search(opening), opening  # the English line stands
    assert re.search(r"(Quoted|Translated) from the Chinese original", result.answer), result.answer
    wrong = sentences(reply)[-1].split(" [")[0]
    assert all(wrong not in p for p in partials), partials


def test_a_grounded_answer_is_shown_as_it_streams(writer) -> None:  # type: ignore[no-untyped-def]
    engine, fake = writer
    reply = "Cursor used Colossus 2 through SpaceX AI [1]. It had 1 million H100-equivalent compute [1]."
    fake.script(Reply.text(reply, chunk_size=5, chunk_delay=0.01))
    partials: list[str] = []
    result = engine.ask("How many H100 equivalents did Cursor get from SpaceX AI?", on_partial=partials.append)
    assert result.generation == "shown" and result.answer == reply, result.generation
    assert all(reply.startswith(p) for p in partials)


def test_a_right_answer_with_a_bound_is_shown(writer) -> None:  # type: ignore[no-untyped-def]
    engine, fake = writer
    reply = "Composer 2.5 scored 70.2% on SWE-bench Verified, up to 75.6% at best [1]."
    fake.script(Reply.text(reply))
    result = engine.ask("What did Composer 2.5 score on SWE-bench Verified?")
    assert result.generation == "shown" and result.answer.startswith(reply), result.answer  # a hedge may follow


def test_a_chinese_compound_counts_once(grounding: Grounding) -> None:
    # 强化学习 is one word to hold, not four (强化, 化学, 学习 and itself)
    assert grounding.content_words("做了大规模强化学习。") == ["大规模", "强化学习"]


def test_a_chinese_word_is_held_by_a_source_that_writes_it_in_english(grounding: Grounding) -> None:
    assert grounding.lexicon.get("性能") and grounding.held("性能", "its performance on SWE-bench")
    assert not grounding.held("性能", "its price on SWE-bench")


@pytest.mark.parametrize(
    ("answer", "refused"),
    [
        ("Claude Opus 4.7 scores 63.2% on CursorBench v3.1 [1].", True),
        ("Claude Opus 4.7 在 SWE-bench Verified 上的成绩是 70.2%[1]。", True),
        ("Composer 2.5 scores 63.2% on CursorBench v3.1, Claude Opus 4.7 level [1].", False),
        ("On CursorBench v3.1 its 63.2% (max 64.8%) is described as Claude Opus 4.7 level [1].", False),
    ],
)
def test_a_table_number_is_its_columns_not_the_compared_ones(grounding: Grounding, answer: str, refused: bool) -> None:
    problem = grounding.first_problem(answer, {1: SCORES})
    assert (problem is not None and "said of something else" in problem) == refused, problem
