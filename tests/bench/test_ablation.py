"""bench/ablation.py: switching a step off and back on, and the table of what each step is worth."""

from __future__ import annotations

from bench import ablation


def test_a_switched_off_step_is_restored() -> None:
    import index.answer.compose as compose

    original = compose._completed
    with ablation.ABLATIONS["lead-in completion"][3]():
        assert compose._completed(None, 7) == [7]  # type: ignore[arg-type]
    assert compose._completed is original


def test_every_ablation_changes_something() -> None:
    for name, (what, params, model_fields, switched_off) in ablation.ABLATIONS.items():
        assert what
        if name != "all steps":
            assert params or model_fields or switched_off is not ablation._nothing, name


def test_the_table_shows_each_change_against_all_steps() -> None:
    metrics = {"answered": 0.8, "false_abstention": 0.04, "near_abstention": 0.7, "off_abstention": None}
    report = {
        "ablations": {"all steps": "", "heading": ""},
        "results": {
            "all steps": {"xquad-heldout": {"en": metrics}},
            "heading": {"xquad-heldout": {"en": metrics | {"answered": 0.75}}},
        },
    }
    text = ablation.render(report)
    assert "0.750 (-0.050)" in text and "0.800" in text
    assert "–" in text  # a metric the set doesn't have


def test_every_switched_off_step_exists_where_the_engine_looks_it_up() -> None:
    for switched_off in (entry[3] for entry in ablation.ABLATIONS.values()):
        with switched_off():  # a name the engine no longer reads raises AttributeError here
            pass
