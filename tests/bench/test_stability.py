"""bench/stability.py: the noise moves every vector the encoder returns, and goes away after."""

from __future__ import annotations

import numpy as np
import pytest

from bench import stability


@pytest.mark.model
def test_the_noise_moves_vectors_by_its_scale_and_is_undone() -> None:
    from index.build.embedding import bundled_e5

    engine = bundled_e5()
    clean = np.asarray(engine.encode(["Composer 2.5 是哪天发布的？"], True))
    with stability._noisy_encoder(1e-3, seed=0):
        noisy = np.asarray(engine.encode(["Composer 2.5 是哪天发布的？"], True))
    again = np.asarray(engine.encode(["Composer 2.5 是哪天发布的？"], True))
    assert np.array_equal(clean, again)
    assert 1e-4 < np.abs(noisy - clean).max() < 1e-2
    assert np.isclose(np.linalg.norm(noisy), 1.0, atol=1e-5)


def test_the_table_lists_what_changed() -> None:
    report = {"questions": 3, "runs": [{"scale": 1e-5, "seed": 0, "decisions": ["b48"], "answers": 2}]}
    text = stability.render(report)
    assert [cell.strip() for cell in text.splitlines()[-1].strip("|").split("|")] == ["1e-05", "0", "1", "2", "b48"]
