# Each target sets itself up on first use: a virtual environment in .venv, torch's CPU
# build (the default PyPI wheel on Linux is a multi-GB CUDA build), then this package.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
TORCH_SPEC ?= torch==2.13.0
STAMP := $(VENV)/.installed

.PHONY: chat check test run build lint bench clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -c "import torch" 2>/dev/null || $(PY) -m pip install --quiet "$(TORCH_SPEC)"
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

chat: $(STAMP)  ## ask questions in the terminal, through the bot's own answer code
	HF_HUB_OFFLINE=1 $(PY) -m index chat

check: lint  ## the fast loop: lint, then the tests that load no model and start no torch (< 1 min)
	HF_HUB_OFFLINE=1 $(PY) -m pytest -q -m "not model and not slow"

test: $(STAMP)  ## the whole test suite (what CI runs)
	HF_HUB_OFFLINE=1 $(PY) -m pytest -q

run: $(STAMP)  ## the Discord bot (needs DISCORD_TOKEN in the environment or .env)
	HF_HUB_OFFLINE=1 $(PY) -m bot

build: $(STAMP)  ## (re)build the index
	HF_HUB_OFFLINE=1 $(PY) -m index build

lint: $(STAMP)
	$(VENV)/bin/ruff check index bot tests bench

bench: $(STAMP)
	HF_HUB_OFFLINE=1 $(PY) -m bench

clean:
	rm -rf var
