"""Fixtures of the answer-step tests: the synthetic index of support.py."""

from __future__ import annotations

import pytest

from index.build.store import StoredIndex
from index.retrieve.retriever import Retriever
from tests.index.synthetic import build_stored


@pytest.fixture(scope="session")
def stored() -> StoredIndex:
    return build_stored()


@pytest.fixture(scope="session")
def retriever(stored: StoredIndex) -> Retriever:
    return Retriever(stored)
