# Set-up and the two commands of the README: `make app` (the Space) and `make test`.
# Everything installs into .venv at the repo root; a second run installs nothing new.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: setup app test browser

# requirements-dev.txt: the Space's pins and the test tools; then the package with the extras the
# tests use (capqa.common.extras), held to requirements.txt's pins.
$(VENV)/.installed: requirements.txt requirements-dev.txt pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	$(PY) -m pip install --quiet --no-build-isolation --constraint requirements.txt -e ".[all]"
	touch $@

setup: $(VENV)/.installed

app: setup
	$(PY) app.py

# The Space's browser tests drive Debian's chromium.
browser:
	@command -v chromium >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq chromium >/dev/null; }

# Two workers (pytest-xdist), each taking whole files: a file's fixtures, servers and venvs stay in
# one process; the full suite takes half the time on a 2-core machine.
test: setup browser
	$(PY) -m pytest -q -n 2 --dist loadfile
