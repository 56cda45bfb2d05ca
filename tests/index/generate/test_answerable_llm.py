"""The local model's check before an answer (index/generate/answerable.py) over a blind near-topic
set (``make test-llm``; about three minutes on 2 cores): questions near the article's topic that it
doesn't answer, each beside an answerable twin. Floors: as measured, less one question."""

from __future__ import annotations

import json

import pytest

from index.engine import Engine
from index.generate.settings import LLMSettings
from tests.index.generate.test_judge_llm import MODEL
from tests.index.support import REPO

SET = REPO / "tests" / "eval" / "holdout_near.jsonl"
# language → (near-topic declined at least, answerable declined at most): measured 11 of 24 and 0 of 17 (en),
# 7 of 17 and 0 of 19 (zh), 2026-12-07, the check reading excerpts
FLOORS = {"en": (10, 1), "zh": (6, 1)}


@pytest.mark.llm
def test_the_check_declines_near_topic_questions_the_gates_answer(engine) -> None:  # type: ignore[no-untyped-def]
    if not MODEL.exists():
        pytest.skip("no local model: make local-model")
    rows = [json.loads(line) for line in SET.read_text(encoding="utf-8").splitlines() if line.strip()]
    llm = LLMSettings(model=f"gguf:{MODEL}", write=False, timeout=60, deadline=120)
    checking = Engine(engine.settings, embedder=engine.embedder, llm=llm)
    declined: dict[tuple[str, bool], int] = {}
    try:
        for row in rows:
            with_check, alone = checking.ask(row["q"]), engine.ask(row["q"])
            assert with_check.abstained or with_check.answer == alone.answer  # the check only declines
            key = (row["lang"], row["type"] == "in")
            declined[key] = declined.get(key, 0) + with_check.abstained
    finally:
        assert checking.generator is not None
        checking.generator.close()
    for language, (near_least, answerable_most) in FLOORS.items():
        assert declined.get((language, False), 0) >= near_least, (language, declined)
        assert declined.get((language, True), 0) <= answerable_most, (language, declined)
