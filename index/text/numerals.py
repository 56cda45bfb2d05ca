"""Chinese numerals as numbers: 二十五 → 25, 六十三点二 → 63.2, and two digits said together as an
estimate (两三, 五六十: "two or three", "fifty or sixty"). Pure functions."""

from __future__ import annotations

from decimal import Decimal

ZH_DIGITS = {
    "零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9,
}  # fmt: skip
ZH_UNITS = {"十": 10, "百": 100, "千": 1000}


def zh_number(text: str) -> Decimal | None:
    """A Chinese numeral with its decimals: 六十三点二 → 63.2."""
    whole, _, decimals = text.partition("点")
    value = zh_numeral(whole)
    if value is None or any(c not in ZH_DIGITS for c in decimals):
        return None
    return Decimal(f"{value}.{''.join(str(ZH_DIGITS[c]) for c in decimals)}") if decimals else Decimal(value)


def zh_numeral(text: str) -> int | None:
    """二十五 → 25, 一百 → 100, 三 → 3, 两千 → 2000; None for what is not a numeral."""
    if not text:
        return None
    if any(c not in ZH_DIGITS and c not in ZH_UNITS for c in text):
        return None
    if all(c in ZH_DIGITS for c in text):  # 二〇二六, 三
        return int("".join(str(ZH_DIGITS[c]) for c in text))
    total, digit = 0, None
    for char in text:
        if char in ZH_DIGITS:
            digit = ZH_DIGITS[char]
        else:
            total += (1 if digit is None else digit) * ZH_UNITS[char]
            digit = None
    return total + (digit or 0)


def neighbours(numeral: str) -> bool:
    """Two neighbouring digits said together (两三, 五六十): "two or three", "fifty or sixty", not 23 or 60."""
    head, rest = numeral[:2], numeral[2:]
    if len(head) != 2 or not all(c in ZH_DIGITS for c in head) or not all(c in ZH_UNITS for c in rest):
        return False
    first, second = (ZH_DIGITS[c] for c in head)
    return first > 0 and second == first + 1


__all__ = ["ZH_DIGITS", "ZH_UNITS", "neighbours", "zh_number", "zh_numeral"]
