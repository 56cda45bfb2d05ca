"""Which verified rendering each reader takes (index/english/renderings.py): the English view the
answer model's method made, a person the newest method's."""

from __future__ import annotations

from pathlib import Path

from index.english.renderings import SHIPPED, VIEW_METHOD, Rendering, read, sentence_key, view_and_shown, write_file

SOURCE = "价格上涨了三倍。"
OTHER = "Cursor 发布了新模型。"


def _rendering(source: str, text: str, prompt: int, verified: bool = True) -> Rendering:
    return Rendering(
        key=sentence_key(source), source=source, language="en", text=text, model="m", prompt=prompt, verified=verified
    )


def _file(path: Path, *renderings: Rendering) -> Path:
    path.write_text("".join(r.model_dump_json() + "\n" for r in renderings), encoding="utf-8")
    return path


def test_the_view_keeps_the_model_s_method_a_reader_gets_the_newest(tmp_path: Path) -> None:
    sidecar = _file(
        tmp_path / "doc.renderings.jsonl",
        _rendering(SOURCE, "Price rise 3 times.", VIEW_METHOD),
        _rendering(SOURCE, "Prices rose 3 times.", VIEW_METHOD + 1),
        _rendering(OTHER, "Cursor released a new model.", VIEW_METHOD + 1),  # no older one: both read it
    )
    # a cache read after the sidecar, holding an older method's line again: the newest method still shows
    cache = _file(tmp_path / "renderings.jsonl", _rendering(SOURCE, "Price rise 3 times.", VIEW_METHOD))
    view, shown = view_and_shown([sidecar, cache])
    assert (
        view[sentence_key(SOURCE)].text == "Price rise 3 times."
        and shown[sentence_key(SOURCE)].text == "Prices rose 3 times."
    )
    assert view[sentence_key(OTHER)].text == shown[sentence_key(OTHER)].text == "Cursor released a new model."


def test_a_newer_rendering_the_checks_refuse_is_shown_to_no_one(tmp_path: Path) -> None:
    sidecar = _file(
        tmp_path / "doc.renderings.jsonl",
        _rendering(SOURCE, "Price rise 3 times.", VIEW_METHOD),
        _rendering(SOURCE, "Prices rose sevenfold.", VIEW_METHOD + 1),  # the count lost: refused today
    )
    view, shown = view_and_shown([sidecar])
    assert view[sentence_key(SOURCE)].text == shown[sentence_key(SOURCE)].text == "Price rise 3 times."


def test_a_file_holds_each_sentence_s_renderings_once_in_the_order_given(tmp_path: Path) -> None:
    older, newer = _rendering(SOURCE, "Price rise 3 times.", VIEW_METHOD), _rendering(SOURCE, "Prices rose 3 times.", 8)
    target = tmp_path / "doc.renderings.jsonl"
    key = sentence_key(SOURCE)
    assert write_file(target, [key], {key: older}, {key: newer}) == 2
    assert list(read(target)) == [older, newer]
    assert write_file(target, [key], {key: older}, {key: older}) == 1


def test_the_package_ships_a_verified_rendering_of_every_sentence_of_the_bundled_article() -> None:
    """index/data/renderings.jsonl: every line a sentence of the bundled article as the index cuts it,
    each sentence that wants English with one the checks pass today, for the view and for readers."""
    from index.config import load_settings
    from index.generate.enrich import corpus_paragraphs
    from tests.index.support import CORPUS

    wanted = {i.key: i for p in corpus_paragraphs(load_settings(corpus_dir=CORPUS)) for i in p}
    shipped = list(read(SHIPPED))
    assert shipped and {r.key for r in shipped} == set(wanted)
    assert all(r.source == wanted[r.key].text and r.language == wanted[r.key].language for r in shipped)
    view, shown = view_and_shown([SHIPPED])
    assert set(view) == set(shown) == set(wanted)
    assert all(r.prompt <= VIEW_METHOD for r in view.values())
