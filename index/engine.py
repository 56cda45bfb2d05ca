"""The one question-answering path, shared by the CLI and the bot.

An Engine holds the embedder and the live index version. ``ask`` cleans the question, embeds it,
retrieves passages, and composes an extractive answer or abstains. ``reload_if_changed`` swaps
in a newly built version atomically: a question in flight keeps the snapshot it started with.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from index import answer as answers
from index import lexical
from index.abstain import SUBJECT_SHARE, Evidence, only_the_subject_matches, should_abstain, specific_names
from index.chunking import Chunk
from index.config import IndexSettings
from index.dates import chinese_dates
from index.embedding import Embedder, get_embedder
from index.followup import asks_only_for_more, leans_on_context, refers_back
from index.lexical import tokenize
from index.llm_settings import LLMSettings
from index.models import AskResult, Citation, Passage, SearchResult, SourceInfo
from index.retrieval import Hit, Mode, RetrievalParams, Retriever, SearchOutcome
from index.smalltalk import small_talk, small_talk_reply
from index.store import IndexLoadError, StoredIndex, current_version, load_current, load_version
from index.structure import item_reference, referenced_chunks, section_reference
from index.text import QuestionError, detect_language, truecase, validate_question, without_attribution

log = logging.getLogger(__name__)
CONTEXT_WEIGHT = 0.5  # how much a follow-up's previous question steers retrieval
PartialHandler = Callable[[str], None]


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
        answer_params: answers.AnswerParams | None = None,
        llm: LLMSettings | None = None,
    ) -> None:
        self.settings = settings
        self.params = params or RetrievalParams()
        self.answer_params = answer_params or answers.AnswerParams()
        self.embedder = embedder or get_embedder(settings.model)
        self._snapshot: Snapshot | None = None
        self._lock = threading.Lock()
        self._rejected: str | None = None  # a broken version already reported
        self._word_vectors: dict[str, np.ndarray] = {}  # glossary word → its query vector
        self._words_lock = threading.Lock()
        self.generator = None  # index.generate.Generator when LLM_* is configured
        if llm is not None and llm.enabled:
            from index.generate import Generator  # imports openai: only when configured

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
        """Load the index, the model and the tokenizer, and embed the glossary's words, so that
        the first question is as fast as the rest (and a burst of first questions doesn't make
        them all at once)."""
        stored = self.snapshot.stored
        lexical.warm_up()
        self.embedder.encode_queries(["warm-up"])
        if self.params.translation_weight > 0:
            self._learn_words([w for words in stored.glossary.values() for w in words])

    @property
    def loaded(self) -> bool:
        return self._snapshot is not None

    # -- questions --------------------------------------------------------------------
    def _query_vectors(
        self, question: str, tokens: list[str], context: str | None, retriever: Retriever, language: str
    ) -> tuple[np.ndarray, np.ndarray]:
        """The vector retrieval uses, and the question's own (with its follow-up context).

        A non-Chinese question's vector is steered toward the mean vector of the corpus words
        that translate it (retrieval.RetrievalParams.translation_weight); abstention keeps judging
        the question's own vector, on which it was calibrated. Word vectors are kept (the
        glossary has a few hundred words): a word is embedded once, beside the first question
        that needs it, so steering costs no encoder time once the words are known."""
        # in a Chinese question a Latin word is a name, and e5 reads "cursor" and "Cursor" as different
        # tokens: write it as the article does (measured: English questions lose by it). An English
        # one's "according to the article" pulled the article's opinion passages (text.py)
        question = truecase(question, retriever.written_form) if language == "zh" else without_attribution(question)
        if context and detect_language(context) == "zh":
            context = truecase(context, retriever.written_form)
        weight = self.params.translation_weight
        words = retriever.translation(tokens) if language != "zh" and weight > 0 else []
        missing = self._unknown(words)
        texts = [question, *([context] if context else []), *missing]
        vectors = self.embedder.encode_queries(texts)
        plain = _unit(vectors[0] + CONTEXT_WEIGHT * vectors[1] if context else vectors[0])
        if not words:
            return plain, plain
        self._remember(missing, vectors[len(texts) - len(missing) :])
        with self._words_lock:
            translated = _unit(np.mean([self._word_vectors[w] for w in words], axis=0))
        return _unit(plain + weight * translated), plain

    def _unknown(self, words: list[str]) -> list[str]:
        """The words (once each) whose vectors aren't kept yet."""
        with self._words_lock:
            return [w for w in dict.fromkeys(words) if w not in self._word_vectors]

    def _remember(self, words: list[str], vectors: np.ndarray) -> None:
        with self._words_lock:
            self._word_vectors.update(zip(words, vectors, strict=True))

    def _learn_words(self, words: list[str]) -> None:
        """Embed glossary words ahead of the questions that need them (warm_up)."""
        missing = self._unknown(words)
        if missing:
            self._remember(missing, self.embedder.encode_queries(missing))

    def _generate(
        self,
        result: AskResult,
        stored: StoredIndex,
        ranked: list[int],
        on_partial: PartialHandler | None = None,
        follows: str | None = None,
    ) -> AskResult:
        """A written answer from the configured LLM; the extractive one stays on any failure.
        With ``on_partial``, the answer streams and each partial text (at most one a second) is
        handed to it as it arrives; the result is the same as without. ``follows``: the earlier
        question(s) a follow-up leans on, which the model needs to read "他挖走了谁？"."""
        from index.generate import Done, Partial, apply_generated, sentence_quotes

        started = time.perf_counter()
        assert self.generator is not None
        question = result.question
        if follows:
            question += "\n(a follow-up to: " + " / ".join(follows.split("\n")) + ")"
        if on_partial is None:
            outcome = self.generator.generate(question, result.passages, result.language)
        else:
            outcome = None
            for event in self.generator.stream(question, result.passages, result.language):
                if isinstance(event, Partial):
                    try:
                        on_partial(event.text)
                    except Exception:  # a preview that can't be shown must not cost the answer
                        log.exception("showing a partial answer failed")
                elif isinstance(event, Done):
                    outcome = event.outcome
        result = apply_generated(result, outcome, sentence_quotes(stored, ranked))
        result.timings_ms["generate"] = round((time.perf_counter() - started) * 1000, 2)
        return result

    def search(self, raw_question: str, k: int | None = None, mode: Mode = "hybrid") -> SearchResult:
        asked = validate_question(raw_question)
        snapshot = self.snapshot
        language = detect_language(asked)
        question = chinese_dates(asked)  # searched as the article writes dates: "May 18" → "5 月 18 日"
        tokens = tokenize(question)
        vector, _ = self._query_vectors(question, tokens, None, snapshot.retriever, language)
        outcome, _, _ = self._retrieve(
            snapshot, question, vector, tokens, tokens, k or self.settings.top_k, mode, language
        )
        return SearchResult(question=asked, passages=_passages(snapshot.stored, outcome.hits))

    def ask(
        self,
        raw_question: str,
        k: int | None = None,
        context: str | None = None,
        mode: Mode = "hybrid",
        use_llm: bool = True,
        on_partial: PartialHandler | None = None,
    ) -> AskResult:
        """Answer a question; ``context`` is the previous question of a follow-up conversation.
        ``on_partial`` receives a generated answer's text as it streams (never an extractive one).
        Raises QuestionError for unusable input (empty, too long, no words)."""
        started = time.perf_counter()
        asked = validate_question(raw_question)
        context = _clean_context(context)
        language = detect_language(asked)
        # searched and answered as the article writes dates: "May 18" → "5 月 18 日"
        question = chinese_dates(asked)
        context = chinese_dates(context) if context else None
        snapshot = self.snapshot
        stored = snapshot.stored
        k = k or self.settings.top_k

        t0 = time.perf_counter()
        tokens = tokenize(question)
        more = bool(context) and asks_only_for_more(tokens)
        if context and more:
            # "tell me more" / "详细说说" / "why?" has no subject of its own: it is answered (and judged)
            # as the conversation's latest question that has one, not declined or searched as off-topic
            question, context = _latest_subject(question, context)
            tokens = tokenize(question)
        titles = [d.meta.title for d in stored.manifest.documents]
        if context and not more and all(_about_the_article(line, titles) for line in context.split("\n")):
            # "Who wrote this piece?" gives "what optimizations did they use?" no subject: the article
            # is every passage's, and its words only steered the search away (found in make chat)
            context = None
        if context and not (leans_on_context(question, tokens) or item_reference(question)):
            context = None  # a question with a subject of its own is asked afresh (index/followup.py)
        query_vector, own_vector = self._query_vectors(question, tokens, context, snapshot.retriever, language)
        t1 = time.perf_counter()
        search_tokens = tokens + [t for t in tokenize(context or "") if t not in tokens]
        outcome, focus, item = self._retrieve(
            snapshot, question, query_vector, search_tokens, tokens, k, mode, language
        )
        own_outcome = (
            outcome
            if own_vector is query_vector
            else snapshot.retriever.search(own_vector, search_tokens, k, mode, language, focus)
        )
        hits = outcome.hits
        t2 = time.perf_counter()

        result = AskResult(
            question=asked,
            answer="",
            abstained=False,
            language=language,
            passages=_passages(stored, hits),
            sources=[
                SourceInfo(doc_id=d.meta.doc_id, title=d.meta.title, author=d.meta.author, date=d.meta.date)
                for d in stored.manifest.documents
            ],
            index_version=stored.version,
        )
        authors = [d.meta.author for d in stored.manifest.documents]
        talk = small_talk(question)
        if talk is not None:  # "hi" / "谢谢": not declined as a question the article doesn't answer
            result.abstained = True
            result.kind = "abstained"
            result.answer = small_talk_reply(talk, titles, language)
        elif answers.is_meta_question(question, titles) or answers.is_author_question(question, authors):
            result.answer, result.citations = answers.meta_answer(stored, language)
            result.kind = "overview"
            result.passages = _cited_first(result.passages, stored, result.citations)
        elif answers.is_overview_question(question):
            result.answer, result.citations = answers.overview(stored, language)
            result.kind = "overview"
            result.passages = _cited_first(result.passages, stored, result.citations)
        else:
            chunk_ids = [h.chunk for h in hits]
            # asked about a part of the article ("per the conclusion"), the answer comes from that part
            pointed = set(focus or ())
            answering = [c for c in chunk_ids if c in pointed] or chunk_ids
            ranked = answers.score_sentences(stored, answering, outcome.sentence_scores, tokens, self.answer_params)
            if item is not None:  # "the 2nd lesson": its first sentence leads the answer
                ranked = sorted(ranked, key=lambda scored: scored.sentence != item)
            # a part of the article is pointed at: by name ("per the conclusion") or by its closing line
            closing_line = answers.asks_for_closing_line(question)
            points = bool(focus) or closing_line
            evidence = Evidence.collect(
                snapshot.retriever, own_outcome, ranked, tokens, language, own_vector, question, points
            )
            known = evidence.anything_known and not evidence.names_only_unknown
            if context and (known or refers_back(question)):
                # "他挖走了谁？" is about what was asked before: judged with it. One that goes on to a
                # subject of its own the article lacks ("那明天天气呢？") is judged, and declined, on it.
                evidence = Evidence.collect(
                    snapshot.retriever,
                    outcome,
                    ranked,
                    search_tokens,
                    language,
                    query_vector,
                    question,  # its names are its own: in "…lessons What's…" What is no sentence start
                    points,
                )
            declined = should_abstain(evidence, language)
            chosen: list[int] = []
            mismatch = None
            if not declined:
                # an item that opens a list of its own ("阶段二" → "他们做了三件事：") is answered with it
                listing = answers.is_list_question(question) if item is None else answers.opens_list(stored, item)
                sections: list[int] = []
                if listing and item is None:
                    # "the three lessons": the list its lead-in or headings call so, led by its lead-in
                    noun = answers.list_noun(question)
                    nouns = _nouns(snapshot.retriever, noun) if noun else []
                    lead = answers.named_list_lead(stored, ranked, nouns) if noun else None
                    if lead is not None and lead != ranked[0].sentence:
                        first = answers.ScoredSentence(lead, ranked[0].score, 0)
                        ranked = [first, *(s for s in ranked if s.sentence != lead)]
                    elif lead is None and noun and not answers.has_own_list(stored, ranked[0].sentence):
                        # no lead-in says so, but headings do: "训练分几个阶段？" → 阶段一…, 阶段二…
                        sections = answers.named_sections(stored, ranked, nouns)
                # an item asked for ("the third thing they did in RL") is the answer: the question's other
                # words name its list, and brought in another item that says them ("定向 RL")
                terms = snapshot.retriever.term_weights(tokens) if item is None else {}
                chosen = sections or answers.pick_sentences(stored, ranked, self.answer_params, listing, terms)
                if ranked and item is None and not sections and closing_line:
                    # "the one-liner that closes the Musk section": the last sentence of the best passage's
                    # section, which the cosine ranks low (商业世界，没有无缘无故的爱。)
                    closing = answers.closing_sentence(stored, stored.sentences[ranked[0].sentence].chunk)
                    chosen = [closing] if closing is not None else chosen
                states = answers.what_it_must_state(question)  # a number, a date
                if states is not None and not states(_said(stored, chosen)):
                    # it may be in a lower passage: "By how much did Cursor scale up its synthetic data?" →
                    # "合成数据规模翻 25 倍" (third), not the best sentence's 代码数据 (first)
                    concepts = _rare(snapshot.retriever, tokens, terms)
                    rescued = answers.sentence_stating(stored, ranked, concepts, states)
                    if rescued is None and len(answering) > self.answer_params.passages:
                        # not in the passages answers come from: in the others retrieved
                        every = replace(self.answer_params, passages=len(answering))
                        wider = answers.score_sentences(stored, answering, outcome.sentence_scores, tokens, every)
                        rescued = answers.sentence_stating(stored, wider, concepts, states)
                    if rescued is not None:
                        ranked, chosen = self._led_by(stored, ranked, rescued, listing, terms)
                marker = answers.sought_marker(question)  # a why question's reason, an analogy's "就像"
                if marker is not None:
                    marked = answers.marked_sentence(stored, ranked, chosen, marker)
                    if marked is not None:
                        chosen = answers.with_sentence(stored, chosen, marked, ranked[0].sentence)
                # the names a question asks about must be in the answer's passages: the CEO of Moonshot AI
                # is not Cursor's ("Cursor CEO Michael Truell…"), and Cursor's CEO answers from his passage
                named = specific_names(snapshot.retriever, question, language)
                if named and not answers.passages_name(stored, chosen, named):
                    rescued = answers.sentence_naming(stored, ranked, named, states)
                    if rescued is None:
                        declined = True
                    else:
                        ranked, chosen = self._led_by(stored, ranked, rescued, listing, terms)
                if item is None and answers.asks_for_a_name(question):
                    names_one = answers.names_beyond(question)
                    if not names_one(_said(stored, chosen)):
                        rescued = answers.sentence_stating(
                            stored, ranked, _rare(snapshot.retriever, tokens, terms), names_one
                        )
                        if rescued is not None:
                            ranked, chosen = self._led_by(stored, ranked, rescued, listing, terms)
                if more:  # more of the passage the answer came from, not the same answer again
                    chosen = answers.widen(stored, chosen)
                chosen = answers.with_heading(stored, chosen)
                # sentences about another version of what was asked (Composer 2.5 for Composer 2)
                # don't answer it, however close they are
                said = _said(stored, chosen)
                mismatch = answers.version_mismatch(question, said)
                # "how many…?" answered without a number isn't answered ("Kimi K2.5 有多少参数？"), nor with
                # a number of something else: "Cursor 一年营收多少？" (营收: nowhere) → Cursor's 600 亿美元
                if states is not None:
                    # a pronoun stands for the subject of the question before ("how many GPUs did it use?")
                    own = search_tokens if context and refers_back(question) else tokens
                    asking = answers.asking_words(question)
                    own = [t for t in own if t not in asking]
                    declined = declined or not states(said) or only_the_subject_matches(snapshot.retriever, own, said)
                declined = declined or mismatch is not None
            if declined:
                result.abstained = True
                result.kind = "abstained"
                result.nearest_sections = answers.nearest_sections(stored, chunk_ids)
                result.answer = answers.abstain_text(
                    language, result.nearest_sections, mismatch, evidence.names_only_unknown
                )
            else:
                result.answer, result.citations = answers.compose(stored, chosen, language)
                result.passages = _including_cited(result.passages, stored, result.citations)
                if use_llm and self.generator is not None:
                    # the model reads the question as asked: tell it what a follow-up follows
                    follows = "\n".join(q for q in (context, question if more else None) if q)
                    result = self._generate(result, stored, [s.sentence for s in ranked], on_partial, follows)
        t3 = time.perf_counter()
        result.timings_ms = result.timings_ms | {
            "embed": round((t1 - t0) * 1000, 2),
            "search": round((t2 - t1) * 1000, 2),
            "answer": round((t3 - t2) * 1000, 2),
            "total": round((t3 - started) * 1000, 2),
        }
        return result

    def _led_by(
        self,
        stored: StoredIndex,
        ranked: list[answers.ScoredSentence],
        first: answers.ScoredSentence,
        listing: bool,
        terms: dict[str, float],
    ) -> tuple[list[answers.ScoredSentence], list[int]]:
        """The ranking led by the sentence a rule found to answer, and the sentences chosen from it."""
        ranked = answers.led_by(ranked, first)
        return ranked, answers.pick_sentences(stored, ranked, self.answer_params, listing, terms)

    def _retrieve(
        self,
        snapshot: Snapshot,
        question: str,
        vector: np.ndarray,
        search_tokens: list[str],
        tokens: list[str],
        k: int,
        mode: Mode,
        language: str,
    ) -> tuple[SearchOutcome, list[int] | None, int | None]:
        """The search outcome, the passages the question points at (ranked first), and the sentence
        of a list item it points at. A section ("per the conclusion") is found by its heading; an
        item ("the 2nd lesson", 第三点) in the list the question retrieves, so it takes a second
        search to put the item's passage first."""
        retriever, stored = snapshot.retriever, snapshot.stored
        focus = _focus(question, stored)
        outcome = retriever.search(vector, search_tokens, k, mode, language, focus)
        reference = item_reference(question) if focus is None and mode == "hybrid" else None
        if reference is None:
            return outcome, focus, None
        chunks = [hit.chunk for hit in outcome.hits]
        ranked = answers.score_sentences(stored, chunks, outcome.sentence_scores, tokens, self.answer_params)
        item = answers.list_item(stored, ranked, reference.position, _nouns(retriever, reference.noun))
        if item is None:
            return outcome, None, None
        focus = [stored.sentences[item].chunk]
        return retriever.search(vector, search_tokens, k, mode, language, focus), focus, item


def _said(stored: StoredIndex, chosen: list[int]) -> str:
    """The chosen sentences as the answer renders them."""
    return " ".join(answers.render_sentence(stored, stored.sentences[s]) for s in chosen)


def _rare(retriever: Retriever, tokens: list[str], terms: dict[str, float]) -> list[frozenset[str]]:
    """The question's words that some passages have, but fewer than half — what it asks about rather
    than the article's subject (abstain.SUBJECT_SHARE) — each as one concept with its translations:
    "training", 训练 and 调教 counted three, and a sentence holding four of five things asked fell short."""
    concepts = []
    for group in retriever.term_groups(tokens):
        # judged as a whole: "model" is rare only because the article writes it 模型
        if retriever.group_share(group) >= SUBJECT_SHARE:
            continue
        forms = frozenset(t for t in group if t in terms and retriever.passage_share(t) > 0)
        if forms:
            concepts.append(forms)
    return concepts


def _nouns(retriever: Retriever, noun: str) -> list[str]:
    """What a question calls a list's items, as the article may write it: "lesson" → 启示."""
    return retriever.expand(tokenize(noun)) or [noun]


def _focus(question: str, stored: StoredIndex) -> list[int] | None:
    """The passages of the section a question points at ("per the conclusion", "第三部分"), if any."""
    reference = section_reference(question)
    return referenced_chunks(stored, reference) if reference else None


def _unit(vector: np.ndarray) -> np.ndarray:
    return (vector / (np.linalg.norm(vector) or 1.0)).astype(np.float32)


def _cited_first(passages: list[Passage], stored: StoredIndex, citations: list[Citation]) -> list[Passage]:
    """The cited passages first (an answer from metadata cites the title chunk, which
    retrieval may rank anywhere), then the rest in retrieval order; scores stay as retrieved."""
    cited = list(dict.fromkeys(c.chunk_id for c in citations))
    rest = [p.chunk_id for p in passages if p.chunk_id not in cited]
    return _reordered(passages, stored, (cited + rest)[: len(passages)])


def _including_cited(passages: list[Passage], stored: StoredIndex, citations: list[Citation]) -> list[Passage]:
    """The retrieved passages, with any cited passage that ranked below them in place of the last
    uncited ones (a list's later items, a lead-in's continuation): an answer's sources are always
    among its passages. Retrieval order stays; the added passages follow, in citation order."""
    listed = {p.chunk_id for p in passages}
    missing = [chunk_id for chunk_id in dict.fromkeys(c.chunk_id for c in citations) if chunk_id not in listed]
    if not missing:
        return passages
    cited = {c.chunk_id for c in citations}
    uncited = [p.chunk_id for p in passages if p.chunk_id not in cited]
    dropped = set(uncited[-len(missing) :])
    kept = [p.chunk_id for p in passages if p.chunk_id not in dropped]
    return _reordered(passages, stored, kept + missing)


def _reordered(passages: list[Passage], stored: StoredIndex, chunk_ids: list[str]) -> list[Passage]:
    """The passages of these chunks in this order, ranked from 1; each keeps the score retrieval
    gave it (0 for one retrieval didn't return)."""
    score = {p.chunk_id: p.score for p in passages}
    chunks = [stored.chunks[stored.chunk_positions[chunk_id]] for chunk_id in chunk_ids]
    return [_passage(chunk, rank, score.get(chunk.chunk_id, 0.0)) for rank, chunk in enumerate(chunks, 1)]


def _passage(chunk: Chunk, rank: int, score: float) -> Passage:
    return Passage(
        rank=rank,
        chunk_id=chunk.chunk_id,
        doc_id=chunk.doc_id,
        section=chunk.section,
        paragraphs=chunk.paragraphs,
        start=chunk.start,
        end=chunk.end,
        text=chunk.text,
        score=round(score, 6),
    )


def _clean_context(context: str | None) -> str | None:
    """The earlier questions cleaned as questions are, one per line still (a line left empty, an
    emoji say, is dropped): None if none is left."""
    lines = []
    for line in (context or "").split("\n"):
        try:
            lines.append(validate_question(line))
        except QuestionError:
            continue
    return "\n".join(lines) or None


def _about_the_article(question: str, titles: list[str]) -> bool:
    """A question about the article itself: who wrote it, when, what it says overall."""
    return answers.is_meta_question(question, titles) or answers.is_overview_question(question)


def _latest_subject(question: str, context: str) -> tuple[str, str | None]:
    """The latest earlier question (context: one per line, oldest first) with a subject of its own,
    and the questions before it as its context; the question and context as they are if none has."""
    earlier = [line for line in context.split("\n") if line.strip()]
    for at in range(len(earlier) - 1, -1, -1):
        if not asks_only_for_more(tokenize(earlier[at])):
            return earlier[at], "\n".join(earlier[:at]) or None
    return question, context


def _passages(stored: StoredIndex, hits: list[Hit]) -> list[Passage]:
    return [_passage(stored.chunks[hit.chunk], rank, hit.score) for rank, hit in enumerate(hits, 1)]


__all__ = ["Engine", "IndexLoadError", "Snapshot"]
