"""index/english/renderings.py: a rendering is checked by what its quantities mean, not how they are written."""

from __future__ import annotations

import pytest

from index.english.renderings import problems


@pytest.mark.parametrize(
    ("source", "rendering"),
    [
        ("超过七成经历过至少一次官方降价。", "More than 70% have been cut in price at least once."),
        ("不少车企给供应商的付款周期长达180天以上。", "Many carmakers pay suppliers after over 180 days."),
        ("利润率从2022年的5.7%下滑到2025年的4.1%。", "The margin fell from 5.7% in 2022 to 4.1% in 2025."),
        ("我和几位零部件供应商聊过。", "I talked to several parts suppliers."),
    ],
)
def test_a_faithful_rendering_passes(source: str, rendering: str) -> None:
    assert problems(source, rendering, "en") == []


def test_a_share_left_out_is_found() -> None:
    found = problems("其中中国公司出品的App占到了七成以上。", "Chinese companies made most of these apps.", "en")
    assert found == ["number missing or changed: 七成"]
