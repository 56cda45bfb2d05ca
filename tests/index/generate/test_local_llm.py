"""The local-model backend's settings and seams; the model itself runs in `make eval-llm`, not here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from index.generate.generator import Generator
from index.generate.local_llm import LocalModelError
from index.generate.prompt import build_messages
from index.generate.settings import LLMSettings
from index.models import Passage


@pytest.fixture(autouse=True)
def _no_llm_env(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    for name in list(os.environ):
        if name.startswith("LLM_"):
            monkeypatch.delenv(name)


def test_a_gguf_model_needs_no_endpoint(tmp_path: Path) -> None:
    settings = LLMSettings(model=f"gguf:{tmp_path}/m.gguf")
    assert settings.enabled and settings.missing == [] and settings.local_path == tmp_path / "m.gguf"
    assert settings.label == "llm:gguf:m"
    assert not LLMSettings(model="qwen2.5").enabled  # an endpoint's model still needs LLM_BASE_URL


def test_a_missing_model_file_says_how_to_get_one(tmp_path: Path) -> None:
    with pytest.raises(LocalModelError, match="make local-model"):
        Generator(LLMSettings(model=f"gguf:{tmp_path}/absent.gguf"))


def test_without_a_local_model_xllamacpp_is_never_imported() -> None:
    code = (
        "import sys; from index.engine import Engine; "
        "import index.generate.generator, index.generate.settings, bot.runner; "
        "print('xllamacpp' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_the_prompt_carries_the_passages_numbers_in_english() -> None:
    passage = Passage(
        rank=1, chunk_id="c", doc_id="d", section="s", paragraphs=[1], start=0, end=9, score=1.0,
        text="某公司握有 600 亿美元的优先权，用了 100 万个 GPU，做了三件事。",
    )  # fmt: skip
    user = build_messages("How much?", [passage], "en")[1]["content"]
    assert "600 亿美元 = US$60 billion" in user and "100 万 = 1 million" in user
    assert "三 = 3" not in user  # digits alone say nothing new
    assert "US$60 billion" not in build_messages("多少？", [passage], "zh")[1]["content"]
