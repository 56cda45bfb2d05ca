"""index/cli/parser.py: the parser, ``main`` and the exit codes of ../shared/CONTRACTS.md (0 ok, 1 failure,
2 usage or input error, one line on stderr, no traceback).

``main`` is what ``python -m index`` runs, so most checks call it in this process. Real processes
are started only where the process is the point: what ``--help`` and ``stats`` import, and one
``ask --json -`` fed through a real pipe.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from index.build.versions import current_version
from index.cli import main
from tests.index.support import CORPUS, REPO, cli_env

SWE_ASK = "Composer 2.5 在 SWE-bench Verified 上的成绩是多少？"
DEV = REPO / "tests" / "eval" / "dev_questions.jsonl"
HEAVY = ("numpy", "faiss", "torch", "sentence_transformers")


def one_line_error(argv: list[str], code: int, capsys: pytest.CaptureFixture[str]) -> str:
    """``main(argv)`` in this process: the exit code, nothing on stdout, one line on stderr."""
    assert main(argv) == code
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and captured.out == "", captured
    assert lines[0].startswith(("error:", "python -m index: error:"))
    return lines[0]


def imported(*args: str) -> set[str]:
    """The modules a real ``python -m index <args>`` process imports (``-X importtime``)."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "index", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=cli_env(),
        timeout=120,
    )
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    return {line.split("|")[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}


def test_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["--help"])
    assert caught.value.code == 0
    out = capsys.readouterr().out
    for command in ("build", "stats", "chunks", "search", "ask", "eval", "chat"):
        assert command in out


def test_commands_that_dont_embed_import_no_numpy_faiss_or_torch(tmp_path: Path) -> None:
    help_modules = imported("--help")
    assert "index.cli.parser" in help_modules
    assert not help_modules & {*HEAVY, "pydantic"}, help_modules & {*HEAVY, "pydantic"}
    stats_modules = imported("stats", "--index", str(tmp_path / "none"))  # exit 1: no index; the code path is
    assert "index.cli.commands" in stats_modules
    assert not stats_modules & set(HEAVY), stats_modules & set(HEAVY)


def test_no_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main([])
    assert caught.value.code == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_a_missing_index_is_a_failure_naming_the_build_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert "python -m index build" in one_line_error(["stats", "--index", str(tmp_path / "none")], 1, capsys)


def test_common_options_before_the_command(built_index, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    assert main(["--index", str(built_index.index_dir), "stats"]) == 0
    assert current_version(built_index.index_dir) in capsys.readouterr().out


def test_bad_setting_names_the_field(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("ARTICLE_CHUNK_SIZE", "abc")
    line = one_line_error(["chunks", "--json", "--corpus", str(CORPUS)], 2, capsys)
    assert "chunk_size" in line and "ARTICLE_CHUNK_SIZE" in line


def test_missing_corpus_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["build", "--corpus", "/nonexistent/corpus", "--index", str(tmp_path / "x")]
    assert "/nonexistent/corpus" in one_line_error(argv, 2, capsys)
    assert not (tmp_path / "x").exists()


# Checked before any index is opened: no model, no index needed.
@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["search", SWE_ASK, "--k", "0"], "--k"),
        (["search", SWE_ASK, "--k", "51"], "--k"),
        (["ask", "-"], "--json"),
        (["eval", "missing.jsonl"], "missing.jsonl"),
        (["eval", str(DEV), str(DEV)], "repeat"),
    ],
)
def test_usage_errors(argv: list[str], says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert says in one_line_error([*argv, "--index", str(tmp_path / "index")], 2, capsys)
    assert not (tmp_path / "index").exists()


def test_a_malformed_eval_file_names_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a", "lang": "zh", "type": "in", "q": "x"}\n{"id": "b"}\n', encoding="utf-8")
    assert "bad.jsonl:2" in one_line_error(["eval", str(bad), "--index", str(tmp_path / "index")], 2, capsys)


@pytest.mark.model
def test_a_model_that_cant_load_is_a_one_line_failure(
    tiny_corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["build", "--model", "no-such-org/no-such-model", "--corpus", str(tiny_corpus), "--index", str(tmp_path)]
    line = one_line_error(argv, 1, capsys)
    assert "no-such-org/no-such-model" in line and "bundled:multilingual-e5-small" in line


def test_an_empty_question_is_a_usage_error(built_index, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    assert "empty" in one_line_error(["ask", "", "--json", "--index", str(built_index.index_dir)], 2, capsys)


@pytest.mark.slow
def test_a_real_process_answers_stdin_lines_with_json_lines(built_index) -> None:  # type: ignore[no-untyped-def]
    done = subprocess.run(
        [sys.executable, "-m", "index", "ask", "--json", "-", "--index", str(built_index.index_dir)],
        # and bytes that aren't UTF-8: each becomes U+FFFD, and the output stays valid UTF-8 JSON
        input=f"{SWE_ASK}\n\n   \n🙂🙂🙂\n".encode()
        + b"Composer \xff\xfe 2.5 \xc3\x28 \xe4\xbb\xb7\xe6\xa0\xbc?\n\xff\xff\n",
        capture_output=True,
        cwd=REPO,
        env=cli_env(),
        timeout=300,
    )
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr[-2000:]
    lines = done.stdout.decode("utf-8").splitlines()  # strict: raises on invalid UTF-8
    answer, bad, mangled, garbage = (json.loads(line) for line in lines)  # blank lines skipped
    assert answer["question"] == SWE_ASK and "70.2%" in answer["answer"] and answer["citations"]
    assert bad["question"] == "🙂🙂🙂" and "words" in bad["error"]
    assert mangled["question"].startswith("Composer \ufffd\ufffd 2.5") and "价格" in mangled["question"]
    assert garbage["question"] == "\ufffd\ufffd" and "error" in garbage


def test_an_index_that_is_a_file_is_one_line_before_any_embedding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a-file").write_text("x", encoding="utf-8")
    for argv in (["ask", "hi"], ["build"], ["stats"]):
        line = one_line_error([*argv, "--index", str(tmp_path / "a-file"), "--corpus", str(CORPUS)], 1, capsys)
        assert "is a file, not a folder" in line, argv


def test_json_output_is_valid_utf8_whatever_the_input(capsys: pytest.CaptureFixture[str]) -> None:
    from index.cli.commands import print_json, valid_text

    undecodable = b"caf\xe9 \xff\xfe?".decode("utf-8", "surrogateescape")  # as argv or stdin hold it
    print_json({"question": undecodable, "lone": "\ud800"})
    out = capsys.readouterr().out
    out.encode("utf-8")  # would raise on a surrogate
    assert json.loads(out) == {"question": "caf\ufffd \ufffd\ufffd?", "lone": "\ufffd"}
    assert valid_text("Composer 2.5 多少？") == "Composer 2.5 多少？"
