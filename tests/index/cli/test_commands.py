"""index/cli/commands.py: what each command prints (../shared/CONTRACTS.md), through ``index.cli.parser.main``
in this process over the session index (the model loads once per session, not once per command).

A real ``python -m index`` process is tested in test_cli.py.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from index.build.loading import load_current
from index.build.versions import current_version
from index.cli import main
from index.cli.commands import render_answer
from tests.index.support import ARTICLE, CORPUS, REPO

pytestmark = pytest.mark.model  # every command here reads or builds an index

SWE_SEARCH = "Composer 2.5 在 SWE-bench Verified 上的成绩"
SWE_ASK = "Composer 2.5 在 SWE-bench Verified 上的成绩是多少？"
ASK_KEYS = {"question", "answer", "abstained", "language", "citations", "passages", "timings_ms"}
CITATION_KEYS = {"n", "chunk_id", "doc_id", "section", "paragraphs", "start", "end", "quote"}
PASSAGE_KEYS = {"rank", "chunk_id", "doc_id", "section", "paragraphs", "start", "end", "text", "score"}
CHUNK_KEYS = {"chunk_id", "doc_id", "section", "paragraphs", "start", "end", "text"}
SOURCE = ARTICLE.read_text(encoding="utf-8")


Run = Callable[..., str]


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Run:
    """``run(argv, stdin=None)``: ``python -m index <argv>`` in this process, reading ``stdin``;
    checks exit 0 and returns stdout."""

    def run(argv: list[str], stdin: str | None = None) -> str:
        if stdin is not None:
            monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        code = main(argv)
        captured = capsys.readouterr()
        assert code == 0, captured.err[-3000:]
        return captured.out

    return run


def json_lines(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines()]


def check_passage(passage: dict) -> None:
    assert set(passage) >= PASSAGE_KEYS
    assert SOURCE[passage["start"] : passage["end"]] == passage["text"]
    assert isinstance(passage["score"], float) and isinstance(passage["rank"], int)
    assert passage["paragraphs"] and all(isinstance(p, int) for p in passage["paragraphs"])


def check_ask_object(obj: dict) -> None:
    assert set(obj) >= ASK_KEYS
    assert isinstance(obj["abstained"], bool) and isinstance(obj["answer"], str) and obj["answer"]
    for cite in obj["citations"]:
        assert set(cite) >= CITATION_KEYS
        assert SOURCE[cite["start"] : cite["end"]] == cite["quote"]
        assert f"[{cite['n']}]" in obj["answer"]
        assert isinstance(cite["n"], int) and all(isinstance(p, int) for p in cite["paragraphs"])
    for rank, passage in enumerate(obj["passages"], 1):
        check_passage(passage)
        assert passage["rank"] == rank
    assert set(obj["timings_ms"]) >= {"embed", "search", "answer", "total"}


@pytest.fixture
def index(built_index) -> list[str]:  # type: ignore[no-untyped-def]
    return ["--index", str(built_index.index_dir)]


def test_build_prints_one_summary_line(built_index, run: Run) -> None:  # type: ignore[no-untyped-def]
    out = run(["build", "--index", str(built_index.index_dir), "--corpus", str(CORPUS)])
    assert len(out.splitlines()) == 1
    assert "up to date" in out and str(built_index.index_dir) in out


def test_stats(built_index, index: list[str], run: Run) -> None:  # type: ignore[no-untyped-def]
    out = run(["stats", *index])
    stored = load_current(built_index.index_dir)
    assert current_version(built_index.index_dir) in out
    assert "multilingual-e5-small" in out
    assert f"{len(stored.chunks)} chunks" in out and f"{len(stored.sentences)} sentences" in out
    assert "composer-2-5" in out and "Kate" in out
    shown = sum(1 for text in stored.shown if text)
    assert f"{sum(stored.rendered)} of {len(stored.sentences)} sentences as verified translations" in out
    assert shown and f"{shown} shown to readers as a newer method renders them" in out


def test_chunks_json_are_the_indexed_chunks(built_index, index: list[str], run: Run) -> None:  # type: ignore[no-untyped-def]
    objects = json_lines(run(["chunks", "--json", *index, "--corpus", str(CORPUS)]))
    assert [o["chunk_id"] for o in objects] == [c.chunk_id for c in load_current(built_index.index_dir).chunks]
    for obj in objects:
        assert set(obj) == CHUNK_KEYS
        assert obj["doc_id"] == "composer-2-5"
        assert SOURCE[obj["start"] : obj["end"]] == obj["text"]
    assert objects[0]["section"] == "Composer 2/2.5 技术拆解与行业启示"


def test_search_json(index: list[str], run: Run) -> None:
    [obj] = json_lines(run(["search", SWE_SEARCH, "--json", *index]))
    assert set(obj) >= {"question", "passages"}
    assert obj["question"] == SWE_SEARCH
    assert len(obj["passages"]) == 5
    for passage in obj["passages"]:
        check_passage(passage)
    first = obj["passages"][0]
    assert "70.2%" in first["text"] and "基准测试\tComposer 2.5\t对比" in first["text"]


def test_ask_json(index: list[str], run: Run) -> None:
    [obj] = json_lines(run(["ask", SWE_ASK, "--json", *index]))
    check_ask_object(obj)
    assert obj["question"] == SWE_ASK
    assert obj["abstained"] is False and obj["language"] == "zh"
    assert "70.2%" in obj["answer"] and obj["citations"]


def test_ask_with_bytes_that_are_not_utf8(index: list[str], run: Run) -> None:
    # undecodable command-line bytes reach Python as lone surrogates (PEP 383); they used to
    # reach the embedder and end in a UnicodeEncodeError traceback
    [obj] = json_lines(run(["ask", f"\udcff{SWE_ASK}\udcfe", "--json", *index]))
    assert obj["question"] == SWE_ASK and "70.2%" in obj["answer"]


def test_ask_json_batch_from_stdin(index: list[str], run: Run) -> None:
    lines = f"{SWE_ASK}\n\n   \n🙂🙂🙂\nWhat is the capital of France?\n"
    objects = json_lines(run(["ask", "--json", "-", *index], stdin=lines))
    assert len(objects) == 3  # blank lines are skipped; one object per question line
    first, bad, off_topic = objects
    check_ask_object(first)
    assert "70.2%" in first["answer"]
    assert bad["question"] == "🙂🙂🙂" and "error" in bad and "words" in bad["error"]
    check_ask_object(off_topic)
    assert off_topic["abstained"] is True and off_topic["citations"] == []


def test_search_on_a_missing_index_builds_it_first(
    tiny_corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["search", "苹果每斤多少钱？", "--json", "--index", str(tmp_path / "new"), "--corpus", str(tiny_corpus)]
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert "building it first" in captured.err
    assert any(line.startswith("built ") for line in captured.err.splitlines())
    assert "苹果每斤 5 元" in json.loads(captured.out)["passages"][0]["text"]


def test_eval_json(index: list[str], run: Run) -> None:
    dev = REPO / "tests/eval/dev_questions.jsonl"
    [report] = json_lines(run(["eval", str(dev), "--json", *index]))
    assert set(report["by_language"]) == {"zh", "en", "all"}
    total = sum(1 for q in dev.read_text(encoding="utf-8").splitlines() if q.strip())
    assert report["by_language"]["all"]["questions"] == total
    for metrics in report["by_language"].values():
        for name in ("hit_at_1", "recall_at_5", "mrr", "fact_rate", "citation_precision", "false_abstention"):
            assert 0.0 <= metrics[name] <= 1.0
        assert metrics["recall_at_5"] >= metrics["recall_at_3"] >= metrics["hit_at_1"]
    assert report["by_language"]["all"]["recall_at_5"] > 0.5
    assert isinstance(report["failures"], list)


def test_eval_of_several_files_scores_them_as_one_set(index: list[str], tmp_path: Path, run: Run) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text('{"id": "a", "lang": "en", "type": "out", "q": "What is the capital of France?"}\n', "utf-8")
    second.write_text('{"id": "b", "lang": "zh", "type": "out", "q": "明天上海会下雨吗？"}\n', "utf-8")
    [report] = json_lines(run(["eval", str(first), str(second), "--json", *index]))
    assert report["by_language"]["all"]["questions"] == 2


def test_chat(index: list[str], run: Run) -> None:
    said = "Composer 2.5 的价格是多少？\n\n马斯克为什么给 Cursor 站台？\n他挖走了谁？\nexit\n"
    out = run(["chat", *index], stdin=said)
    assert "Composer 2/2.5 技术拆解与行业启示" in out  # the greeting names the article
    assert "15 美元" in out and "[1]" in out
    assert "Sources / 出处" in out
    assert "Arvid Lunnemark" in out  # "他挖走了谁？" follows the question before (alone it is declined)


def test_chat_ends_at_end_of_input(index: list[str], run: Run) -> None:
    assert "Sources / 出处" in run(["chat", *index], stdin="Composer 2.5 的价格是多少？\n")


def test_an_abstention_names_its_nearest_sections_once(engine) -> None:  # type: ignore[no-untyped-def]
    result = engine.ask("明天上海会下雨吗？")
    shown = render_answer(result)
    assert result.abstained and result.nearest_sections
    for section in result.nearest_sections:
        assert shown.count(section.split(" › ")[-1]) == 1
    written = result.model_copy(update={"answer": "The article doesn't cover the weather."})  # an LLM's words
    assert "Nearest sections / 最接近的章节" in render_answer(written)
