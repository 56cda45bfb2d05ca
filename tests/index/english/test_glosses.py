"""index/english/glosses.py and train/glosses.py: the English gloss a Chinese word is rendered with."""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest

from index.english.dictionary import every_entry
from index.english.glosses import TABLE_FILE, choices, chosen_gloss, read_table, write_table
from index.english.lexicon import build_lexicon, gloss_candidates, shortest
from index.train.glosses import (
    ParallelText,
    agreement,
    changes,
    closest,
    cosines,
    dictionary_candidates,
    e5_encode,
    fit_penalty,
)


def test_table_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "t.tsv"
    write_table(path, {"输出": "output", "最高": "highest"}, ["made by: a test"])
    assert read_table(path) == {"输出": "output", "最高": "highest"}
    assert path.read_text(encoding="utf-8").startswith("# made by: a test\n")


def test_a_choice_the_dictionary_no_longer_offers_is_ignored() -> None:
    word, gloss = next(iter(choices().items()))
    assert chosen_gloss(word, [gloss, "something else"]) == gloss
    assert chosen_gloss(word, ["something else"]) is None
    assert chosen_gloss("不是一个词", [gloss]) is None


def test_candidates_common_senses_first_a_name_only_without_them() -> None:
    entries = [("Bi3", "Belgium/"), ("bi3", "to compare/to contrast/")]
    assert gloss_candidates(entries) == ["compare", "contrast"]
    assert gloss_candidates([("Ma3 si1 ke4", "Elon Musk (1971-), business magnate/")]) == ["Elon Musk"]
    assert gloss_candidates([("x", "variant of 個|个/")]) == []  # a variant's pointer is no gloss
    assert shortest(["on the basis of", "because of", "basis"]) == "basis"


def test_changes_keep_only_what_differs_from_the_shortest() -> None:
    candidates = {"输入": ["import", "input"], "模型": ["model", "mold"]}
    assert changes({"输入": "input", "模型": "model"}, candidates) == {"输入": "input"}


def test_agreement_counts_words_whose_glosses_the_english_holds_in_part() -> None:
    candidates = {"输入": ["import", "input"], "模型": ["model", "mold"], "价格": ["price", "cost"]}
    texts = [
        ParallelText("a", "输入模型", "The input of the models"),  # 输入: input only; 模型: model only
        ParallelText("a", "价格", "price and cost"),  # both held: tells nothing
        ParallelText("a", "价格", "nothing"),  # none held: tells nothing
    ]
    assert agreement(texts, candidates, lambda w, c: c[0]) == (0.5, 2)
    assert agreement(texts, candidates, lambda w, c: {"输入": "input"}.get(w, c[0])) == (1.0, 2)


def test_the_lexicon_reads_the_packaged_choice() -> None:
    lexicon = build_lexicon({"输入", "输出", "最高"})
    assert (lexicon["输入"], lexicon["输出"], lexicon["最高"]) == ("input", "output", "highest")
    assert build_lexicon({"说"})["说"] == "say"  # a single character too: its shortest gloss is "persuade"


def test_the_table_says_how_it_was_made_and_measured() -> None:
    header = [line for line in TABLE_FILE.read_text(encoding="utf-8").splitlines() if line.startswith("#")]
    assert any("python -m index glosses" in line for line in header)
    assert any("held-out" in line for line in header)


def test_closest_prefers_the_plainer_of_nearly_equal_glosses() -> None:
    glosses = ["lower reaches", "lower level", "downstream"]
    cosine = np.array([0.836, 0.837, 0.814])
    assert closest(glosses, cosine, 0.0) == "lower level"
    assert closest(glosses, cosine, 0.03) == "downstream"
    assert closest(glosses, np.array([0.70, 0.90, 0.80]), 0.03) == "lower level"  # not by length alone


def test_the_penalty_is_fitted_to_agree_with_the_english() -> None:
    candidates = {"下游": ["lower level", "downstream"], "输入": ["import", "input"]}
    cosine = {"下游": np.array([0.84, 0.82]), "输入": np.array([0.86, 0.93])}
    texts = [ParallelText("a", "下游输入", "downstream input")]
    assert fit_penalty(texts, candidates, cosine) == pytest.approx(0.025)  # the smallest that flips 下游
    wrong = [ParallelText("a", "下游", "a lower level")]
    assert fit_penalty(wrong, candidates, cosine) == 0.0


def _penalty_of_the_table() -> float:
    match = re.search(r"penalty per extra word of a gloss: ([0-9.]+)", TABLE_FILE.read_text(encoding="utf-8"))
    assert match, "the table's header names its penalty"
    return float(match.group(1))


@pytest.mark.model
def test_the_packaged_table_is_what_the_embedder_chooses_now() -> None:
    """A sample recomputed with the bundled e5: the table is reproducible, and not stale against
    the installed dictionary (if this fails after an upgrade, run `make glosses`)."""
    candidates = dictionary_candidates(every_entry())
    sample = {w: candidates[w] for w in random.Random(7).sample(sorted(candidates), 40)}
    sample |= {w: candidates[w] for w in ("输入", "输出", "下游", "说")}
    cosine = cosines(sample, e5_encode(lambda line: None))
    penalty = _penalty_of_the_table()
    packaged = choices()
    assert {w: packaged.get(w) or shortest(c) for w, c in sample.items()} == {
        w: closest(c, cosine[w], penalty) for w, c in sample.items()
    }


@pytest.mark.model
def test_cosines_by_the_embedder() -> None:
    encode = e5_encode(lambda line: None)
    vectors = encode(["输入", "input", "import"])
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    cosine = cosines({"输入": ["import", "input"]}, encode)["输入"]
    assert cosine[1] > cosine[0]
