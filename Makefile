# Set-up and the two commands of the README: `make app` (the Space) and `make test`.
# Everything installs into .venv at the repo root; a second run installs nothing new.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: setup app test browser

$(VENV)/.installed: requirements.txt requirements-dev.txt pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	$(PY) -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $@

setup: $(VENV)/.installed

app: setup
	$(PY) app.py

# The Space's browser tests drive Debian's chromium.
browser:
	@command -v chromium >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq chromium >/dev/null; }

test: setup browser
	$(PY) -m pytest -q
