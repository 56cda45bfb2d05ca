"""The Engine (index/engine.py): search and ask over a live snapshot, and hot reload."""

from __future__ import annotations

import threading

import pytest

from index.answer.understand import understand
from index.build.versions import current_version
from index.engine import Engine
from index.errors import IndexLoadError
from index.text.language import QuestionError
from tests.index.support import ADDED_SENTENCE

SWE_ZH = "Composer 2.5 在 SWE-bench Verified 上的成绩是多少？"
DOG = "马斯克养的柴犬叫什么名字？"


def test_search_ranks_passages(engine) -> None:  # type: ignore[no-untyped-def]
    result = engine.search("Composer 2.5 在 SWE-bench Verified 上的成绩", k=4)
    assert result.question == "Composer 2.5 在 SWE-bench Verified 上的成绩"
    assert [p.rank for p in result.passages] == [1, 2, 3, 4]
    scores = [p.score for p in result.passages]
    assert scores == sorted(scores, reverse=True)
    assert "70.2%" in result.passages[0].text
    chunks = {c.chunk_id: c for c in engine.snapshot.stored.chunks}
    for passage in result.passages:
        chunk = chunks[passage.chunk_id]
        assert (passage.text, passage.start, passage.end, passage.section, passage.paragraphs) == (
            chunk.text,
            chunk.start,
            chunk.end,
            chunk.section,
            chunk.paragraphs,
        )
    assert len({p.chunk_id for p in result.passages}) == 4


@pytest.mark.parametrize("k", [1, 2, 7])
def test_ask_returns_k_passages(engine, k: int) -> None:  # type: ignore[no-untyped-def]
    result = engine.ask(SWE_ZH, k=k)
    assert len(result.passages) == k


def test_default_k_comes_from_the_settings(engine) -> None:  # type: ignore[no-untyped-def]
    assert len(engine.ask(SWE_ZH).passages) == engine.settings.top_k


def test_ask_reports_timings_version_and_sources(engine) -> None:  # type: ignore[no-untyped-def]
    result = engine.ask(SWE_ZH)
    assert {"embed", "search", "answer", "total"} <= set(result.timings_ms)
    assert all(v >= 0 for v in result.timings_ms.values())
    assert result.timings_ms["total"] >= result.timings_ms["embed"]
    assert result.index_version == current_version(engine.settings.index_dir)
    [source] = result.sources
    assert (source.doc_id, source.author, source.date) == ("composer-2-5", "Kate", "2026-05-20")


@pytest.mark.parametrize("question", ["", "   ", "🙂🙂", "`` **", "x" * 20_000])
def test_unusable_questions_raise_question_error(engine, question: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(QuestionError):
        engine.ask(question)
    with pytest.raises(QuestionError):
        engine.search(question)


def test_an_index_built_with_another_model_is_refused(built_index) -> None:  # type: ignore[no-untyped-def]
    other = Engine(built_index.model_copy(update={"model": "bundled:all-MiniLM-L6-v2"}))
    with pytest.raises(IndexLoadError, match="python -m index build"):
        other.snapshot  # noqa: B018


def test_hot_reload_serves_the_new_version(rebuilt_index) -> None:  # type: ignore[no-untyped-def]
    settings, old, result = rebuilt_index
    engine = Engine(settings)
    engine.swap(engine.load_version(settings.index_dir / "versions" / old))  # serving the old version
    before = engine.ask(DOG)
    assert before.index_version == old and "豆豆" not in before.answer

    assert engine.reload_if_changed() == result.version
    after = engine.ask(DOG)
    assert after.index_version == result.version
    assert "豆豆" in after.answer
    assert any(ADDED_SENTENCE in c.quote for c in after.citations)
    assert engine.reload_if_changed() is None  # nothing new


def test_a_broken_new_version_is_refused_and_the_old_one_keeps_serving(index_copy) -> None:  # type: ignore[no-untyped-def]
    engine = Engine(index_copy)
    old = engine.ask(SWE_ZH).index_version
    broken = index_copy.index_dir / "versions" / "29990101T000000000000Z-broken"
    broken.mkdir()
    (broken / "manifest.json").write_text("{ truncated", encoding="utf-8")
    (index_copy.index_dir / "CURRENT").write_text(broken.name + "\n", encoding="utf-8")

    with pytest.raises(IndexLoadError, match="python -m index build"):
        engine.reload_if_changed()
    result = engine.ask(SWE_ZH)
    assert result.index_version == old and "70.2%" in result.answer
    assert engine.reload_if_changed() is None  # reported once; still serving the old version
    assert engine.ask(SWE_ZH).index_version == old

    (index_copy.index_dir / "CURRENT").write_text(old + "\n", encoding="utf-8")
    assert engine.reload_if_changed() is None  # back to the version it serves


def test_questions_in_flight_survive_swaps(rebuilt_index) -> None:  # type: ignore[no-untyped-def]
    settings, old, result = rebuilt_index
    engine = Engine(settings)
    snapshots = [engine.load_version(settings.index_dir / "versions" / v) for v in (old, result.version)]
    answers, errors = [], []

    def ask() -> None:
        try:
            for _ in range(4):
                answers.append(engine.ask(SWE_ZH))
        except Exception as error:  # collected for the assertion below
            errors.append(error)

    threads = [threading.Thread(target=ask) for _ in range(2)]
    for thread in threads:
        thread.start()
    swaps = 0
    while any(thread.is_alive() for thread in threads):
        engine.swap(snapshots[swaps % 2])
        swaps += 1
    for thread in threads:
        thread.join()
    assert not errors
    assert len(answers) == 8
    assert all("70.2%" in a.answer and a.index_version in (old, result.version) for a in answers)


def test_english_questions_are_steered_toward_their_translation(engine) -> None:  # type: ignore[no-untyped-def]
    import numpy as np

    retriever = engine.snapshot.retriever
    question = "By how much did they scale up the synthetic data?"
    assert "合成" in retriever.translation(question.lower().split())
    steered, own, plain = engine.vectors.of(understand(question), retriever)
    assert np.isclose(np.linalg.norm(steered), 1.0) and np.isclose(np.linalg.norm(own), 1.0)
    [alone] = engine.embedder.encode_queries([question])
    assert np.allclose(own, alone, atol=1e-5)  # abstention judges the question's own vector
    assert np.array_equal(plain, own)  # no conversation: the English view reads it too
    assert float(steered @ own) < 0.999  # retrieval uses a different one
    words = retriever.translation(question.lower().split())
    assert all(engine.vectors.known(w) for w in words)  # each word embedded once, then kept
    again, _, _ = engine.vectors.of(understand(question), retriever)
    assert np.allclose(again, steered, atol=1e-6)
    chinese, chinese_own, _ = engine.vectors.of(understand(SWE_ZH), retriever)
    assert np.array_equal(chinese, chinese_own)
    who = "Who is Michael Truell?"
    untranslatable, same, _ = engine.vectors.of(understand(who), retriever)
    assert np.array_equal(untranslatable, same)
    # a follow-up: the English view reads the question with its conversation, not "and the price?" alone
    follow = understand("and the price?", "How fast is Composer 2.5?")
    _, own, plain = engine.vectors.of(follow, retriever)
    assert float(plain @ own) < 0.99
    [earlier] = engine.embedder.encode_queries(["How fast is Composer 2.5?"])
    assert float(plain @ earlier) > float(own @ earlier)


def test_a_generated_answer_streams_to_on_partial(engine) -> None:  # type: ignore[no-untyped-def]
    from index.generate.settings import LLMSettings
    from tests.fakeopenai import FakeOpenAI, Reply

    text = "Composer 2.5 scores 70.2% on SWE-bench Verified [1]."
    question = "What is Composer 2.5's SWE-bench Verified score?"
    with FakeOpenAI() as fake:
        llm = LLMSettings(base_url=fake.base_url, model="fake-model", timeout=5, deadline=10)
        writer = Engine(engine.settings, embedder=engine.embedder, llm=llm)
        yes = Reply.text("Yes")  # the check before each answer, and each answer's second reading
        fake.script(yes, Reply.text(text, chunk_size=4, chunk_delay=0.02), yes, yes, Reply.text(text), yes)
        partials: list[str] = []
        try:
            streamed = writer.ask(question, on_partial=partials.append)
            whole = writer.ask(question)
        finally:
            assert writer.generator is not None
            writer.generator.close()
        requests = [r.json for r in fake.requests if r.method == "POST"]
    assert [(bool(r.get("stream")), r["max_tokens"]) for r in requests] == [
        (False, 1),
        (True, 400),
        (False, 1),
        (False, 1),
        (False, 400),
        (False, 1),
    ]
    assert streamed.answer == whole.answer == text
    assert streamed.citations == whole.citations and streamed.kind == whole.kind
    assert partials and all(text.startswith(p) for p in partials), partials


def test_the_model_is_told_what_a_follow_up_follows(engine) -> None:  # type: ignore[no-untyped-def]
    from index.generate.settings import LLMSettings
    from tests.fakeopenai import FakeOpenAI, Reply

    with FakeOpenAI() as fake:
        llm = LLMSettings(base_url=fake.base_url, model="fake-model", timeout=5, deadline=10)
        writer = Engine(engine.settings, embedder=engine.embedder, llm=llm)
        fake.script(*[Reply.text("Arvid Lunnemark [1].")] * 9)
        try:
            writer.ask("他挖走了谁？", context="马斯克为什么给 Cursor 站台？")
            writer.ask("详细说说", context="马斯克为什么给 Cursor 站台？")
            writer.ask("Composer 2.5 多少钱？", context="马斯克为什么给 Cursor 站台？")  # its own subject
        finally:
            assert writer.generator is not None
            writer.generator.close()
        posts = [r.json for r in fake.requests if r.method == "POST"]
    prompts = [r["messages"][-1]["content"] for r in posts if r["max_tokens"] > 1]  # not the one-token readings
    asked = "他挖走了谁？\n(a follow-up to: 马斯克为什么给 Cursor 站台？)"
    assert asked in posts[0]["messages"][-1]["content"] and asked in prompts[0]  # the check reads it so too
    assert "详细说说\n(a follow-up to: 马斯克为什么给 Cursor 站台？)" in prompts[1]
    assert "follow-up" not in prompts[2]


def test_the_models_check_declines_before_anything_is_written(engine) -> None:  # type: ignore[no-untyped-def]
    """A No from the one-token check declines what the gates would answer, and nothing is generated;
    with LLM_WRITE off a Yes keeps the extractive answer; LLM_CHECK off asks nothing first."""
    from index.generate.settings import LLMSettings
    from tests.fakeopenai import FakeOpenAI, Reply

    question = "What is Composer 2.5's SWE-bench Verified score?"
    extractive = engine.ask(question)
    assert not extractive.abstained
    with FakeOpenAI() as fake:
        base = LLMSettings(base_url=fake.base_url, model="fake-model", timeout=5, deadline=10)
        writers = [
            Engine(engine.settings, embedder=engine.embedder, llm=base.model_copy(update=update))
            for update in ({}, {"write": False}, {"check": False, "write": False})
        ]
        try:
            fake.script(Reply.text("No"), Reply.text("Yes"))  # the last reply repeats
            declined = writers[0].ask(question)
            kept = writers[1].ask(question)
            unchecked = writers[2].ask(question)
        finally:
            for writer in writers:
                assert writer.generator is not None
                writer.generator.close()
        posts = [r.json for r in fake.requests if r.method == "POST"]
    assert declined.abstained and declined.kind == "abstained" and declined.generation is None
    assert "check" in declined.timings_ms and declined.answer.strip()
    assert kept.answer == extractive.answer and not kept.abstained
    assert not unchecked.abstained and "check" not in unchecked.timings_ms
    assert [r["max_tokens"] for r in posts] == [1, 1]  # the declined question's check, the kept one's
    assert "Does the passage answer this question?" in posts[0]["messages"][-1]["content"]


def test_a_conversation_is_its_earlier_questions_oldest_first(engine) -> None:  # type: ignore[no-untyped-def]
    earlier = ("这篇文章讲了什么？", SWE_ZH)
    followed = engine.ask("Multilingual 呢？", context=earlier)
    assert "73.7%" in followed.answer
    assert followed.answer == engine.ask("Multilingual 呢？", context="\n".join(earlier)).answer


def test_warm_up_makes_the_tokenizer(engine) -> None:  # type: ignore[no-untyped-def]
    """Every lazy structure a question touches exists before the first question: the tokenizer,
    the stemmer, the trees' leaf masks and the English line's lexicon too."""
    from index.english import dictionary as crosslingual
    from index.english import lexicon
    from index.text import tokens as tokenizer

    tokenizer._jieba_for.cache_clear()
    crosslingual._stemmer.cache_clear()
    crosslingual.stem.cache_clear()  # else an earlier test's stem("warm") skips the stemmer
    lexicon._lexicons.clear()
    engine.warm_up()
    assert tokenizer._jieba_for.cache_info().currsize == 1 and crosslingual._stemmer.cache_info().currsize == 1
    assert "_masks" in vars(engine.model.scorer) and "_masks" in vars(engine.model.gate)
    made = lexicon._lexicons.get(engine.snapshot.version)
    assert made is not None
    engine.ask("Composer 2.5 基于哪个模型？")
    english = engine.ask("What is the price of Composer 2.5 per million tokens?")
    assert not english.abstained and "$15" in english.answer
    assert tokenizer._jieba_for.cache_info().misses == 1  # the questions made nothing new
    assert crosslingual._stemmer.cache_info().misses == 1 and lexicon._lexicons[engine.snapshot.version] is made
