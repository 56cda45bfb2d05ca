"""The one question-answering path, shared by the CLI and the bot.

An Engine holds the embedder, the answer model and the live index version. ``ask`` is a short
pipeline of named steps (index/answer/): understand the question → retrieve → candidates →
score → decide → compose. ``reload_if_changed`` swaps in a newly built version atomically: a
question in flight keeps the snapshot it started with.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from index.answer import about
from index.answer.candidates import PASSAGES, candidates
from index.answer.compose import choose, compose, in_asker_language, nearest_sections, whole_list, widen, with_heading
from index.answer.decide import retrieval_evidence
from index.answer.decline import decline_text, unmentioned
from index.answer.english_line import english_section, lexicon_of, translated_line
from index.answer.features import candidate_matrix, question_terms
from index.answer.figures import says_another_thing
from index.answer.followup import own_words_held, points_back, points_by_determiner
from index.answer.messages import message
from index.answer.model import AnswerModel, load_model
from index.answer.passages import cited_first, empty_result, retrieved
from index.answer.question_kind import ABOUT_FILE, KindModel, load_kinds
from index.answer.question_type import opens_with_pronoun
from index.answer.smalltalk import small_talk_reply
from index.answer.steps import Examined, asks_for_list, decide, extend, learned_kind, rank
from index.answer.understand import Conversation, Query, understand
from index.answer.units import list_item
from index.answer.vectors import QueryVectors
from index.answer.warm import warm_questions
from index.build.embedding import Embedder, get_embedder
from index.build.loading import load_current, load_version
from index.build.store import StoredIndex
from index.build.versions import current_version
from index.config import IndexSettings
from index.english.dictionary import stem
from index.errors import IndexLoadError
from index.generate.answer import PartialHandler, checked, generated
from index.generate.settings import LLMSettings
from index.models import AskResult, SearchResult
from index.retrieve.references import named_section, referenced_chunks
from index.retrieve.retriever import Mode, RetrievalParams, Retriever, SearchOutcome
from index.text.tokens import tokenize
from index.text.tokens import warm_up as warm_up_tokenizer

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Snapshot:
    """Everything one question needs from one index version."""

    stored: StoredIndex
    retriever: Retriever

    @property
    def version(self) -> str:
        return self.stored.version


class Engine:
    def __init__(
        self,
        settings: IndexSettings,
        embedder: Embedder | None = None,
        params: RetrievalParams | None = None,
        llm: LLMSettings | None = None,
        model: AnswerModel | None = None,
    ) -> None:
        self.settings = settings
        self.params = params or RetrievalParams()
        self.embedder = embedder or get_embedder(settings.model)
        self._model = model
        self._snapshot: Snapshot | None = None
        self._lock = threading.Lock()
        self._rejected: str | None = None  # a broken version already reported
        self.vectors = QueryVectors(self.embedder, self.params.translation_weight)
        self.generator = None  # index.generate.generator.Generator when LLM_* is configured
        if llm is not None and llm.enabled:
            from index.generate.generator import Generator  # imports openai: only when configured

            self.generator = Generator(llm)

    # -- loading and hot reload -------------------------------------------------------
    @property
    def snapshot(self) -> Snapshot:
        if self._snapshot is None:
            with self._lock:
                if self._snapshot is None:
                    self._snapshot = self._prepare(load_current(self.settings.index_dir, self.embedder.id))
        return self._snapshot

    def _prepare(self, stored: StoredIndex) -> Snapshot:
        return Snapshot(stored, Retriever(stored, self.params))

    def load_version(self, path: Path) -> Snapshot:
        """Load and validate a version without serving it (IndexLoadError if it is broken)."""
        return self._prepare(load_version(path, self.embedder.id))

    def swap(self, snapshot: Snapshot) -> None:
        with self._lock:
            self._snapshot = snapshot

    def reload_if_changed(self) -> str | None:
        """Serve the version CURRENT names if it is new; returns it, or None if nothing changed.
        A broken new version raises IndexLoadError once (later calls ignore it until CURRENT
        changes again) and the old one keeps serving."""
        version = current_version(self.settings.index_dir)
        if version is None or version == self._rejected:
            return None
        if self._snapshot is not None and self._snapshot.version == version:
            return None
        try:
            snapshot = self.load_version(self.settings.index_dir / "versions" / version)
        except IndexLoadError:
            self._rejected = version
            raise
        self.swap(snapshot)
        return version

    def warm_up(self) -> None:
        """Load the index, the model (with its trees' leaf masks), the tokenizer, the stemmer and
        the English line's lexicon, embed the glossary's words and ask a question in each language
        made from the corpus (answer/warm.py), so that the first question is as fast as the rest
        (and a burst of first questions doesn't make them all at once). A hot-reloaded version
        makes its lexicon at its first English answer."""
        stored = self.snapshot.stored
        self.model.prepare()
        warm_up_tokenizer()
        stem("warm")  # Snowball's stemmer, which English questions' words go through
        lexicon = lexicon_of(stored)  # the English line's words
        self.embedder.encode_queries(["warm-up"])
        if self.params.translation_weight > 0:
            self.vectors.learn([w for words in stored.glossary.values() for w in words])
        # the whole path, once per language
        for question in warm_questions(stored, lexicon, self.snapshot.retriever.lexical):
            self.ask(question, use_llm=False)

    @property
    def model(self) -> AnswerModel:
        """The answer model: the one given, else the package's (read on first use, then kept: each
        question reads it several times)."""
        if self._model is None:
            self._model = load_model()
        return self._model

    @property
    def loaded(self) -> bool:
        return self._snapshot is not None

    # -- questions --------------------------------------------------------------------
    def search(self, raw_question: str, k: int | None = None, mode: Mode = "hybrid") -> SearchResult:
        snapshot = self.snapshot
        query = understand(raw_question)
        examined = self.examine(snapshot, query, k or self.settings.top_k, mode, describe=False)
        return SearchResult(question=query.asked, passages=retrieved(snapshot.stored, examined.outcome, k))

    def ask(
        self,
        raw_question: str,
        k: int | None = None,
        context: Conversation | str | None = None,
        mode: Mode = "hybrid",
        use_llm: bool = True,
        on_partial: PartialHandler | None = None,
        demonstratives: bool = False,
        *,
        weigh_reading: bool = True,
    ) -> AskResult:
        """Answer a question; ``context``: the earlier questions of its conversation, oldest first
        (a string: one per line). ``on_partial`` receives a generated answer's text as it streams.
        ``weigh_reading``: a question pointing only by 这个 / 那个 may be read alone (_reading).
        Raises QuestionError for unusable input (empty, too long, no words)."""
        if weigh_reading and context and points_by_determiner(raw_question, tokens := tokenize(raw_question)):
            context = self._reading(raw_question, tokens, k, context, mode)
        started = time.perf_counter()
        snapshot = self.snapshot
        stored = snapshot.stored
        k = k or self.settings.top_k
        query = self.recall(snapshot, self.understand(stored, raw_question, context, demonstratives), k, mode)
        examined = self.examine(snapshot, query, k, mode)
        query, t2 = self.routed(examined, alone=not context), time.perf_counter()
        result = empty_result(query, stored, retrieved(stored, examined.outcome, k))
        if query.kind == "small_talk" and query.talk is not None:  # "hi" / "谢谢": no passage to quote
            result.abstained, result.kind = True, "abstained"
            result.answer = small_talk_reply(query.talk, _titles(stored), query.language)
        elif query.kind in ("meta", "overview"):
            answer = about.meta_answer if query.kind == "meta" else about.overview
            result.answer, result.citations, result.translated = answer(stored, query.language)
            result.kind = "overview"
            result.passages = cited_first(result.passages, stored, result.citations)
        else:
            ranked = rank(self.model, examined)
            best, llm = [s for s, _ in ranked], self.generator if use_llm else None
            answers = bool(ranked)  # a question pointing at a part of the article that exists is about it
            chosen: list[int] = []  # the answer's sentences, chosen once the gates let the question through
            if not examined.pointed:
                decision = decide(self.model, examined, ranked)
                answers, result.confidence = answers and decision.answers, round(decision.confidence, 4)
                chosen = self.chosen(stored, examined, ranked) if answers else []
                # no figure for a how-many question, or another version's: the paragraph asked about is missing
                answers = answers and not says_another_thing(stored, chosen, query.text, learned_kind(examined.kinds))
                if answers and llm is not None and llm.settings.check:
                    answers = checked(llm, result, stored, best, query)
                result.hedged = answers and not decision.sure  # never on a decline
            if not answers and context and not query.earlier and not query.demonstratives and points_back(query.text):
                # declined as a question of its own, it says "that": asked again as a follow-up
                return self.ask(raw_question, k, context, mode, use_llm, on_partial, True, weigh_reading=False)
            if not answers:
                result.abstained, result.kind = True, "abstained"
                result.nearest_sections = nearest_sections(stored, [h.chunk for h in examined.outcome.hits])
                missing = unmentioned(query.text, examined.terms)
                named = [s if query.language == "zh" else english_section(stored, s) for s in result.nearest_sections]
                result.answer = decline_text(query.language, named, missing)
            else:
                chosen = chosen or self.chosen(stored, examined, ranked)
                result.answer, result.citations = compose(stored, chosen, query.language, query.asked)
                result.translated = query.language != "zh" and translated_line(stored, chosen) is not None
                result.passages = cited_first(result.passages, stored, result.citations)
                if llm is not None and llm.settings.write:
                    result = generated(llm, result, stored, best, on_partial, query)
                if result.hedged:
                    result.answer += "\n" + message("answer.unsure", query.language)
        result.timings_ms = result.timings_ms | _timings(started, examined.seconds, t2, time.perf_counter())
        return result

    def chosen(self, stored: StoredIndex, examined: Examined, ranked: list[tuple[int, float]]) -> list[int]:
        """The sentences of the answer: the best one's unit, what the question's kind asks with it."""
        # an item pointed at ("the 3rd thing") is the whole answer: no second sentence joins it
        ratio = self.model.second_ratio if examined.item is None else float("inf")
        chosen = choose(stored, ranked, ratio, extend(self.model, examined, ranked))
        if examined.item is None and asks_for_list(examined):
            chosen = whole_list(stored, chosen)
        query = examined.query
        chosen = with_heading(stored, widen(stored, chosen) if query.more else chosen)
        return in_asker_language(stored, chosen, query.language)

    def _reading(
        self, raw_question: str, tokens: list[str], k: int | None, context: Conversation | str, mode: Mode
    ) -> Conversation | str | None:
        """The conversation a question pointing by 这个 / 那个 is read in: none when, asked alone, the
        passages its answer cites hold more of its own words (``tokens``) than as a follow-up
        ("论坛那个帖子…" after a question on scores means the article's forum post)."""
        held = [
            -1.0 if r.abstained else own_words_held(tokens, [p.text for p in r.passages if p.chunk_id in cited])
            for r in (self.ask(raw_question, k, c, mode, False, weigh_reading=False) for c in (context, None))
            for cited in [{c.chunk_id for c in r.citations}]
        ]
        return None if held[1] > held[0] else context

    @staticmethod
    def understand(
        stored: StoredIndex, raw_question: str, context: Conversation | str | None, demonstratives: bool = False
    ) -> Query:
        authors = [d.meta.author for d in stored.manifest.documents]
        return understand(raw_question, context, _titles(stored), authors, demonstratives)

    def recall(self, snapshot: Snapshot, query: Query, k: int, mode: Mode) -> Query:
        """A follow-up that says "that" or "he" carries what the answer before it quoted: the
        engine is deterministic, so that answer is found again from the conversation."""
        stored = snapshot.stored
        previous = self.question_before(stored, query)
        if previous is None:
            return query
        examined = self.examine(snapshot, previous, k, mode)
        ranked = rank(self.model, examined)
        if not ranked or not (examined.pointed or decide(self.model, examined, ranked).answers):
            return query  # the answer before declined: nothing was said
        chosen = choose(stored, ranked, self.model.second_ratio, extend(self.model, examined, ranked))
        return dataclasses.replace(query, said=tuple(stored.sentence_text(stored.sentences[s]) for s in chosen))

    def question_before(self, stored: StoredIndex, query: Query) -> Query | None:
        """The question a follow-up saying "that" or "he" leans on, when it asked about the article's
        content (None: nothing to recall)."""
        if not query.recalls:
            return None
        previous = self.understand(stored, query.earlier[-1], query.earlier[:-1])
        return previous if previous.kind == "content" else None

    def examine(self, snapshot: Snapshot, query: Query, k: int, mode: Mode, describe: bool = True) -> Examined:
        """Retrieve for a question and describe its candidate answers (the steps before scoring;
        training runs them too, index/train/fit.py); without ``describe``, only retrieve."""
        begun = time.perf_counter()
        stored, retriever = snapshot.stored, snapshot.retriever
        # a follow-up's own words say what it asks ("那价格呢？" → 价格), unless it says "it"
        terms = question_terms(retriever, query.text, query.pronoun_tokens, query.language)
        if query.earlier and terms.absent and not query.refers_back:
            # bringing words no passage has in any form ("那明天天气呢？"), it asks about something
            # new: judged on its own, not as the conversation's topic (its terms stay its own words)
            query = dataclasses.replace(query, earlier=(), more=False)
        t0 = time.perf_counter()
        steered, own, plain = self.vectors.of(query, snapshot.retriever)
        t1 = time.perf_counter()
        focus = referenced_chunks(stored, query.section) if query.section else None
        if focus:  # a section the question names by its heading is meant more surely than one by position
            named = named_section(stored, frozenset().union(*terms.groups))
            focus = named if named and not set(named) & set(focus) else focus
        tokens = query.search_tokens
        n = max(k, PASSAGES)
        outcome = retriever.search(steered, tokens, n, mode, query.language, focus, plain)
        item = None
        if query.item is not None and focus is None and mode == "hybrid":
            # "the 2nd lesson": the item of the list the question retrieves; a second search puts its passage first
            ranked = sorted(outcome.sentence_scores, key=lambda s: -outcome.sentence_scores[s])
            nouns = retriever.expand(tokenize(query.item.noun)) or [query.item.noun]
            item = list_item(
                stored, [s for s in ranked if s in _sentences_of(stored, outcome)], query.item.position, nouns
            )
            if item is not None:
                focus = [stored.sentences[item].chunk]
                outcome = retriever.search(steered, tokens, n, mode, query.language, focus, plain)
        found = candidates(stored, outcome) if describe else []
        if focus and found:  # asked about a part of the article, the answer comes from that part
            pointed = set(focus)
            found = [c for c in found if stored.sentences[c.sentence].chunk in pointed] or found
        matrix = candidate_matrix(stored, outcome, found, terms, query.text, query.language)
        evidence = np.zeros(0, dtype=np.float32)  # retrieval only: no gate to read it
        if describe:
            passages = [stored.chunks[h.chunk].text for h in outcome.hits]
            evidence = retrieval_evidence(outcome, terms, stored.background, own, query.language, query.text, passages)
        seconds = (t1 - t0, time.perf_counter() - t1 + t0 - begun)  # embedding; search and the rest
        refers = tuple(opens_with_pronoun(stored.sentence_text(stored.sentences[c.sentence])) for c in found)
        kinds = self.kinds.shares(own, query.text) if describe and self.kinds is not None else None
        return Examined(
            query, outcome, found, matrix, terms, evidence, item, bool(focus), seconds, own, stored.english_view,
            refers, kinds,
        )  # fmt: skip

    @cached_property
    def kinds(self) -> KindModel | None:
        """The package's question-kind model, read once as the answer model is (None: there is none)."""
        return load_kinds()

    @cached_property
    def about_kinds(self) -> KindModel | None:
        """The package's model of questions about the article itself (None: the patterns alone)."""
        return load_kinds(ABOUT_FILE)

    def routed(self, examined: Examined, alone: bool) -> Query:
        """The question, taken as one about the article itself when the about model is sure of it
        and the patterns (answer/about.py) passed it over; one asked in a conversation (not ``alone``:
        "When was that blog post published?" after an answer about Cursor's blog), or pointing at a part
        of it ("How does the article end?": the part answers), keeps its kind."""
        query, model = examined.query, self.about_kinds
        if query.kind != "content" or not (alone or query.after_article) or examined.pointed or model is None:
            return query
        points = query.after_article and query.refers_back  # "她…" after "这篇文章是谁写的？": the article's author
        kind = about.learned_about(model.of(examined.vector, query.text), model.kinds, query.text, points)
        return dataclasses.replace(query, kind=kind) if kind else query


def _titles(stored: StoredIndex) -> list[str]:
    return [d.meta.title for d in stored.manifest.documents]


def _sentences_of(stored: StoredIndex, outcome: SearchOutcome) -> set[int]:
    return {s for hit in outcome.hits for s in stored.sentences_of(hit.chunk)}


def _timings(started: float, seconds: tuple[float, float], answered: float, done: float) -> dict[str, float]:
    embed, search = seconds
    return {
        "embed": round(embed * 1000, 2),
        "search": round(search * 1000, 2),
        "answer": round((done - answered) * 1000, 2),
        "total": round((done - started) * 1000, 2),
    }


__all__ = ["Engine", "Examined", "IndexLoadError", "Snapshot"]
