"""index/generate/contrast.py: an answer read beside itself with its names moved; the real reading is
measured over the verifier sets in test_judge_llm.py."""

from __future__ import annotations

import re

from index.generate.contrast import MARGIN, MAX_ALTERNATIVES, alternatives, name_spans, outread
from index.generate.grounding import PassageVerifier, grounding_of
from index.generate.outcome import GeneratedAnswer, GenerationFailure
from index.generate.review import reviewed
from tests.index.support import passage

RIGHT = "• 更微妙的是，马斯克 reportedly 握有 600 亿美元收购 Cursor 的优先权。Cursor 和 SpaceX AI 达成了算力合作。"


def words(text: str) -> list[str]:
    """Name words as a test states them: the capitalised Latin words."""
    return re.findall(r"(?<![\w.])[A-Z][A-Za-z0-9]*(?:\.\d+)?", text)


def test_a_name_is_taken_whole_with_its_version_and_capitals() -> None:
    text = "Then Kimi K2.5 Pro Max trains Composer 2.5, and SpaceX AI helps."
    assert name_spans(text, ["Kimi", "K2.5", "Pro", "Max", "Composer", "SpaceX"]) == [
        "Kimi K2.5 Pro Max",
        "Composer 2.5",
        "SpaceX AI",
    ]
    assert name_spans("The model is 2.5 times faster", []) == []  # a number alone is no name


def test_alternatives_swap_the_answers_names_then_bring_the_sources() -> None:
    answer = "Cursor holds a right to buy SpaceX AI [1]."
    made = alternatives(answer, ["Cursor 和 SpaceX AI 达成了合作，Arvid Lunnemark 去了 xAI。"], words)
    assert made[0] == "SpaceX AI holds a right to buy Cursor [1]."
    assert "Arvid Lunnemark holds a right to buy SpaceX AI [1]." in made
    assert answer not in made and len(made) <= MAX_ALTERNATIVES


def test_a_version_is_no_part_of_a_longer_one() -> None:
    answer = "Composer 2 came out before Composer 2.5 [1]."
    assert alternatives(answer, ["基于 Kimi K2.5"], lambda text: ["Composer", "Kimi", "K2.5"]) == [
        "Composer 2 came out before Kimi K2.5 [1].",
        "Kimi K2.5 came out before Composer 2.5 [1].",
    ]


def test_an_answer_with_one_name_and_no_other_in_its_sources_has_no_alternative() -> None:
    assert alternatives("Cursor shipped it on the 18th [1].", ["5 月 18 日 Cursor 发布"], words) == []


def test_an_alternative_reading_better_by_the_margin_refuses_the_answer() -> None:
    answer = "Cursor holds a right to buy SpaceX AI [1]."
    swapped = "SpaceX AI holds a right to buy Cursor [1]."
    scores = {answer: 0.5, swapped: 0.5 + MARGIN + 0.1}
    cited = {1: "Cursor 和 SpaceX AI"}
    assert outread(0.5, answer, cited, lambda text, _: scores.get(text, 0.0), words) == swapped
    scores[swapped] = 0.5 + MARGIN - 0.1
    assert outread(0.5, answer, cited, lambda text, _: scores.get(text, 0.0), words) is None
    assert outread(0.5, answer, cited, lambda text, _: None, words) is None  # no reading: the verdict stands


def test_the_generator_refuses_an_answer_its_swap_outreads(engine) -> None:  # type: ignore[no-untyped-def]
    verifier = PassageVerifier(grounding_of(engine.snapshot.stored))
    answer = "Cursor reportedly holds a $60 billion priority right to acquire Musk's company [1]."
    checked = GeneratedAnswer(answer, [1], False, "m")
    passages = [passage(RIGHT, 1)]

    def swapped_reads_better(text: str, cited: dict[int, str]) -> float:
        return 2.0 if text.startswith("SpaceX AI") else 0.5

    refused = reviewed(checked, answer, passages, "en", "m", verifier, read=swapped_reads_better)
    assert isinstance(refused, GenerationFailure) and "names moved" in refused.detail
    assert reviewed(checked, answer, passages, "en", "m", verifier, read=lambda text, cited: 0.5) == checked
