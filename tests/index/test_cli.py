"""The CLI contract (../shared/CONTRACTS.md), through real `python -m index` processes.

Each process costs seconds (torch, the model), so all of them are started together, once, by the
``runs`` fixture, and each test checks the output of its own. They share the session index
through ``--index`` (read-only: only the `search` on a missing index builds, in its own folder).
Checks that need no process of their own (argument errors, stats, chunks) call ``index.cli.main``,
the function ``python -m index`` runs, in this process.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from index.cli import main
from index.store import current_version, load_current
from tests.index.support import ARTICLE, CORPUS, REPO, TINY_DOCS, cli_env

SWE_SEARCH = "Composer 2.5 在 SWE-bench Verified 上的成绩"
SWE_ASK = "Composer 2.5 在 SWE-bench Verified 上的成绩是多少？"
ASK_KEYS = {"question", "answer", "abstained", "language", "citations", "passages", "timings_ms"}
CITATION_KEYS = {"n", "chunk_id", "doc_id", "section", "paragraphs", "start", "end", "quote"}
PASSAGE_KEYS = {"rank", "chunk_id", "doc_id", "section", "paragraphs", "start", "end", "text", "score"}
CHUNK_KEYS = {"chunk_id", "doc_id", "section", "paragraphs", "start", "end", "text"}
SOURCE = ARTICLE.read_text(encoding="utf-8")


@dataclass
class Runs:
    """`python -m index` processes started together; ``runs[name]`` waits for one of them."""

    processes: dict[str, tuple[subprocess.Popen, str | None]] = field(default_factory=dict)
    done: dict[str, subprocess.CompletedProcess] = field(default_factory=dict)

    def start(self, name: str, *args: str, stdin: str | None = None, **env: str) -> None:
        process = subprocess.Popen(
            [sys.executable, "-m", "index", *args],
            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            cwd=REPO,
            env=cli_env(**env),
        )
        self.processes[name] = (process, stdin)

    def __getitem__(self, name: str) -> subprocess.CompletedProcess:
        if name not in self.done:
            process, stdin = self.processes[name]
            out, err = process.communicate(stdin, timeout=600)
            self.done[name] = subprocess.CompletedProcess(process.args, process.returncode, out, err)
        return self.done[name]

    def close(self) -> None:
        for process, _ in self.processes.values():
            if process.poll() is None:
                process.kill()
                process.communicate()


@pytest.fixture(scope="module")
def runs(built_index, tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    index = str(built_index.index_dir)
    scratch = tmp_path_factory.mktemp("cli")
    tiny = scratch / "tiny-corpus"
    tiny.mkdir()
    for name, text in TINY_DOCS.items():
        (tiny / name).write_text(text, encoding="utf-8")

    runs = Runs()
    # the ones that load the model, first
    runs.start("search", "search", SWE_SEARCH, "--json", "--index", index)
    runs.start("ask", "ask", SWE_ASK, "--json", "--index", index)
    # bytes that aren't UTF-8 on the command line (Python gets them as lone surrogates, PEP 383)
    runs.start("ask-bytes", "ask", f"\udcff{SWE_ASK}\udcfe", "--json", "--index", index)
    runs.start(
        "batch",
        "ask",
        "--json",
        "-",
        "--index",
        index,
        stdin=f"{SWE_ASK}\n\n   \n🙂🙂🙂\nWhat is the capital of France?\n",
    )
    runs.start("eval", "eval", "tests/eval/dev_questions.jsonl", "--json", "--index", index)
    runs.start(
        "chat",
        "chat",
        "--index",
        index,
        stdin="Composer 2.5 的价格是多少？\n\n马斯克为什么给 Cursor 站台？\n他挖走了谁？\nexit\n",
    )
    runs.start(
        "build-first",
        "search",
        "苹果每斤多少钱？",
        "--json",
        "--index",
        str(scratch / "new-index"),
        "--corpus",
        str(tiny),
    )
    # quick ones that are about the process itself: exit code, stderr, no traceback
    runs.start("help", "--help")
    runs.start("stats-missing", "stats", "--index", str(scratch / "no-index"))
    runs.start("ask-empty", "ask", "", "--json", "--index", index)
    runs.start("bad-setting", "chunks", "--json", "--index", index, ARTICLE_CHUNK_SIZE="abc")
    yield runs
    runs.close()


def one_line_error(done: subprocess.CompletedProcess, code: int) -> str:
    assert done.returncode == code, (done.returncode, done.stderr[-2000:])
    assert "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    return lines[0]


def ok(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    return done.stdout


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
    for rank, passage in enumerate(obj["passages"], 1):
        check_passage(passage)
        assert passage["rank"] == rank
    assert set(obj["timings_ms"]) >= {"embed", "search", "answer", "total"}


def test_help(runs: Runs) -> None:
    out = ok(runs["help"])
    for command in ("build", "stats", "chunks", "search", "ask", "eval", "chat"):
        assert command in out


def test_no_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main([])
    assert caught.value.code == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_build_prints_one_summary_line(built_index, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    assert main(["build", "--index", str(built_index.index_dir), "--corpus", str(CORPUS)]) == 0
    out = capsys.readouterr().out
    assert len(out.splitlines()) == 1
    assert "up to date" in out and str(built_index.index_dir) in out


def test_stats(built_index, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    assert main(["stats", "--index", str(built_index.index_dir)]) == 0
    out = capsys.readouterr().out
    stored = load_current(built_index.index_dir)
    assert current_version(built_index.index_dir) in out
    assert "multilingual-e5-small" in out
    assert f"{len(stored.chunks)} chunks" in out and f"{len(stored.sentences)} sentences" in out
    assert "composer-2-5" in out and "Kate" in out


def test_stats_without_an_index(runs: Runs) -> None:
    line = one_line_error(runs["stats-missing"], 1)
    assert "python -m index build" in line
    assert runs["stats-missing"].stdout == ""


def test_chunks_json(built_index, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    assert main(["chunks", "--json", "--index", str(built_index.index_dir), "--corpus", str(CORPUS)]) == 0
    objects = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(objects) == len(load_current(built_index.index_dir).chunks)
    for obj in objects:
        assert set(obj) == CHUNK_KEYS
        assert obj["doc_id"] == "composer-2-5"
        assert SOURCE[obj["start"] : obj["end"]] == obj["text"]
    assert objects[0]["section"] == "Composer 2/2.5 技术拆解与行业启示"


def test_search_json(runs: Runs) -> None:
    [line] = ok(runs["search"]).splitlines()
    obj = json.loads(line)
    assert set(obj) >= {"question", "passages"}
    assert obj["question"] == SWE_SEARCH
    assert len(obj["passages"]) == 5
    for passage in obj["passages"]:
        check_passage(passage)
    first = obj["passages"][0]
    assert "70.2%" in first["text"] and "基准测试\tComposer 2.5\t对比" in first["text"]


def test_ask_json(runs: Runs) -> None:
    [line] = ok(runs["ask"]).splitlines()
    obj = json.loads(line)
    check_ask_object(obj)
    assert obj["question"] == SWE_ASK
    assert obj["abstained"] is False and obj["language"] == "zh"
    assert "70.2%" in obj["answer"] and obj["citations"]
    for cite in obj["citations"]:
        assert isinstance(cite["n"], int) and all(isinstance(p, int) for p in cite["paragraphs"])


def test_ask_with_bytes_that_are_not_utf8(runs: Runs) -> None:
    # they used to reach the embedder and end in a UnicodeEncodeError traceback
    obj = json.loads(ok(runs["ask-bytes"]))
    assert obj["question"] == SWE_ASK and "70.2%" in obj["answer"]


def test_ask_json_batch_from_stdin(runs: Runs) -> None:
    objects = [json.loads(line) for line in ok(runs["batch"]).splitlines()]
    assert len(objects) == 3  # blank lines are skipped; one object per question line
    first, bad, off_topic = objects
    check_ask_object(first)
    assert "70.2%" in first["answer"]
    assert bad["question"] == "🙂🙂🙂" and "error" in bad and "words" in bad["error"]
    check_ask_object(off_topic)
    assert off_topic["abstained"] is True and off_topic["citations"] == []


def test_empty_question_is_a_usage_error(runs: Runs) -> None:
    assert "empty" in one_line_error(runs["ask-empty"], 2)
    assert runs["ask-empty"].stdout == ""


def usage_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """``main(argv)`` in this process: exit code 2, one line on stderr, nothing raised."""
    assert main(argv) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and captured.out == "", captured
    return lines[0]


def test_stdin_questions_need_json(built_index, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    assert "--json" in usage_error(["ask", "-", "--index", str(built_index.index_dir)], capsys)


@pytest.mark.parametrize("k", ["0", "51"])
def test_k_out_of_range(built_index, capsys: pytest.CaptureFixture[str], k: str) -> None:  # type: ignore[no-untyped-def]
    assert "--k" in usage_error(["search", SWE_SEARCH, "--k", k, "--index", str(built_index.index_dir)], capsys)


def test_search_on_a_missing_index_builds_it_first(runs: Runs) -> None:
    done = runs["build-first"]
    obj = json.loads(ok(done))
    assert "building it first" in done.stderr
    assert any(line.startswith("built ") for line in done.stderr.splitlines())
    assert "苹果每斤 5 元" in obj["passages"][0]["text"]


def test_bad_setting_names_the_field(runs: Runs) -> None:
    line = one_line_error(runs["bad-setting"], 2)
    assert "chunk_size" in line and "ARTICLE_CHUNK_SIZE" in line


def test_missing_corpus_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = usage_error(["build", "--corpus", "/nonexistent/corpus", "--index", str(tmp_path / "x")], capsys)
    assert "/nonexistent/corpus" in line
    assert not (tmp_path / "x").exists()


def test_eval_json(runs: Runs) -> None:
    [line] = ok(runs["eval"]).splitlines()
    report = json.loads(line)
    assert set(report["by_language"]) == {"zh", "en", "all"}
    total = sum(
        1 for q in (REPO / "tests/eval/dev_questions.jsonl").read_text(encoding="utf-8").splitlines() if q.strip()
    )
    assert report["by_language"]["all"]["questions"] == total
    for metrics in report["by_language"].values():
        for name in ("hit_at_1", "recall_at_5", "mrr", "fact_rate", "citation_precision", "false_abstention"):
            assert 0.0 <= metrics[name] <= 1.0
        assert metrics["recall_at_5"] >= metrics["recall_at_3"] >= metrics["hit_at_1"]
    assert report["by_language"]["all"]["recall_at_5"] > 0.5
    assert isinstance(report["failures"], list)


def test_eval_of_a_missing_file(built_index, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    assert "missing.jsonl" in usage_error(["eval", "missing.jsonl", "--index", str(built_index.index_dir)], capsys)


def test_eval_of_a_malformed_file(built_index, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a", "lang": "zh", "type": "in", "q": "x"}\n{"id": "b"}\n', encoding="utf-8")
    assert "bad.jsonl:2" in usage_error(["eval", str(bad), "--index", str(built_index.index_dir)], capsys)


def test_chat(runs: Runs) -> None:
    out = ok(runs["chat"])
    assert "Composer 2/2.5 技术拆解与行业启示" in out  # the greeting names the article
    assert "15 美元" in out and "[1]" in out
    assert "Sources / 出处" in out
    assert "Arvid Lunnemark" in out  # "他挖走了谁？" follows the question before (alone it is declined)


def test_common_options_before_the_command(built_index, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    assert main(["--index", str(built_index.index_dir), "stats"]) == 0
    assert current_version(built_index.index_dir) in capsys.readouterr().out


def test_main_in_process_reports_a_missing_index(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--index", str(tmp_path / "none")]) == 1
    assert "python -m index build" in capsys.readouterr().err


def test_eval_of_several_files_scores_them_as_one_set(
    built_index, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:  # type: ignore[no-untyped-def]
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text('{"id": "a", "lang": "en", "type": "out", "q": "What is the capital of France?"}\n', "utf-8")
    second.write_text('{"id": "b", "lang": "zh", "type": "out", "q": "明天上海会下雨吗？"}\n', "utf-8")
    index = ["--index", str(built_index.index_dir)]
    assert main(["eval", str(first), str(second), "--json", *index]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["by_language"]["all"]["questions"] == 2
    assert "repeat" in usage_error(["eval", str(first), str(first), *index], capsys)


def test_an_abstention_names_its_nearest_sections_once(engine) -> None:  # type: ignore[no-untyped-def]
    from index.commands import render_answer

    result = engine.ask("明天上海会下雨吗？")
    shown = render_answer(result)
    assert result.abstained and result.nearest_sections
    for section in result.nearest_sections:
        assert shown.count(section.split(" › ")[-1]) == 1
    written = result.model_copy(update={"answer": "The article doesn't cover the weather."})  # an LLM's words
    assert "Nearest sections / 最接近的章节" in render_answer(written)
