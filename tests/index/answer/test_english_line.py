"""index/answer/english_line.py on the real index: an English asker's answer opens with the cited
sentences' verified translations (shipped with the package), else with their word-for-word line."""

from __future__ import annotations

import dataclasses
import re

from index.answer.compose import compose
from index.answer.english_line import english_opening, english_section, in_english, rendering, translated_line
from index.english.renderings import SHIPPED, VIEW_METHOD, sentence_key, verified, view_and_shown, with_source_names
from index.english.view import sentence_glosses

CJK = re.compile(r"[\u3400-\u9fff]")


def _sentence(stored, text: str) -> int:  # type: ignore[no-untyped-def]
    return next(i for i, s in enumerate(stored.sentences) if stored.sentence_text(s) == text)


def test_an_english_answer_opens_with_the_verified_translation(engine) -> None:  # type: ignore[no-untyped-def]
    result = engine.ask("How much does Composer 2.5 Fast cost?")
    opening = result.answer.split("\n")[0]
    shipped = {r.text for r in verified([SHIPPED]).values()}
    # its sentences' verified renderings, one after another (a neighbour may join the best sentence)
    assert result.translated and any(opening.startswith(text) for text in shipped), opening
    assert "$15" in opening and not CJK.search(opening)
    assert "Translated from the Chinese original" in result.answer and "15 美元" in result.answer


def test_a_table_row_is_read_with_its_header(engine) -> None:  # type: ignore[no-untyped-def]
    stored = engine.snapshot.stored
    row = _sentence(stored, "SWE-bench Verified\t70.2%（最高 75.6%）\t显著提升")
    line = translated_line(stored, [row])
    assert line is not None and line.startswith("SWE-bench Verified: ") and "70.2%" in line and "75.6%" in line


def _without_rendering(stored, sid: int):  # type: ignore[no-untyped-def]
    """The index as a build makes it when the checks refused ``sid``'s rendering: its gloss instead
    (every sentence of the shipped article has a verified rendering)."""
    gloss = sentence_glosses([c.text for c in stored.chunks], [stored.sentence_text(stored.sentences[sid])])[0]
    glosses = [gloss if i == sid else g for i, g in enumerate(stored.glosses)]
    rendered = [r and i != sid for i, r in enumerate(stored.rendered)]
    shown = ["" if i == sid else text for i, text in enumerate(stored.shown or [""] * len(glosses))]
    return dataclasses.replace(stored, glosses=glosses, rendered=rendered, shown=shown)


def _rendered_chinese(stored) -> list[int]:  # type: ignore[no-untyped-def]
    texts = [stored.sentence_text(s) for s in stored.sentences]
    return [i for i in range(len(texts)) if stored.rendered[i] and CJK.search(texts[i])]


def test_no_translation_unless_every_sentence_has_one(engine) -> None:  # type: ignore[no-untyped-def]
    stored = engine.snapshot.stored
    have = verified([SHIPPED])
    texts = [stored.sentence_text(s) for s in stored.sentences]
    rendered = [i for i, t in enumerate(texts) if sentence_key(t) in have and have[sentence_key(t)].language == "en"]
    assert rendered and translated_line(stored, rendered[:1]) is not None
    first, refused = rendered[0], rendered[1]
    # a sentence the checks refused keeps its gloss, and so does an answer holding it
    assert translated_line(_without_rendering(stored, refused), [first, refused]) is None


def test_an_answer_opening_with_a_gloss_says_so(engine) -> None:  # type: ignore[no-untyped-def]
    stored = engine.snapshot.stored
    sid = _rendered_chinese(stored)[1]
    translated, _ = compose(stored, [sid], "en", "what does it say?")
    glossed, _ = compose(_without_rendering(stored, sid), [sid], "en", "what does it say?")
    assert "Translated from the Chinese original" in translated and "word for word" not in translated
    assert "Glossed word for word" in glossed and "The Chinese original: “" in glossed


def test_a_span_partly_translated_opens_with_each_sentence_s_own_english(engine) -> None:  # type: ignore[no-untyped-def]
    first, refused = _rendered_chinese(engine.snapshot.stored)[:2]
    stored = _without_rendering(engine.snapshot.stored, refused)
    line = english_opening(stored, [first, refused], "what does it say?")
    own = translated_line(stored, [first])
    assert own is not None and own in line  # the translated sentence reads as translated
    assert line != own and not CJK.search(line)  # the other sentence's word-for-word English beside it


def test_the_article_s_own_english_is_its_english_line(engine) -> None:  # type: ignore[no-untyped-def]
    stored = engine.snapshot.stored
    texts = [stored.sentence_text(s) for s in stored.sentences]
    english = [i for i, t in enumerate(texts) if in_english(stored, i)]
    assert english and not any(in_english(stored, i) for i in range(len(texts)) if stored.rendered[i])
    assert translated_line(stored, english[:1]) == texts[english[0]]  # no translation of English
    rendered = next(i for i in range(len(texts)) if stored.rendered[i] and CJK.search(texts[i]))
    line = translated_line(stored, [rendered, english[0]])
    assert line is not None and line.endswith(texts[english[0]])


def test_an_answer_quoting_the_article_s_english_quotes_it_once(engine) -> None:  # type: ignore[no-untyped-def]
    stored = engine.snapshot.stored
    quote = next(
        i
        for i in range(len(stored.sentences))
        if in_english(stored, i) and "arXiv" in stored.sentence_text(stored.sentences[i])
    )
    answer, citations = compose(stored, [quote], "en", "What did they post on arXiv?")
    assert answer.startswith("The article says: “") and "Chinese original" not in answer
    assert answer.count("We posted to the arXiv") == 1 and citations


def test_a_reader_is_shown_the_newer_rendering_the_model_reads_the_one_it_was_trained_with(engine) -> None:  # type: ignore[no-untyped-def]
    """The shipped article has renderings by a method newer than the answer model's (VIEW_METHOD): its
    English view, which the scorer and the gates read, keeps the older ones; an asker reads the newer."""
    stored = engine.snapshot.stored
    view, shown = view_and_shown([SHIPPED])
    newer = [i for i, text in enumerate(stored.shown) if text]
    assert newer and all(
        shown[sentence_key(stored.sentence_text(stored.sentences[i]))].prompt > VIEW_METHOD for i in newer
    )
    for sid in newer:
        key = sentence_key(stored.sentence_text(stored.sentences[sid]))
        assert stored.glosses[sid] == view[key].text != stored.shown[sid] == shown[key].text
        source = stored.sentence_text(stored.sentences[sid])
        assert rendering(stored, sid) == with_source_names(source, stored.shown[sid])


def test_an_english_decline_names_the_nearest_sections_in_english_beside_their_own_words(engine) -> None:  # type: ignore[no-untyped-def]
    result = engine.ask("What is the capital of France?")
    assert result.abstained and result.nearest_sections
    for section in result.nearest_sections:
        named = english_section(engine.snapshot.stored, section)
        assert named.startswith("“") and named.endswith(f"” ({section})")  # the sources' words, to find it by
        assert not CJK.search(named[: named.index("”")]) and named in result.answer


def test_a_section_whose_headings_have_no_english_is_named_as_written(engine) -> None:  # type: ignore[no-untyped-def]
    stored = engine.snapshot.stored
    section = next(c.section for c in stored.chunks if " › " in c.section)
    heading = _sentence(stored, section.split(" › ")[-1])
    bare = dataclasses.replace(stored, rendered=[False] * len(stored.sentences), shown=None)
    assert english_section(bare, section) == section
    one = english_section(_without_rendering(dataclasses.replace(stored, shown=None), heading), section)
    quoted = one[1 : one.index("”")]  # the parent heading in English, this one as written
    assert one.endswith(f"” ({section})") and quoted.endswith(f" › {section.split(' › ')[-1]}")
    assert not CJK.search(quoted.split(" › ")[0])
