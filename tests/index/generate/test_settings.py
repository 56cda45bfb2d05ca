"""index/generate/settings.py: the LLM_* settings and what --llm / --no-llm mean."""

from __future__ import annotations

import pytest

from index.errors import SettingsError
from index.generate.settings import LLMSettings, llm_for_flag, load_llm_settings


def _numbers(settings: LLMSettings) -> tuple[float, int, float, float]:
    return settings.timeout, settings.max_tokens, settings.temperature, settings.deadline


def test_settings_from_env_exact_names(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in {
        "LLM_BASE_URL": "http://127.0.0.1:11434/v1/",
        "LLM_MODEL": " qwen2.5:7b ",
        "LLM_API_KEY": "sk-secret",
        "LLM_TIMEOUT": "5",
        "LLM_MAX_TOKENS": "300",
        "LLM_TEMPERATURE": "0",
        "LLM_DEADLINE": "9.5",
    }.items():
        monkeypatch.setenv(name, value)
    settings = load_llm_settings()
    assert settings.enabled and settings.label == "llm:qwen2.5:7b"
    assert settings.base_url == "http://127.0.0.1:11434/v1"
    assert _numbers(settings) == (5, 300, 0, 9.5)
    assert settings.api_key is not None and settings.api_key.get_secret_value() == "sk-secret"
    assert "sk-secret" not in repr(settings) and "sk-secret" not in str(settings.model_dump())


def test_settings_defaults_and_off_when_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = load_llm_settings()
    assert not settings.enabled and settings.missing == ["LLM_BASE_URL", "LLM_MODEL"]
    assert _numbers(settings) == (20, 400, 0.2, 30)
    monkeypatch.setenv("LLM_BASE_URL", "http://127.0.0.1:8080/v1")
    monkeypatch.setenv("LLM_MODEL", "")  # empty counts as unset
    assert not load_llm_settings().enabled and load_llm_settings().missing == ["LLM_MODEL"]
    assert llm_for_flag(None) is None
    with pytest.raises(SettingsError, match="--llm needs LLM_MODEL"):
        llm_for_flag(True)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("LLM_TIMEOUT", "0"),
        ("LLM_TIMEOUT", "abc"),
        ("LLM_DEADLINE", "-1"),
        ("LLM_DEADLINE", "nan"),
        ("LLM_MAX_TOKENS", "1.5"),
        ("LLM_TEMPERATURE", "3"),
        ("LLM_BASE_URL", "ftp://example.org"),
        ("LLM_BASE_URL", "localhost:11434"),
    ],
)
def test_invalid_settings_name_the_field(monkeypatch: pytest.MonkeyPatch, name: str, value: str) -> None:
    monkeypatch.setenv("LLM_MODEL", "m")
    monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError, match=rf"\({name}\)"):
        load_llm_settings()


def test_a_model_with_nothing_to_do_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LLM_MODEL", "gguf:/models/m.gguf")
    monkeypatch.setenv("LLM_WRITE", "0")
    assert load_llm_settings().check  # the check alone is a use
    monkeypatch.setenv("LLM_CHECK", "0")
    with pytest.raises(SettingsError, match=r"\(LLM_WRITE\).*nothing to do"):
        load_llm_settings()
    monkeypatch.setenv("LLM_WRITE", "1")
    assert not load_llm_settings().check


def test_flags(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LLM_TIMEOUT", "not a number")
    assert llm_for_flag(False) is None  # --no-llm never reads (or trips over) LLM_*
    monkeypatch.setenv("LLM_TIMEOUT", "3")
    monkeypatch.setenv("LLM_BASE_URL", "http://127.0.0.1:1/v1")
    monkeypatch.setenv("LLM_MODEL", "m")
    on = llm_for_flag(None)
    assert on is not None and on.enabled and llm_for_flag(True) is not None
