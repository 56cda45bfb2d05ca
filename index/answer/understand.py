"""The understand step: what a question is before anything is searched — its language, its words as
the corpus writes dates, whether it is small talk or about the article itself, which earlier
questions of the conversation it leans on, and the part of the article it points at.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from index.answer.about import is_author_question, is_meta_question, is_overview_question
from index.answer.followup import asks_only_for_more, leans_on_context, refers_back
from index.answer.smalltalk import SmallTalk, small_talk
from index.models import Conversation
from index.retrieve.references import ItemReference, SectionReference, item_reference, section_reference
from index.text.dates import chinese_dates
from index.text.language import QuestionError, asked_language, validate_question
from index.text.tokens import tokenize

Kind = Literal["content", "small_talk", "meta", "overview"]


@dataclass(frozen=True)
class Query:
    asked: str  # the question as cleaned, shown back to the asker
    text: str  # as searched and answered: dates as the corpus writes them; a "tell me more"'s subject
    language: str
    tokens: tuple[str, ...]
    earlier: tuple[str, ...]  # the conversation questions it leans on (oldest first); () when asked afresh
    more: bool  # it asks only for more of the answer before ("详细说说", "why?")
    kind: Kind
    talk: SmallTalk | None = None
    section: SectionReference | None = None  # "per the conclusion", 第三部分
    item: ItemReference | None = None  # "the 2nd lesson", 第三点
    said: tuple[str, ...] = ()  # what the previous answer quoted, when this one names it by a pronoun
    demonstratives: bool = False  # "that" / "those" / 这种 point back too (followup.refers_back)
    after_article: bool = False  # the questions before it asked about the article itself (who wrote it)

    @property
    def search_tokens(self) -> list[str]:
        """Its tokens, and those of the questions it leans on."""
        extra = [t for line in self.earlier for t in tokenize(line)]
        return list(self.tokens) + [t for t in dict.fromkeys(extra) if t not in self.tokens]

    @property
    def recalls(self) -> bool:
        """It leans on what was answered, not only on what was asked: "why that much?", "他后来去了哪"
        ("why?" alone is asked as the question before, widened)."""
        return bool(self.earlier) and not self.more and self.refers_back

    @property
    def pronoun_tokens(self) -> list[str]:
        """The words that say what it asks about: a pronoun stands for the earlier question's subject."""
        return self.search_tokens if self.earlier and self.refers_back else list(self.tokens)

    @property
    def refers_back(self) -> bool:
        return refers_back(self.text, self.demonstratives)


def clean_conversation(conversation: Conversation | str | None) -> tuple[str, ...]:
    """The earlier questions cleaned as questions are (one that is left empty, an emoji say, is dropped).
    A string is taken as one question per line."""
    lines = conversation.split("\n") if isinstance(conversation, str) else list(conversation or ())
    cleaned = []
    for line in lines:
        try:
            cleaned.append(chinese_dates(validate_question(line)))
        except QuestionError:
            continue
    return tuple(cleaned)


def understand(
    raw_question: str,
    conversation: Conversation | str | None = None,
    titles: Sequence[str] = (),
    authors: Sequence[str] = (),
    demonstratives: bool = False,
) -> Query:
    """Raises QuestionError for unusable input (empty, too long, no words). ``demonstratives``: "that" /
    "those" / 这种 point at the question before too (followup.refers_back)."""
    asked = validate_question(raw_question)
    language = asked_language(asked)
    text = chinese_dates(asked)  # searched and answered as the corpus writes dates: "May 18" → "5 月 18 日"
    tokens = tokenize(text)
    earlier = clean_conversation(conversation)
    more = bool(earlier) and asks_only_for_more(tokens)
    if more:
        # "tell me more" / "why?" has no subject of its own: it is asked as the latest earlier question
        # that has one
        text, earlier = _latest_subject(text, earlier)
        tokens = tokenize(text)
    after_article = bool(earlier) and not more and all(_about_the_article(line, titles) for line in earlier)
    if after_article:
        earlier = ()  # "Who wrote this piece?" gives a later question no subject
    if earlier and not (leans_on_context(text, tokens, demonstratives) or item_reference(text)):
        earlier = ()  # a question with a subject of its own is asked afresh (index/answer/followup.py)
    talk = small_talk(text)
    kind: Kind = "content"
    if talk is not None:
        kind = "small_talk"
    elif is_meta_question(text, titles) or is_author_question(text, list(authors)):
        kind = "meta"
    elif is_overview_question(text):
        kind = "overview"
    return Query(
        asked=asked,
        text=text,
        language=language,
        tokens=tuple(tokens),
        earlier=earlier,
        more=more,
        kind=kind,
        talk=talk,
        section=section_reference(text),
        item=item_reference(text),
        demonstratives=demonstratives,
        after_article=after_article,
    )


def _about_the_article(question: str, titles: Sequence[str]) -> bool:
    return is_meta_question(question, titles) or is_overview_question(question)


def _latest_subject(question: str, earlier: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """The latest earlier question with a subject of its own, and the questions before it."""
    for at in range(len(earlier) - 1, -1, -1):
        if not asks_only_for_more(tokenize(earlier[at])):
            return earlier[at], earlier[:at]
    return question, earlier
