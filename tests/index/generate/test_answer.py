"""index/generate/answer.py: what of the index the model is given beside the passages."""

from __future__ import annotations

from index.generate.answer import passage_english
from tests.index.support import passage


def test_a_passage_is_given_in_english_only_when_every_sentence_of_it_is_rendered(engine) -> None:  # type: ignore[no-untyped-def]
    stored = engine.snapshot.stored
    whole = [p for p in engine.ask("What did Cursor do in the RL stage?").passages]
    english = passage_english(stored, whole)
    assert english, "the bundled article ships verified renderings"
    for chunk_id, text in english.items():
        own = stored.sentences_of(stored.chunk_positions[chunk_id])
        assert all(stored.rendered[s] for s in own)
        assert text == " ".join(filter(None, (stored.reader_english(s) for s in own)))  # what a reader reads
        assert not any("\u4e00" <= c <= "\u9fff" for c in text.replace("「", "").replace("」", ""))
    partly = [n for n in range(len(stored.chunks)) if not all(stored.rendered[s] for s in stored.sentences_of(n))]
    assert partly and not set(english) & {stored.chunks[n].chunk_id for n in partly}
    assert passage_english(stored, [passage("不在索引里的段落。")]) == {}
