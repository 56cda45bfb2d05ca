"""The trees the answer path reads (index/answer/model.py): exactly LightGBM's, saved and read back."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import numpy as np
import pytest

from index.answer.decide import GATE_FEATURES
from index.answer.features import CANDIDATE_FEATURES, EXTEND_FEATURES
from index.answer.model import (
    MODEL_FILE,
    AnswerModel,
    Decision,
    ModelError,
    Trees,
    from_lightgbm,
    gate_margin,
    load_model,
    save_model,
)


def fitted(params: dict, seed: int = 0, width: int = 3):  # type: ignore[no-untyped-def]
    import lightgbm

    rng = np.random.default_rng(seed)
    x = rng.normal(size=(600, width))
    x[:, 2] = np.round(x[:, 2])  # ties at split values: ``<=`` must go the way LightGBM goes
    y = (x[:, 0] + 0.5 * x[:, 1] * x[:, 2] > 0).astype(float)
    group = np.full(60, 10) if params.get("objective") == "lambdarank" else None
    settings = {"seed": seed, "verbosity": -1, "num_threads": 1, "num_leaves": 15, **params}
    return lightgbm.train(settings, lightgbm.Dataset(x, label=y, group=group), num_boost_round=40), x


@pytest.mark.parametrize("objective", ["binary", "lambdarank"])
def test_trees_predict_as_lightgbm_does(objective: str) -> None:
    booster, x = fitted({"objective": objective})
    trees = from_lightgbm(booster, ("a", "b", "c"))
    assert np.allclose(trees.margin(x), booster.predict(x, raw_score=True), atol=1e-9)
    if objective == "binary":
        assert np.allclose(trees.probability(x), booster.predict(x), atol=1e-9)
    assert trees.probability(np.zeros((0, 3))).shape == (0,)


def test_float32_rows_go_the_way_their_float64_values_do() -> None:
    """The features are float32 and margin compares them with float32 thresholds, rounded down: a
    value on either side of, or at, a split point (rounded to float32) must exit where it would exactly."""
    booster, _ = fitted({"objective": "binary"})
    trees = from_lightgbm(booster, ("a", "b", "c"))
    split_points = np.unique(trees.threshold[trees.feature >= 0])
    rounded = split_points.astype(np.float32)
    near = np.concatenate([rounded, *(np.nextafter(rounded, np.float32(to)) for to in (-np.inf, np.inf))])
    rows = np.resize(near, (len(near), 3)).astype(np.float32)
    rows[:, 1] = np.roll(rows[:, 0], 7)
    rows[:, 2] = np.roll(rows[:, 0], 13)
    assert np.array_equal(trees.margin(rows), trees.margin(rows.astype(np.float64)))
    assert np.allclose(trees.margin(rows.astype(np.float64)), booster.predict(rows, raw_score=True), atol=1e-9)


def test_averaged_trees_score_the_mean_margin() -> None:
    """The scorer and the gate are bagged fits averaged into one Trees (training.SCORER_SEEDS, GATE_SEEDS)."""
    fits = [fitted({"objective": "binary", "bagging_fraction": 0.7, "bagging_freq": 1}, seed=s) for s in (0, 1, 2)]
    x = fits[0][1]
    trees = [from_lightgbm(booster, ("a", "b", "c")) for booster, _ in fits]
    mean = np.mean([t.margin(x) for t in trees], axis=0)
    averaged = Trees.averaged(trees)
    assert np.allclose(averaged.margin(x), mean, atol=1e-9)
    assert not np.allclose(trees[0].margin(x), mean)  # the fits differ: the test can tell
    assert np.allclose(Trees.from_json(averaged.to_json()).margin(x), mean, atol=1e-5)
    with pytest.raises(ValueError):
        Trees.averaged([])


def test_a_model_file_round_trips(tmp_path: Path) -> None:
    booster, x = fitted({"objective": "binary"}, width=len(CANDIDATE_FEATURES))
    trees = from_lightgbm(booster, CANDIDATE_FEATURES)
    gate = from_lightgbm(fitted({"objective": "binary"}, width=len(GATE_FEATURES))[0], GATE_FEATURES)
    near, rows = fitted({"objective": "binary"}, seed=1, width=len(GATE_FEATURES))
    near_gate = from_lightgbm(near, GATE_FEATURES)
    answer = AnswerModel(trees, gate, {"zh": 0.3, "en": 0.2}, 0.6, {"seed": 0}, near_gate, {"zh": 0.4, "en": 0.1})
    path = tmp_path / "model.json"
    save_model(answer, path)
    loaded = load_model(path)
    assert np.allclose(loaded.scorer.probability(x), trees.probability(x), atol=1e-5)
    assert np.array_equal(loaded.scorer.threshold, trees.threshold)  # exact: rounding moves rows
    assert loaded.threshold("zh") == 0.3 and loaded.threshold("ja") == 0.2 and loaded.meta == {"seed": 0}
    assert np.allclose(loaded.near_gate.probability(rows), near_gate.probability(rows), atol=1e-5)
    assert loaded.near_threshold == {"zh": 0.4, "en": 0.1}
    assert loaded.hedge_margin == {}  # made without one: never hedges
    hedged = AnswerModel(trees, gate, {"zh": 0.3}, 0.6, {}, near_gate, {"zh": 0.4}, {"zh": 1.5, "en": 2.0})
    save_model(hedged, tmp_path / "hedged.json")
    assert load_model(tmp_path / "hedged.json").hedge_margin == {"zh": 1.5, "en": 2.0}
    extender = from_lightgbm(fitted({"objective": "binary"}, width=len(EXTEND_FEATURES))[0], EXTEND_FEATURES)
    extending = dataclasses.replace(hedged, extender=extender, extend_threshold=0.05, extend_threshold_other=0.02)
    save_model(extending, tmp_path / "extending.json")
    again = load_model(tmp_path / "extending.json")
    assert (again.extend_threshold, again.extend_threshold_other) == (0.05, 0.02)
    save_model(dataclasses.replace(extending, extend_threshold_other=None), tmp_path / "one.json")
    assert load_model(tmp_path / "one.json").extend_threshold_for(False) == 0.05  # one threshold for every kind


def test_a_question_is_answered_only_when_both_gates_pass() -> None:
    """One gate against off-topic questions, one against near-topic ones: either can decline."""
    booster, rows = fitted({"objective": "binary"}, width=len(GATE_FEATURES))
    gate = from_lightgbm(booster, GATE_FEATURES)
    p = gate.probability(rows)
    row = rows[int(np.argmin(np.abs(p - 0.5)))]  # a row the gate is unsure of: 0.5-ish
    value = float(gate.probability(row[None, :])[0])
    scorer = from_lightgbm(fitted({"objective": "binary"}, width=len(CANDIDATE_FEATURES))[0], CANDIDATE_FEATURES)

    def model(off: float, near: float) -> AnswerModel:
        return AnswerModel(scorer, gate, {"zh": off, "en": off}, 0.6, {}, gate, {"zh": near, "en": near})

    assert model(value - 0.01, value - 0.01).decide(row, "zh") == Decision(True, value, True)
    assert model(value + 0.01, value - 0.01).decide(row, "zh").answers is False
    assert model(value - 0.01, value + 0.01).decide(row, "en").answers is False


def test_an_english_question_meets_its_corpus_views_thresholds() -> None:
    """An enriched corpus (its English view from verified translations) has English thresholds of
    its own; a view the model has none for takes English's."""
    booster, rows = fitted({"objective": "binary"}, width=len(GATE_FEATURES))
    gate = from_lightgbm(booster, GATE_FEATURES)
    row = rows[int(np.argmin(np.abs(gate.probability(rows) - 0.5)))]
    value = float(gate.probability(row[None, :])[0])
    scorer = from_lightgbm(fitted({"objective": "binary"}, width=len(CANDIDATE_FEATURES))[0], CANDIDATE_FEATURES)
    low, high = value - 0.01, value + 0.01
    thresholds = {"zh": high, "en": low, "en/rendered": high}
    model = AnswerModel(scorer, gate, thresholds, 0.6, {}, gate, thresholds)
    assert model.decide(row, "en", "glossed").answers and model.decide(row, "fr", "other").answers
    assert not model.decide(row, "en", "rendered").answers and not model.decide(row, "zh", "rendered").answers


def test_an_answer_that_clears_a_gate_by_less_than_the_hedge_margin_is_not_sure() -> None:
    booster, rows = fitted({"objective": "binary"}, width=len(GATE_FEATURES))
    gate = from_lightgbm(booster, GATE_FEATURES)
    row = rows[0]
    value = float(gate.probability(row[None, :])[0])
    scorer = from_lightgbm(fitted({"objective": "binary"}, width=len(CANDIDATE_FEATURES))[0], CANDIDATE_FEATURES)
    low = value / 2  # both thresholds: the row clears them by log-odds margin
    margin = gate_margin(value, value, low, low)
    assert margin == pytest.approx(math.log(value / (1 - value)) - math.log(low / (1 - low)), abs=1e-6)

    def model(hedge: dict[str, float]) -> AnswerModel:
        return AnswerModel(scorer, gate, {"zh": low, "en": low}, 0.6, {}, gate, {"zh": low, "en": low}, hedge)

    assert model({}).decide(row, "zh").sure  # a model without a hedge margin is always sure
    assert model({"zh": margin + 0.1, "en": margin - 0.1}).decide(row, "zh") == Decision(True, value, False)
    assert model({"zh": margin + 0.1, "en": margin - 0.1}).decide(row, "ja").sure  # English's margin
    assert gate_margin(0.1, 0.9, 0.2, 0.2) < 0 < gate_margin(0.3, 0.9, 0.2, 0.2)  # the lower gate decides


def test_a_model_made_for_other_features_is_refused(tmp_path: Path) -> None:
    """Trees read columns by position: trained before a feature was added, they would misread every row."""
    booster, _ = fitted({"objective": "binary"})
    trees = from_lightgbm(booster, ("a", "b", "c"))
    save_model(AnswerModel(trees, trees, {"zh": 0.3, "en": 0.2}, 0.6, {}, trees, {"en": 0.1}), tmp_path / "old.json")
    with pytest.raises(ModelError, match=r"other features.*index train"):
        load_model(tmp_path / "old.json")


def test_a_missing_or_broken_model_says_how_to_make_one(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="index train"):
        load_model(tmp_path / "none.json")
    (tmp_path / "old.json").write_text(json.dumps({"format": 0}), encoding="utf-8")
    with pytest.raises(ModelError, match="index train"):
        load_model(tmp_path / "old.json")
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    with pytest.raises(ModelError):
        load_model(tmp_path / "bad.json")


def test_the_packaged_model_reads_todays_features() -> None:
    """A feature added or renamed without retraining would feed the trees the wrong columns."""
    model = load_model(MODEL_FILE)
    assert model.scorer.features == CANDIDATE_FEATURES
    assert model.gate.features == GATE_FEATURES and model.near_gate.features == GATE_FEATURES
    assert {"command", "seed", "data_sha256", "heldout"} <= set(model.meta)
    assert 0 < model.threshold("zh") < 1 and 0 < model.threshold("en") < 1


def test_a_lone_leaf_and_a_split_tree_add_up() -> None:
    """A tree that is one leaf (LightGBM makes them when no split gains) beside one split on ``a``."""
    lone = {"feature": [-1], "threshold": [0.0], "left": [-1], "right": [-1], "value": [0.25]}
    split = {"feature": [0, -1, -1], "threshold": [1.0, 0.0, 0.0], "left": [1, -1, -1], "right": [2, -1, -1]}
    split["value"] = [0.0, -1.0, 2.0]
    trees = Trees.from_json({"features": ["a"], "base": 0.5, "rate": 1.0, "trees": [lone, split]})
    assert trees.margin(np.array([[0.0], [1.0], [1.5]])).tolist() == [-0.25, -0.25, 2.75]
