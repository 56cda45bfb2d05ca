"""The answer contract (`ask --json`, the bot): pydantic models at the boundary."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

# A follow-up's earlier questions, oldest first: what the bot and `chat` pass to Engine.ask.
Conversation = tuple[str, ...]


class Chunk(BaseModel):
    """A contiguous span of a document (``source[start:end] == text``): what is indexed and cited."""

    chunk_id: str
    doc_id: str
    section: str
    paragraphs: list[int]
    start: int
    end: int
    text: str


class Citation(BaseModel):
    n: int
    chunk_id: str
    doc_id: str
    section: str
    paragraphs: list[int]
    start: int  # offsets of the quoted sentence in the source document
    end: int
    quote: str


class Passage(Chunk):
    """A retrieved chunk: its rank among the question's passages and the score that ranked it."""

    rank: int
    score: float


class SourceInfo(BaseModel):
    doc_id: str
    title: str
    author: str
    date: str


class AskResult(BaseModel):
    question: str
    answer: str
    abstained: bool
    language: str
    citations: list[Citation] = Field(default_factory=list)
    passages: list[Passage] = Field(default_factory=list)
    timings_ms: dict[str, float] = Field(default_factory=dict)
    kind: Literal["extractive", "overview", "abstained", "generative"] = "extractive"
    generator: str = "extractive"  # "extractive" or "llm:<model>": which path wrote the answer
    # with an LLM configured: "shown" (its answer is the answer), "abstained", or why it was not used
    # ("ungrounded: number not in the cited passages: …", "timeout: …"); None when none was asked
    generation: str | None = None
    nearest_sections: list[str] = Field(default_factory=list)
    sources: list[SourceInfo] = Field(default_factory=list)
    index_version: str = ""
    # how sure the answer model's gates are that the article answers it (the lower of their two
    # probabilities; an answer's gates passed their thresholds, a decline's did not); None where no
    # gate judged (small talk, an overview, a question pointing at a part of the article)
    confidence: float | None = None
    # answered, but a gate passed by less than the model's hedge margin: the answer ends saying it may
    # not be one (out of fold most such answers are wrong; at most one right answer in ten is marked,
    # in each source of training questions)
    hedged: bool = False
    # an English asker's answer opens with the cited sentences' verified translation (made once per
    # corpus by `python -m index enrich`) or their own English, not a word-for-word rendering
    translated: bool = False


class SearchResult(BaseModel):
    question: str
    passages: list[Passage]
