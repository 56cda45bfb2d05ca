"""After the check says Yes: the model's short answer from the same excerpts, and what in it no excerpt
states.

Asked about a detail the article doesn't give (how many tokens, which algorithm, how many weeks), a
1.5B model reading passages on the topic says Yes to the check, and asked to answer it makes the
detail up: "1000", "GRPO", "10 weeks". A number whose value no excerpt states or works out, or a name
no excerpt holds in any form, is such a made-up answer, and the question is declined. Only values
are compared, never what a number is said of or its qualifier: a right answer put tersely ("63.2%
64.8%" for 63.2%（最高 64.8%）) must not look made up. A reply that says nothing checkable, or
NONE, leaves the check's Yes standing: the model says NONE to answerable questions too often.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from index.generate.cut import written
from index.generate.placement import stated_numbers
from index.text.bounds import same_quantity
from index.text.derived import item_counts, lone_numerals, worked_out
from index.text.numbers import Quantity, quantities

if TYPE_CHECKING:
    from index.generate.grounding import Grounding

MAX_TOKENS = 24  # a figure, a name or a short phrase; a long reply is cut, and read as far as it goes

SYSTEM = (
    "You answer a question from a passage of an article, in a few words: the exact figure, name, date or short "
    "phrase the passage gives. If the passage does not state what the question asks for, reply exactly NONE."
)

log = logging.getLogger("index.generate.invented")


def short_answer_messages(question: str, passages: Sequence[str]) -> list[dict[str, str]]:
    """The request: the check's excerpts (blank-line apart), then the question. A request of its own:
    asked as the check's next turn, after its Yes, the model answered with any figure of the excerpts
    ("600" of 600 亿) and told fewer made-up answers (near_pairs_dev, docs/evaluation.md)."""
    source = "\n\n".join(passages)
    user = f"Passage:\n{source}\n\nQuestion: {question}\n\nShort answer (or NONE):"
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]


def short_answer(client: Any, model: str, question: str, passages: Sequence[str], timeout: float) -> str | None:
    """The model's answer in a few words, or None when the endpoint failed (the check's Yes stands)."""
    try:
        reply = client.chat.completions.create(
            model=model,
            messages=short_answer_messages(question, passages),
            max_tokens=MAX_TOKENS,
            temperature=0.0,
            timeout=timeout,
        )
        return str(reply.choices[0].message.content or "")
    except Exception as error:  # the endpoint's trouble leaves the check's verdict
        log.warning("short answer unavailable (%s)", type(error).__name__)
        return None


def invented(reply: str, passages: Sequence[str], grounding: Grounding) -> list[str]:
    """The numbers and codes of ``reply`` that no passage states: a number whose value no passage
    writes in any form (a year, a version, an amount: "74000 years" of 距今74000年) and that isn't
    worked out of theirs (a gap, a total, a count); an acronym or code (GRPO, MBH99) no passage
    holds. Other names are left alone: an English reply names in English what a Chinese passage
    names in Chinese."""
    lines = reply.strip().splitlines()
    said = written(lines[0]) if lines else ""
    if not said or said.upper().startswith("NONE"):
        return []
    texts = [written(text) for text in passages]
    known = [k for text in texts for k in stated_numbers(text)]
    found_there = [q for text in texts for q in quantities(text)]
    values = {v for q in found_there for v in _values(q)}
    counts = frozenset().union(*(item_counts(text) for text in texts))
    numerals = frozenset().union(*(lone_numerals(text) for text in texts))
    found = [
        m.quantity.text
        for m in stated_numbers(said, texts)
        if not m.quantity.spelled
        and not set(_values(m.quantity)) & values
        and not any(same_quantity(m.quantity, k.quantity) for k in known)
        and not worked_out(m, known, counts, numerals)
    ]
    codes = [name for name in grounding.names(said) if len(re.findall(r"[A-Z]", name)) >= 2]
    return found + [name for name in codes if not grounding.name_supported(name, texts)]


def _values(quantity: Quantity) -> list[Decimal]:
    """What a quantity's value may be written as, whatever its kind: its value, its digits as written
    (600 of 600 亿) and a date's year and day."""
    found = [quantity.value] if quantity.value is not None else []
    found += [Decimal(v) for v in (quantity.year, quantity.day) if v is not None]
    digits = re.search(r"\d[\d,]*(?:\.\d+)?", quantity.text)
    return found + ([Decimal(digits.group().replace(",", ""))] if digits else [])


__all__ = ["MAX_TOKENS", "SYSTEM", "invented", "short_answer", "short_answer_messages"]
