"""The public sets' protocol (index/evaluate/public.py) and its metrics (index/evaluate/metrics.py), on small
synthetic sets."""

from __future__ import annotations

import json
from pathlib import Path

from index.evaluate import public
from index.evaluate.protocol import public_metrics, public_row
from index.models import AskResult, Passage


def squad(path: Path, articles: int = 3) -> Path:
    data = {
        "data": [
            {
                "title": f"Article {a}",
                "paragraphs": [
                    {
                        "context": f"第{a}篇第{p}段，答案是甲{a}{p}。",
                        "qas": [
                            {
                                "id": f"{a}-{p}",
                                "question": f"第{a}篇第{p}段的答案？",
                                "answers": [{"text": f"甲{a}{p}", "answer_start": 0}],
                            }
                        ],
                    }
                    for p in range(3)
                ],
            }
            for a in range(articles)
        ]
    }
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_the_last_paragraph_is_left_out_and_its_questions_are_near_topic(tmp_path: Path) -> None:
    articles = public.load_squad(squad(tmp_path / "zh.json"))
    english = {"0-0": "What is the answer of paragraph 0?"}
    found = public.protocol_set("t", articles, english)
    assert len(found.documents) == 3
    text = found.documents["article-0.txt"]
    assert text.startswith("Article 0\n\n") and "甲00" in text and "甲02" not in text
    kinds = {q.id: q.kind for q in found.questions}
    assert kinds["0-0-zh"] == "in" and kinds["0-2-zh"] == "near" and kinds["0-0-en"] == "in"
    assert [q.gold for q in found.questions if q.id == "0-0-en"] == [("甲00",)]


def test_documents_as_bare_text_lose_only_their_title_line(tmp_path: Path) -> None:
    articles = public.load_squad(squad(tmp_path / "zh.json"))
    titled = public.protocol_set("t", articles).documents
    bare = public.protocol_set("t", articles, title_line=False).documents
    assert bare.keys() == titled.keys()
    for article in articles:
        name = public.document_name(article.title)
        assert bare[name].startswith("第") and titled[name] == f"{article.title}\n\n{bare[name]}"


def test_kind_questions_join_their_paragraph_in_both_languages(tmp_path: Path) -> None:
    articles = public.load_squad(squad(tmp_path / "zh.json"))
    rows = [
        {"id": "k-1", "title": "Article 1", "paragraph": 2, "kind": "reason", "zh": "为什么是甲12？",
         "en": "Why is it 甲12?", "gold": ["答案是甲12"], "gold_en": ["the answer"]},
    ]  # fmt: skip
    kinds = tmp_path / "kinds.jsonl"
    kinds.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    english: dict[str, str] = {}
    answers: dict[str, tuple[str, ...]] = {}
    added = public.with_kind_questions(articles, english, answers, path=kinds)
    found = public.protocol_set("t", added, english)
    asked = {q.id: q for q in found.questions}
    assert asked["k-1-zh"].kind == "near" and asked["k-1-en"].q == "Why is it 甲12?"  # the last paragraph's
    assert asked["k-1-en"].gold == ("答案是甲12",) and answers["k-1-en"] == ("the answer",)
    assert "1-2-zh" in asked  # added to, not instead of, the paragraph's own
    only = public.protocol_set("t", public.with_kind_questions(articles, {}, {}, only=True, path=kinds), english)
    assert {q.id for q in only.questions} == {"k-1-zh", "k-1-en"}


def test_nothing_left_out_and_off_topic_questions(tmp_path: Path) -> None:
    articles = public.load_squad(squad(tmp_path / "zh.json"))
    found = public.protocol_set("t", articles[:1], leave_out=None, off_topic=articles[1:])
    assert {q.kind for q in found.questions if q.article == "Article 0"} == {"in"}
    assert {q.kind for q in found.questions if q.article != "Article 0"} == {"off"}


def test_the_split_is_fixed_and_disjoint() -> None:
    titles = [f"T{i}" for i in range(300)]
    held = [t for t in titles if public.held_out(t)]
    assert held == [t for t in reversed(titles) if public.held_out(t)][::-1]
    assert 0.2 < len(held) / len(titles) < 0.45


def test_write_corpus_replaces_what_is_stale(tmp_path: Path) -> None:
    articles = public.load_squad(squad(tmp_path / "zh.json"))
    folder = public.write_corpus(public.protocol_set("t", articles), tmp_path / "corpus")
    (folder / "stale.txt").write_text("old", encoding="utf-8")
    public.write_corpus(public.protocol_set("t", articles[:1]), folder)
    assert sorted(p.name for p in folder.glob("*.txt")) == ["article-0.txt"]


def result(answer: str, passages: list[str], abstained: bool = False) -> AskResult:
    return AskResult(
        question="q",
        answer=answer,
        abstained=abstained,
        language="zh",
        passages=[
            Passage(rank=i, chunk_id=str(i), doc_id="d", section="s", paragraphs=[1], start=0, end=1, text=t, score=0.0)
            for i, t in enumerate(passages, 1)
        ],
    )


def test_metrics_ignore_white_space_and_count_declines() -> None:
    rows = [
        ("in", public_row(["甲 1"], result("根据文章：甲1。", ["乙", "甲1 在此"]))),
        ("in", public_row(["丙"], result("不知道", ["丙"], abstained=True))),
        ("near", public_row(["丁"], result("不知道", [], abstained=True))),
        ("off", public_row(["戊"], result("答了", ["x"]))),
    ]
    metrics = public_metrics(rows)
    assert (metrics.answerable, metrics.answered, metrics.false_abstention) == (2, 0.5, 0.5)
    assert (metrics.retrieved_at_1, metrics.retrieved_at_5) == (0.5, 1.0)
    assert (metrics.near_abstention, metrics.off_abstention) == (1.0, 0.0)


def test_the_english_line_is_scored_against_the_english_gold() -> None:
    from index.evaluate.protocol import holds_english_answer

    gold_en = ["Isaac Newton", "Newton"]
    rows = [
        ("in", public_row(["牛顿"], result("Isaac Newton formed it.\n\n牛顿", ["牛顿"]), gold_en)),
        ("in", public_row(["牛顿"], result("The quoted passage is about: gravity.\n\n牛顿", ["牛顿"]), gold_en)),
        ("in", public_row(["牛顿"], result("不知道", ["牛顿"], abstained=True), gold_en)),
        ("in", public_row(["牛顿"], result("根据文章：牛顿", ["牛顿"]))),  # a Chinese question: not counted
    ]
    assert public_metrics(rows).english_line == 1 / 3
    assert public_metrics(rows[3:]).english_line is None
    assert holds_english_answer("It formed 66 million years ago.", ["66 million years ago"])
    assert not holds_english_answer("Possible is in 66 million.", ["66 million years ago"])  # every word
    assert not holds_english_answer("牛顿 Newton", ["Newton"])  # an English line has no Chinese


def test_xquad_sets_carry_the_english_gold(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from index.evaluate.public import english_answers_by_id

    path = tmp_path / "en.json"
    path.write_text(
        json.dumps({"data": [{"title": "T", "paragraphs": [{"context": "c", "qas": [
            {"id": "q1", "question": "Who?", "answers": [{"text": "Newton", "answer_start": 0}]}
        ]}]}]}),
        encoding="utf-8",
    )  # fmt: skip
    assert english_answers_by_id(path) == {"q1-en": ("Newton",)}


def test_the_public_table_has_a_row_per_set_and_language() -> None:
    from index.evaluate.protocol import PublicMetrics, public_table

    text = public_table([("xquad-heldout", "en", PublicMetrics(answerable=3, near_topic=1, answered=0.5))])
    head, rule, row = text.splitlines()
    assert head.count("|") == rule.count("|") == row.count("|")
    assert row.startswith("| xquad-heldout | en | 3 | 1 | 0 |") and "0.50" in row and "–" in row


def test_marked_answers_are_counted_among_right_and_wrong_ones() -> None:
    """An answer that says it may not be one: the share of right answers so marked (the cost) and of
    wrong ones, a near-topic question answered among them (the point)."""

    def marked(text: str, passages: list[str]) -> AskResult:
        answer = result(text, passages)
        answer.hedged = True
        return answer

    rows = [
        ("in", public_row(["甲"], result("根据文章：甲。", ["甲"]))),
        ("in", public_row(["乙"], marked("根据文章：乙。", ["乙"]))),
        ("in", public_row(["丙"], marked("根据文章：丁。", ["丙"]))),
        ("near", public_row(["戊"], marked("根据文章：己。", []))),
        ("near", public_row(["庚"], result("根据文章：辛。", []))),
        ("near", public_row(["壬"], result("不知道", [], abstained=True))),
    ]
    metrics = public_metrics(rows)
    assert metrics.hedged_right == 0.5  # 乙 of 甲, 乙
    assert metrics.hedged_wrong == 2 / 3  # 丁 and 己 of 丁, 己, 辛; the decline is neither
    assert public_metrics(rows[:1]).hedged_wrong is None
