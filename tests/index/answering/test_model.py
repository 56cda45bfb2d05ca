"""The trees the answer path reads (index/answering/model.py): exactly sklearn's, saved and read back."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from index.answering.decide import GATE_FEATURES
from index.answering.features import CANDIDATE_FEATURES
from index.answering.model import MODEL_FILE, AnswerModel, ModelError, from_sklearn, load_model, save_model


def fitted(seed: int = 0):  # type: ignore[no-untyped-def]
    from sklearn.ensemble import GradientBoostingClassifier

    rng = np.random.default_rng(seed)
    x = rng.normal(size=(400, 3))
    y = (x[:, 0] + 0.5 * x[:, 1] * x[:, 2] > 0).astype(int)
    return GradientBoostingClassifier(n_estimators=30, max_depth=3, random_state=seed).fit(x, y), x


def test_trees_predict_as_sklearn_does() -> None:
    model, x = fitted()
    trees = from_sklearn(model, ("a", "b", "c"))
    assert np.allclose(trees.probability(x), model.predict_proba(x)[:, 1], atol=1e-9)
    assert trees.probability(np.zeros((0, 3))).shape == (0,)


def test_a_model_file_round_trips(tmp_path: Path) -> None:
    model, x = fitted()
    trees = from_sklearn(model, ("a", "b", "c"))
    answer = AnswerModel(trees, trees, {"zh": 0.3, "en": 0.2}, 0.6, {"seed": 0})
    path = tmp_path / "model.json"
    save_model(answer, path)
    loaded = load_model(path)
    assert np.allclose(loaded.scorer.probability(x), trees.probability(x), atol=1e-5)
    assert loaded.threshold("zh") == 0.3 and loaded.threshold("ja") == 0.2 and loaded.meta == {"seed": 0}


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
    assert model.gate.features == GATE_FEATURES
    assert {"command", "seed", "data_sha256", "heldout"} <= set(model.meta)
    assert 0 < model.threshold("zh") < 1 and 0 < model.threshold("en") < 1
