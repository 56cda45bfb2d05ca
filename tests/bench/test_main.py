"""bench/__main__.py: the registry of benchmarks and the command line."""

from __future__ import annotations

import pytest

from bench.__main__ import BENCHMARKS, _module, main

MODULE_API = ("add_arguments", "run", "render")


def test_every_registered_benchmark_has_the_module_api() -> None:
    assert {"latency", "build", "cli", "scale", "bot"} <= set(BENCHMARKS)
    for name in BENCHMARKS:
        module = _module(name)
        assert all(callable(getattr(module, attr, None)) for attr in MODULE_API), name


def test_an_unknown_benchmark_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["no-such-benchmark"])
    assert caught.value.code == 2
    assert "no-such-benchmark" in capsys.readouterr().err
