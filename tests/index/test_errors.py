"""index/errors.py: one exit code per kind of error, and one class per error wherever it is
imported from."""

from __future__ import annotations

import pytest

from index import config, errors
from index.build import corpus, embedding, loading, versions
from index.text import language as text


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (errors.UsageError("--k must be between 1 and 50"), errors.EXIT_USAGE),
        (errors.SettingsError("invalid setting"), errors.EXIT_USAGE),
        (errors.CorpusError("no documents"), errors.EXIT_USAGE),
        (errors.QuestionError("the question is empty"), errors.EXIT_USAGE),
        (errors.IndexLoadError("run `python -m index build --force`"), errors.EXIT_FAILURE),
        (errors.EmbedderError("cannot load embedding model"), errors.EXIT_FAILURE),
        (OSError("disk full"), errors.EXIT_FAILURE),
        (KeyboardInterrupt(), errors.EXIT_INTERRUPTED),
    ],
)
def test_exit_codes(error: BaseException, code: int) -> None:
    assert errors.exit_code(error) == code


def test_the_contract_codes() -> None:
    assert (errors.EXIT_OK, errors.EXIT_FAILURE, errors.EXIT_USAGE) == (0, 1, 2)


def test_the_modules_that_raise_them_name_the_same_classes() -> None:
    assert config.SettingsError is errors.SettingsError
    assert corpus.CorpusError is errors.CorpusError
    assert versions.IndexLoadError is loading.IndexLoadError is errors.IndexLoadError
    assert text.QuestionError is errors.QuestionError
    assert embedding.EmbedderError is errors.EmbedderError
