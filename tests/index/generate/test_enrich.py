"""`python -m index enrich` (index/generate/enrich.py): every sentence rendered once by the configured
model, checked, kept or refused, resumable and incremental; the build uses what it made. A fake
OpenAI-compatible endpoint on 127.0.0.1 translates deterministically (each Chinese character becomes
a made-up English word), and is told to get some sentences wrong."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from index.build.builder import build_index
from index.build.loading import load_current
from index.config import load_settings
from index.english.renderings import (
    CACHE_FILE,
    PERSON_MISSING,
    SHIPPED,
    SIDECAR_SUFFIX,
    VIEW_METHOD,
    problems,
    read,
    sentence_key,
)
from index.errors import GenerationError, UsageError
from index.generate import enrich as enrich_module
from index.generate.enrich import PROMPT_VERSION, REMADE_BEFORE, corpus_paragraphs, enrich
from index.generate.settings import LLMSettings
from tests.fakeopenai import FakeOpenAI, Reply
from tests.index.support import REPO

DOC = """——试验文章

一、结果

Cursor 用了 100 万个 H100 等效算力。价格是每百万 token 输入 15 美元。

马斯克握有 600 亿美元收购 Cursor 的优先权。这是另一句。

基准测试\tComposer 2.5\t对比
CursorBench v3.1\t63.2%（最高 64.8%）\t领先
"""
_NUMBERED = re.compile(r"^(\d+)\. (.*)$")


def _words(text: str) -> str:
    """A deterministic 'translation': 最高 as "up to", 马斯克 as Musk, each other Chinese character a
    made-up word, the rest as it is."""
    text = text.replace("最高", " up to ").replace("马斯克", " Musk ")
    return re.sub(r"[\u3400-\u9fff]", lambda m: f"w{ord(m.group()) % 97} ", text).replace("  ", " ").strip()


class Translator:
    """Answers a paragraph's numbered lines line by line; ``wrong`` sentences lose their numbers in the
    paragraph, ``hopeless`` ones in their retry too; a line holding all of ``tangled`` loses them
    whenever it is asked whole."""

    def __init__(
        self, wrong: tuple[str, ...] = (), hopeless: tuple[str, ...] = (), tangled: tuple[str, ...] = ()
    ) -> None:
        self.wrong, self.hopeless, self.tangled = wrong, hopeless, tangled

    def _bad(self, text: str, *among: str) -> bool:
        return any(w in text for w in among) or (bool(self.tangled) and all(t in text for t in self.tangled))

    def __call__(self, payload: dict) -> str:
        user = payload["messages"][-1]["content"]
        if user.startswith("Context, not to translate"):
            sentence = user.rsplit("\n", 1)[-1]
            bad = self._bad(sentence, *self.hopeless)
            return _words(re.sub(r"\d", "7", sentence) if bad else sentence)
        lines = []
        for line in user.splitlines():
            n, text = _NUMBERED.match(line).groups()  # type: ignore[union-attr]
            bad = self._bad(text, *self.wrong, *self.hopeless)
            lines.append(f"{n}. {_words(re.sub(r'[0-9]', '7', text) if bad else text)}")
        return "\n".join(lines)


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "doc.txt").write_text(DOC, encoding="utf-8")
    return folder


def _settings(corpus: Path, tmp_path: Path):  # type: ignore[no-untyped-def]
    return load_settings(corpus_dir=corpus, index_dir=tmp_path / "index")


def _run(corpus: Path, tmp_path: Path, translator: Translator, **options):  # type: ignore[no-untyped-def]
    with FakeOpenAI(responder=translator) as fake:
        llm = LLMSettings(base_url=fake.base_url, model="fake-translator")
        result = enrich(_settings(corpus, tmp_path), llm, progress=False, say=lambda line: None, **options)
        return result, fake.requests


def test_every_sentence_is_rendered_checked_and_kept(corpus: Path, tmp_path: Path) -> None:
    result, requests = _run(corpus, tmp_path, Translator(wrong=("63.2%",), hopeless=("握有",)))
    rows = list(read(tmp_path / "index" / CACHE_FILE))
    wanted = [i for p in corpus_paragraphs(_settings(corpus, tmp_path)) for i in p]
    assert [r.key for r in rows] == [i.key for i in wanted] and result.sentences == len(wanted)
    by_source = {r.source: r for r in rows}
    amounts = by_source["Cursor 用了 100 万个 H100 等效算力。"]
    assert amounts.verified and "1 million" in amounts.text and "H100" in amounts.text  # handed over in English
    row = by_source["CursorBench v3.1\t63.2%（最高 64.8%）\t领先"]
    assert row.verified and "63.2%" in row.text  # wrong in its paragraph, right alone
    refused = by_source["马斯克握有 600 亿美元收购 Cursor 的优先权。"]
    assert not refused.verified and any("number" in p for p in refused.problems)  # keeps its gloss
    assert (result.verified, result.failed) == (len(rows) - 1, 1)
    assert all(r.model == "fake-translator" and r.prompt == PROMPT_VERSION for r in rows)
    paragraphs = len(corpus_paragraphs(_settings(corpus, tmp_path)))
    # one per paragraph, one retry each for the two wrong sentences, the hopeless one clause by clause
    assert len(requests) == paragraphs + 3


def test_a_sentence_failing_twice_is_asked_clause_by_clause(tmp_path: Path) -> None:
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "doc.txt").write_text("——试验文章\n\n合成数据翻了 25 倍，训练用了 100 万个 H100。\n", encoding="utf-8")
    result, requests = _run(folder, tmp_path, Translator(tangled=("25", "H100")))
    row = {r.source: r for r in read(tmp_path / "index" / CACHE_FILE)}["合成数据翻了 25 倍，训练用了 100 万个 H100。"]
    assert row.verified and result.failed == 0
    assert "25" in row.text and "1 million" in row.text and row.text.endswith("H100.")  # joined, its end mark kept
    clauses = requests[-1].json["messages"][-1]["content"]
    assert clauses.startswith("1. ") and "\n2. " in clauses and "试验文章" not in clauses  # no paragraph to borrow from


def test_a_failed_rendering_is_made_again_by_a_newer_method_a_verified_one_never(
    corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _run(corpus, tmp_path, Translator(hopeless=("握有",)))
    cache = tmp_path / "index" / CACHE_FILE
    assert {r.prompt for r in read(cache)} == {PROMPT_VERSION}
    monkeypatch.setattr(enrich_module, "PROMPT_VERSION", PROMPT_VERSION + 1)  # a retry refined since
    again, requests = _run(corpus, tmp_path, Translator())
    assert again.reused == again.sentences - 1 and again.verified == 1  # only the one that failed
    assert "握有" in requests[0].json["messages"][-1]["content"]


def test_every_rendering_of_an_older_way_of_asking_is_made_again_its_verified_one_kept_till_then(
    corpus: Path, tmp_path: Path
) -> None:
    _run(corpus, tmp_path, Translator())
    cache = tmp_path / "index" / CACHE_FILE
    older = [r.model_copy(update={"prompt": REMADE_BEFORE - 1}) for r in read(cache)]
    cache.write_text("".join(r.model_dump_json() + "\n" for r in older), encoding="utf-8")
    again, _ = _run(corpus, tmp_path, Translator(hopeless=("握有",)), beside_corpus=True)
    assert again.reused == 0 and again.verified == again.sentences - 1 and again.failed == 1
    shipped = {r.source: r for r in read(corpus / f"doc{SIDECAR_SUFFIX}")}
    held = shipped["马斯克握有 600 亿美元收购 Cursor 的优先权。"]
    assert held.verified and held.prompt == REMADE_BEFORE - 1  # the remade one failed: the older one ships
    assert {r.prompt for r in shipped.values()} == {REMADE_BEFORE - 1, PROMPT_VERSION}


def test_a_failed_rendering_that_today_s_checks_pass_is_verified_without_the_model(
    corpus: Path, tmp_path: Path
) -> None:
    """Checks refined since a rendering was refused (a name's plural, say) verify it on the next run."""
    _run(corpus, tmp_path, Translator(hopeless=("握有",)))
    cache = tmp_path / "index" / CACHE_FILE
    rows = list(read(cache))
    source = "马斯克握有 600 亿美元收购 Cursor 的优先权。"
    good = "Musk holds a right of first refusal to buy Cursor for US$60 billion."
    rows = [r.model_copy(update={"text": good}) if r.source == source else r for r in rows]
    cache.write_text("".join(r.model_dump_json() + "\n" for r in rows), encoding="utf-8")
    again, requests = _run(corpus, tmp_path, Translator())
    assert requests == [] and again.repaired == 1
    assert {r.source: r for r in read(cache)}[source].verified


def test_a_second_run_renders_only_what_changed(corpus: Path, tmp_path: Path) -> None:
    _run(corpus, tmp_path, Translator())
    again, requests = _run(corpus, tmp_path, Translator())
    assert requests == [] and again.reused == again.sentences
    (corpus / "doc.txt").write_text(DOC.replace("这是另一句。", "这是改过的另一句。"), encoding="utf-8")
    changed, requests = _run(corpus, tmp_path, Translator())
    assert len(requests) == 1 and changed.verified == 1  # the edited sentence's paragraph, that sentence only
    asked = requests[0].json["messages"][-1]["content"]
    assert "改过" in asked and "600" not in asked


def test_a_failing_model_keeps_what_was_made_and_the_next_run_goes_on(corpus: Path, tmp_path: Path) -> None:
    with FakeOpenAI(responder=Translator()) as fake:
        fake.script(Reply.text("1. " + _words("试验文章")), Reply.error(500, "the model crashed"))
        llm = LLMSettings(base_url=fake.base_url, model="fake-translator")
        with pytest.raises(GenerationError, match="1 sentences rendered before are kept"):
            enrich(_settings(corpus, tmp_path), llm, progress=False, say=lambda line: None)
    kept = list(read(tmp_path / "index" / CACHE_FILE))
    assert len(kept) == 1
    result, requests = _run(corpus, tmp_path, Translator())
    assert result.reused == 1 and len(requests) == len(corpus_paragraphs(_settings(corpus, tmp_path))) - 1


@pytest.mark.model
def test_renderings_ship_beside_the_corpus_and_the_build_uses_them(corpus: Path, tmp_path: Path) -> None:
    result, _ = _run(corpus, tmp_path, Translator(hopeless=("握有",)), beside_corpus=True)
    sidecar = corpus / f"doc{SIDECAR_SUFFIX}"
    assert result.written == [sidecar] and len(list(read(sidecar))) == result.sentences
    (tmp_path / "index" / CACHE_FILE).unlink()  # the sidecar alone is enough
    settings = _settings(corpus, tmp_path)
    build_index(settings, progress=False)
    stored = load_current(settings.index_dir)
    assert stored.rendered is not None and stored.glosses is not None
    texts = [stored.sentence_text(s) for s in stored.sentences]
    rendered = {t: (flag, english) for t, flag, english in zip(texts, stored.rendered, stored.glosses, strict=True)}
    assert rendered["Cursor 用了 100 万个 H100 等效算力。"][0]
    assert not rendered["马斯克握有 600 亿美元收购 Cursor 的优先权。"][0]  # refused: its gloss stands
    # a sentence added since: glossed, and the build says so
    (corpus / "doc.txt").write_text(DOC + "\n新加的一句话。\n", encoding="utf-8")
    summary = build_index(settings, progress=False).summary(settings.index_dir)
    assert "1 sentences are new since enrich" in summary


class Rephrased(Translator):
    """Renders as Translator does, each line ending in another word: another method's wording."""

    def __call__(self, payload: dict) -> str:
        return "\n".join(f"{line} anew" for line in super().__call__(payload).splitlines())


@pytest.mark.model
def test_a_newer_method_s_renderings_are_shown_while_the_view_keeps_the_model_s(corpus: Path, tmp_path: Path) -> None:
    """The answer model learned the English view of renderings by VIEW_METHOD or older: renderings made
    again by a newer method ship beside those, readers are shown them, the view stays as it was."""
    _run(corpus, tmp_path, Translator())
    cache = tmp_path / "index" / CACHE_FILE
    known = [r.model_copy(update={"prompt": VIEW_METHOD}) for r in read(cache)]
    cache.write_text("".join(r.model_dump_json() + "\n" for r in known), encoding="utf-8")
    _run(corpus, tmp_path, Rephrased(hopeless=("握有",)), beside_corpus=True)
    shipped = list(read(corpus / f"doc{SIDECAR_SUFFIX}"))
    assert {r.prompt for r in shipped} == {VIEW_METHOD, PROMPT_VERSION}
    cache.unlink()  # the sidecar alone is enough
    settings = _settings(corpus, tmp_path)
    build_index(settings, progress=False)
    stored = load_current(settings.index_dir)
    assert stored.shown is not None and stored.glosses is not None
    by_text = {stored.sentence_text(s): i for i, s in enumerate(stored.sentences)}
    older = {r.source: r.text for r in known}
    sid = by_text["Cursor 用了 100 万个 H100 等效算力。"]
    assert stored.glosses[sid] == older["Cursor 用了 100 万个 H100 等效算力。"]  # what the model reads
    assert stored.shown[sid] == f"{stored.glosses[sid]} anew" == stored.reader_english(sid)
    held = by_text["马斯克握有 600 亿美元收购 Cursor 的优先权。"]  # made again and refused: the older one all along
    assert (
        stored.shown[held] == "" and stored.reader_english(held) == older["马斯克握有 600 亿美元收购 Cursor 的优先权。"]
    )


def test_no_sidecar_repeats_what_the_package_ships(tmp_path: Path) -> None:
    """A corpus holding a sentence of the bundled article reads its renderings from the package
    (renderings.SHIPPED); another model's renderings of it go beside the corpus, the package's don't."""
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "essay.txt").write_text("随笔\n\n价格又涨了。这意味着什么？意味着大家更穷了。\n", encoding="utf-8")
    result, _ = _run(folder, tmp_path, Translator(), beside_corpus=True)
    shipped = [r for r in read(SHIPPED) if r.source == "这意味着什么？"]
    beside = list(read(folder / f"essay{SIDECAR_SUFFIX}"))
    assert shipped and result.written and len(beside) == result.verified == result.sentences  # this model's
    assert all(r.model == "fake-translator" for r in beside) and not any(r in beside for r in shipped)


def test_sentences_already_in_the_other_language_are_not_rendered(tmp_path: Path) -> None:
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "doc.txt").write_text("标题\n\n中文句子。We posted a report.\n\n• \n", encoding="utf-8")
    texts = [i.text for p in corpus_paragraphs(_settings(folder, tmp_path)) for i in p]
    assert "We posted a report." not in texts and "中文句子。" in texts


def test_no_model_is_a_one_line_usage_error(corpus: Path, tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="LLM_MODEL"):
        enrich(_settings(corpus, tmp_path), LLMSettings(), progress=False)


@pytest.mark.slow
def test_the_command_without_a_model_exits_2(corpus: Path, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLM_")}
    done = subprocess.run(
        [sys.executable, "-m", "index", "enrich", "--corpus", str(corpus), "--index", str(tmp_path / "index")],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "LLM_MODEL" in done.stderr, done.stderr


def test_chinese_left_in_a_rendering_is_glossed_and_checked_again() -> None:
    from index.generate.enrich import Item, repaired

    item = Item("k", "Cursor 做出了对标 Claude Opus 4.7 的代码 Agent，成本只有 1/10。", "en", "doc.txt")
    lexicon = {"对标": "benchmark against"}
    fixed = repaired(item, "Cursor built a code agent 对标 Claude Opus 4.7 at 1/10 of the cost.", lexicon)
    assert fixed == "Cursor built a code agent benchmark against Claude Opus 4.7 at 1/10 of the cost."
    wrong = "Cursor built an agent 对标 Claude at 1/5 of the cost."  # a wrong number too
    assert repaired(item, wrong, lexicon) is None


def test_chinese_glued_to_english_inside_quotes_is_left_chinese_and_glossed(corpus: Path, tmp_path: Path) -> None:
    from index.english.renderings import problems
    from index.generate.enrich import Item, repaired

    source = "通用大模型再强，也做不到「最懂某个垂直领域」。"
    assert problems(source, 'Big models are strong, but not "the one who knows 某个垂直领域 best".', "en")
    assert not problems("大家都说这是「套壳」。", "Everyone calls it “套壳” (a wrapper).", "en")  # a quoted term
    fixed = repaired(Item("k", source, "en", "doc.txt"), 'They cannot be "most懂 a field".', {"懂": "understand"})
    assert fixed == 'They cannot be "most understand a field".'
    # a rendering verified by an older check is checked again by enrich (no model asked) and repaired
    _run(corpus, tmp_path, Translator())
    cache = tmp_path / "index" / CACHE_FILE
    rows = list(read(cache))
    glued = rows[1].model_copy(update={"text": rows[1].text + ' "most价格"', "verified": True})  # the corpus's word
    hopeless = rows[2].model_copy(update={"text": rows[2].text + ' "most懂"', "verified": True})  # not a word of it
    cache.write_text("".join(r.model_dump_json() + "\n" for r in [*rows, glued, hopeless]), encoding="utf-8")
    again, requests = _run(corpus, tmp_path, Translator())
    latest = {r.key: r for r in read(cache)}
    assert again.repaired == 2 and not requests
    assert latest[glued.key].verified and "价格" not in latest[glued.key].text
    assert not latest[hopeless.key].verified and latest[hopeless.key].problems == ["Chinese left in the English"]


def test_a_sentence_dropping_the_names_it_opens_with_is_asked_with_them_begun(tmp_path: Path) -> None:
    folder = tmp_path / "corpus"
    folder.mkdir()
    source = "Cursor CEO Michael Truell 的回应也很有意思。"
    (folder / "doc.txt").write_text(f"——试验文章\n\n{source}\n", encoding="utf-8")

    def drops_the_subject(payload: dict) -> str:  # as the local model did; it goes on from a reply begun
        last = payload["messages"][-1]
        if last["role"] == "assistant":
            return "'s response was also interesting."
        lines = [_NUMBERED.match(line) for line in last["content"].splitlines()]
        numbered = [f"{m.group(1)}. Michael Truell's response was also interesting." for m in lines if m]
        return "\n".join(numbered) or "Michael Truell's response was also interesting."

    result, requests = _run(folder, tmp_path, drops_the_subject)  # type: ignore[arg-type]
    row = {r.source: r for r in read(tmp_path / "index" / CACHE_FILE)}[source]
    assert row.verified and row.text == "Cursor CEO Michael Truell's response was also interesting."
    begun = requests[-1].json["messages"][-1]
    assert begun == {"role": "assistant", "content": "1. Cursor CEO Michael Truell"} and result.failed == 0


def test_a_term_s_own_english_in_brackets_may_be_translated() -> None:
    from index.english.renderings import problems

    source = "阶段一：继续预训练（Continued Pretraining）"
    assert problems(source, "Stage one: continued pre-training", "en") == []
    assert problems("Cursor 做了继续预训练。", "They did continued pre-training.", "en") == ["name missing: Cursor"]


def test_a_name_s_plural_keeps_it_and_an_echoed_prompt_is_no_rendering() -> None:
    from index.english.renderings import problems

    source = "用的是 Colossus 2，100 万个 H100 等效算力。"
    assert problems(source, "It uses Colossus 2, the equivalent of 1 million H100s.", "en") == []
    echoed = "Q. The earlier translation had these problems: number missing or changed: fourth."
    assert "the prompt echoed" in problems("第四个问题。", echoed, "en")


def test_a_bare_month_is_its_name_and_an_adverb_千万_no_amount() -> None:
    from index.english.renderings import problems, spoken

    source = "一个只有28天的二月，只允许大约20分钟的停机。"
    assert problems(source, "A February of only 28 days allows about 20 minutes of downtime.", "en") == []
    assert problems(source, "A month of only 28 days allows about 20 minutes of downtime.", "en")
    assert problems("花了三个月。", "It took March.", "en")  # 三个月 is a count
    assert problems("五月的数据。", "The data may be there.", "en")  # the verb "may" names no month
    assert not spoken("千万别把鸡蛋放在一个篮子里。")  # nothing handed to the model as "10 million"
    assert problems("用户突破千万。", "Users passed a thousand.", "en")  # an amount still


def test_keys_follow_the_text_not_its_white_space() -> None:
    assert sentence_key("一 句 话") == sentence_key("一  句\t话") != sentence_key("一句话")


MODEL = REPO / "var" / "models" / "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"


@pytest.mark.llm
@pytest.mark.skipif(not MODEL.is_file(), reason="no local model (make local-model)")
def test_the_local_model_renders_a_paragraph(corpus: Path, tmp_path: Path) -> None:
    text = "Cursor 用了 100 万个 H100 等效算力。价格是每百万 token 输入 15 美元。\n"
    (corpus / "doc.txt").write_text(text, encoding="utf-8")
    llm = LLMSettings(model=f"gguf:{MODEL}", max_tokens=200)
    result = enrich(_settings(corpus, tmp_path), llm, progress=False, say=lambda line: None)
    rows = list(read(tmp_path / "index" / CACHE_FILE))
    assert result.sentences == 2 and result.verified >= 1, [r.model_dump() for r in rows]
    assert all(r.model.startswith("sha256:") for r in rows)
    print(json.dumps([r.text for r in rows], ensure_ascii=False))


def test_a_name_the_model_took_for_a_word_is_shown_as_the_source_writes_it() -> None:
    from index.english.renderings import with_source_names

    source = "比如在 SWE-bench 里，模型改了代码但测试挂了，Cursor 不仅告诉它「错了」。"
    shown = with_source_names(source, "In swe-bench the test failed, and the cursor tells it it's wrong.")
    assert shown == "In SWE-bench the test failed, and the Cursor tells it it's wrong."
    assert with_source_names("马斯克站台 Cursor。", "Cursors, cursor's") == "Cursors, Cursor's"


def test_a_list_item_is_asked_without_its_mark_and_keeps_it(tmp_path: Path) -> None:
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "doc.txt").write_text(
        "——试验文章\n\n他们做了两件事：\n\n• 数据规模翻 25 倍。\n• 训练更快。\n", encoding="utf-8"
    )

    def marks_confuse_it(payload: dict) -> str:
        # as the local model did: a numbered line opening with a list mark gets nothing back
        user = payload["messages"][-1]["content"]
        if user.startswith("Context, not to translate"):
            sentence = user.rsplit("\n", 1)[-1]
            return "" if sentence.startswith("•") else _words(sentence)
        numbered = [_NUMBERED.match(line).groups() for line in user.splitlines()]  # type: ignore[union-attr]
        return "\n".join(f"{n}. {'' if text.startswith('•') else _words(text)}" for n, text in numbered)

    result, requests = _run(folder, tmp_path, marks_confuse_it)  # type: ignore[arg-type]
    rows = {r.source: r for r in read(tmp_path / "index" / CACHE_FILE)}
    item = rows["• 数据规模翻 25 倍。"]
    assert item.verified and item.text.startswith("• ") and "25" in item.text
    assert rows["• 训练更快。"].verified and result.verified >= 2
    asked = "\n".join(m["content"] for r in requests for m in r.json["messages"])
    assert "• " not in asked


def test_a_person_named_in_chinese_is_named_in_the_rendering() -> None:
    assert f"{PERSON_MISSING}Elon Musk (马斯克)" in problems(
        "马斯克站台 Cursor。", "The Mars Express station cursor.", "en"
    )
    assert problems("马斯克站台 Cursor。", "Musk stands behind Cursor.", "en") == []

    def people(source: str, rendering: str) -> list[str]:
        return [p for p in problems(source, rendering, "en") if p.startswith(PERSON_MISSING)]

    assert not people("受到了加尔文主义的影响。", "It was influenced by Calvinism.")  # inside a word
    assert people("尼克松访华。", "The president visited China.")


def test_a_rendering_refused_since_by_a_better_check_is_asked_again(corpus: Path, tmp_path: Path) -> None:
    _run(corpus, tmp_path, Translator())
    cache = tmp_path / "index" / CACHE_FILE
    wrong = [
        r.model_copy(update={"text": re.sub(r"(Elon )?Musk", "Mark", r.text), "prompt": PROMPT_VERSION - 1})
        if "马斯克" in r.source
        else r
        for r in read(cache)
    ]
    assert any("Mark" in r.text and r.verified for r in wrong)  # verified by the checks of its day
    cache.write_text("".join(r.model_dump_json() + "\n" for r in wrong), encoding="utf-8")
    again, requests = _run(corpus, tmp_path, Translator())
    assert again.verified == 1 and "握有" in requests[0].json["messages"][-1]["content"]
    latest = {r.source: r for r in read(cache)}
    assert next(r for source, r in latest.items() if "马斯克" in source).text.count("Musk") == 1


def test_the_people_the_dictionary_knows_are_handed_over_by_their_english_names(corpus: Path, tmp_path: Path) -> None:
    """As amounts are: the local model read 马斯克 as "Mars Express" and "Tesla" where it was given the
    Chinese name, and wrote Elon Musk where it was given his."""
    _, requests = _run(corpus, tmp_path, Translator())
    asked = "\n".join(r.json["messages"][-1]["content"] for r in requests)
    assert "Elon Musk 握有" in asked and "马斯克" not in asked


def test_the_terms_the_corpus_names_itself_are_handed_over_by_those_names(tmp_path: Path) -> None:
    """月之暗面（Moonshot） was read as "the dark side of the moon (Moonshot)": the corpus's own English name
    for a term goes to the model in its place, bracketed or not; an all-capital one (an abbreviation
    that may name only the term's end) does not."""
    folder = tmp_path / "corpus"
    folder.mkdir()
    doc = "标题\n\n模型用的是月之暗面（Moonshot）的底座。月之暗面开源了它。\n\n"
    doc += "阶段二：大规模强化学习（RL）。大规模强化学习很贵。\n"
    (folder / "doc.txt").write_text(doc, encoding="utf-8")
    _, requests = _run(folder, tmp_path, Translator())
    asked = "\n".join(r.json["messages"][-1]["content"] for r in requests)
    assert "月之暗面" not in asked and "用的是 Moonshot 的底座" in asked and "Moonshot 开源了它" in asked
    assert "大规模强化学习（RL）" in asked and "大规模强化学习很贵" in asked


def test_the_model_is_shown_a_worked_example_before_it_is_asked(corpus: Path, tmp_path: Path) -> None:
    _, requests = _run(corpus, tmp_path, Translator())
    roles = [m["role"] for m in requests[0].json["messages"]]
    assert roles == ["system", "user", "assistant", "user"]
    example = requests[0].json["messages"][1]["content"]
    assert example.startswith("1. ") and not any(line in DOC for line in example.splitlines())
