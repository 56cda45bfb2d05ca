"""The pure parts of training (index/train/fit.py): thresholds and the second unit's ratio."""

from __future__ import annotations

import numpy as np

from index.train.fit import Example, second_ratio_for, thresholds_for, thresholds_of, thresholds_per_view


def test_thresholds_keep_false_abstention_at_the_rate_in_each_language() -> None:
    rng = np.random.default_rng(0)
    probabilities = rng.uniform(size=2000)
    answerable = np.ones(2000, dtype=bool)
    languages = np.array(["zh", "en"] * 1000)
    found = thresholds_for(probabilities, answerable, languages, 0.05, np.ones(2000))
    for language in ("zh", "en"):
        scores = probabilities[languages == language]
        assert (scores < found[language]).mean() <= 0.05


def test_each_view_of_the_corpora_has_its_own_english_threshold() -> None:
    # the rendered view's answerable questions score high, the glossed view's lower: on their mix a
    # threshold declines more of the glossed ones than the rate and fewer of the rendered ones
    rng = np.random.default_rng(1)
    probabilities = np.concatenate([rng.uniform(0.5, 1.0, 1000), rng.uniform(0.0, 1.0, 1000)])
    views = np.array(["rendered"] * 1000 + ["glossed"] * 1000)
    answerable, languages, weights = np.ones(2000, dtype=bool), np.array(["en"] * 2000), np.ones(2000)
    mixed = thresholds_for(probabilities, answerable, languages, 0.05, weights)["en"]
    found = thresholds_per_view(probabilities, answerable, languages, 0.05, weights, views)
    each = thresholds_of(found, languages, views)
    for view in ("glossed", "rendered"):
        mine = views == view
        assert (probabilities[mine] < each[mine]).mean() <= 0.05
        assert (probabilities[mine] < each[mine]).mean() > 0.04  # each view spends its own rate
    assert (probabilities[views == "glossed"] < mixed).mean() > 0.05
    assert found["en"] == min(found["en/glossed"], found["en/rendered"]) < found["en/rendered"]


def example(labels: list[bool]) -> Example:
    return Example("q", "a", "xquad", "zh", "in", np.zeros((len(labels), 1)), np.array(labels), np.zeros(8))


def test_the_second_ratio_is_where_seconds_stop_helping() -> None:
    # second holds the answer (best doesn't) when the two are close; far behind, never
    close = [(example([False, True]), np.array([0.5, 0.45]))] * 10
    far = [(example([True, False]), np.array([0.9, 0.1]))] * 40
    examples, probabilities = zip(*(close + far), strict=True)
    ratio = second_ratio_for(list(examples), list(probabilities))
    assert ratio == 0.9


def test_weights_decide_the_threshold() -> None:
    probabilities = np.array([0.1, 0.2, 0.3, 0.4])
    answerable = np.ones(4, dtype=bool)
    languages = np.array(["zh"] * 4)
    light_first = thresholds_for(probabilities, answerable, languages, 0.25, np.array([1.0, 1.0, 1.0, 1.0]))
    heavy_first = thresholds_for(probabilities, answerable, languages, 0.25, np.array([10.0, 1.0, 1.0, 1.0]))
    assert light_first["zh"] == 0.2 and heavy_first["zh"] == 0.1


def test_a_handful_of_questions_cannot_weigh_as_much_as_a_kind_of_question() -> None:
    from index.train.trees import FULL_GROUP, question_weights

    def asked(language: str, n: int) -> list[Example]:
        return [Example("q", "a", "cmrc", language, "in", np.zeros((1, 1)), np.ones(1, bool), np.zeros(8))] * n

    many, one = asked("zh", 2 * FULL_GROUP), asked("en", 1)
    weights = question_weights(many + one, lambda e: (e.language,))
    assert np.isclose(weights[-1] * FULL_GROUP, weights[: len(many)].sum())  # a full group weighs FULL_GROUP times it
    full = question_weights(many + asked("en", FULL_GROUP), lambda e: (e.language,))
    assert np.isclose(full[: len(many)].sum(), full[len(many) :].sum())  # full groups share the source evenly


def test_the_near_topic_threshold_takes_what_the_other_gate_leaves_of_the_rate() -> None:
    """Both gates together decline at most the rate of answerable questions: the near-topic gate's
    threshold stops where its declines and those the off-topic gate made add up to it."""
    near = np.array([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0])
    answerable = np.ones(10, dtype=bool)
    languages = np.array(["en"] * 10)
    alone = thresholds_for(near, answerable, languages, 0.2, np.ones(10), np.zeros(10, bool))
    assert alone["en"] == 0.3  # declines 0.1 and 0.2
    elsewhere = np.zeros(10, bool)
    elsewhere[9] = True  # the other gate already declines one the near gate would answer
    assert thresholds_for(near, answerable, languages, 0.2, np.ones(10), elsewhere)["en"] == 0.2
    overlap = np.zeros(10, bool)
    overlap[0] = True  # ... or one it declines too: no cost
    assert thresholds_for(near, answerable, languages, 0.2, np.ones(10), overlap)["en"] == 0.3
    assert thresholds_for(near, ~answerable, languages, 0.2, np.ones(10), elsewhere)["zh"] == 0.0


def test_the_hedge_margin_marks_at_most_the_rate_of_right_answers() -> None:
    """Right answers (answered, the best candidate holds it) under the margin are at most
    HEDGE_RIGHT_RATE of them; declined questions (margin < 0) and wrong answers don't count."""
    from index.train.fit import HEDGE_RIGHT_RATE, hedge_margins_for

    rng = np.random.default_rng(1)
    margins = rng.normal(loc=1.0, scale=2.0, size=4000)
    right = rng.uniform(size=4000) < 0.6
    languages = np.array(["zh", "en"] * 2000)
    sources = np.array(["xquad"] * 4000)
    found = hedge_margins_for(margins, right, languages, np.ones(4000), sources)
    for language in ("zh", "en"):
        mine = (languages == language) & right & (margins >= 0)
        assert (margins[mine] < found[language]).mean() <= HEDGE_RIGHT_RATE
        assert (margins[mine] < found[language]).mean() > HEDGE_RIGHT_RATE - 0.02  # as high as the rate allows
        assert found[language] > 0


def test_the_hedge_margin_holds_the_rate_in_every_source() -> None:
    """A source whose right answers sit closer to the thresholds sets the margin for all: pooled
    with one whose right answers are far above them, it would be marked more than the rate."""
    from index.train.fit import HEDGE_RIGHT_RATE, hedge_margins_for

    rng = np.random.default_rng(2)
    margins = np.concatenate([rng.uniform(0, 4, size=1000), rng.uniform(3, 10, size=3000)])
    sources = np.array(["xquad"] * 1000 + ["cmrc"] * 3000)
    languages = np.array(["zh"] * 4000)
    right, weights = np.ones(4000, dtype=bool), np.ones(4000)
    found = hedge_margins_for(margins, right, languages, weights, sources)["zh"]
    assert (margins[sources == "xquad"] < found).mean() <= HEDGE_RIGHT_RATE
    pooled = hedge_margins_for(margins, right, languages, weights, np.array(["all"] * 4000))["zh"]
    assert (margins[sources == "xquad"] < pooled).mean() > HEDGE_RIGHT_RATE  # what pooling would have done
    few = hedge_margins_for(margins[:10], right[:10], languages[:10], weights[:10], sources[:10])
    assert few == {"zh": 0.0, "en": 0.0}  # under a group's worth of right answers: no margin from them
