"""`make enrich-public` (index/train/renderings.py): XQuAD's articles rendered once, written to the
package's file. A fake OpenAI-compatible endpoint on 127.0.0.1 translates; the public set is a tiny
SQuAD-format file in a tmp folder."""

from __future__ import annotations

import json
from pathlib import Path

from index.english.renderings import VIEW_METHOD, Rendering, read, sentence_key
from index.evaluate.public import XQUAD_ZH
from index.generate.enrich import PROMPT_VERSION
from index.generate.settings import LLMSettings
from index.train.renderings import enrich_public
from tests.fakeopenai import FakeOpenAI
from tests.index.generate.test_enrich import Translator

PARAGRAPH = "丹佛野马队在第50届超级碗中击败了卡罗来纳黑豹队。比赛在圣克拉拉举行。"


def _public(folder: Path) -> Path:
    folder.mkdir()
    qa = {"id": "q1", "question": "谁赢了？", "answers": [{"text": "丹佛野马队", "answer_start": 0}]}
    data = {"data": [{"title": "超级碗", "paragraphs": [{"context": PARAGRAPH, "qas": [qa]}]}]}
    (folder / XQUAD_ZH).write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return folder


def test_a_newer_method_s_renderings_are_written_beside_those_the_english_view_was_trained_on(tmp_path: Path) -> None:
    source = "比赛在圣克拉拉举行。"
    trained = Rendering(
        key=sentence_key(source), source=source, language="en", text="The game was held in Santa Clara.",
        model="earlier", prompt=VIEW_METHOD, verified=True,
    )  # fmt: skip
    output = tmp_path / "xquad_renderings.jsonl"
    output.write_text(trained.model_dump_json() + "\n", encoding="utf-8")
    with FakeOpenAI(responder=Translator()) as fake:
        llm = LLMSettings(base_url=fake.base_url, model="fake-translator")
        enrich_public("xquad", llm, tmp_path / "work", _public(tmp_path / "public"), output, say=lambda line: None)
    written = list(read(output))
    assert trained in written  # what the view reads stays
    newest = [r for r in written if r.prompt == PROMPT_VERSION]
    assert {"丹佛野马队在第50届超级碗中击败了卡罗来纳黑豹队。", source} <= {r.source for r in newest}  # and the title
    assert written.index(trained) < next(i for i, r in enumerate(written) if r.source == source and r != trained)
