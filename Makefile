# Set-up is part of every target: a fresh machine needs nothing but python3.
# `make test PYTHON=python3.12` builds and tests in a venv of that interpreter's own
# (.venv-3.12), beside the default .venv; a pythonX.Y that is not on PATH is taken from
# pyenv's installed versions (tools/find_python.sh).
ifeq ($(origin PYTHON),undefined)
INTERPRETER := python3
VENV ?= .venv
else
INTERPRETER := $(shell sh tools/find_python.sh '$(PYTHON)')
ifeq ($(INTERPRETER),)
$(error no interpreter for PYTHON=$(PYTHON))
endif
VENV ?= .venv-$(shell $(INTERPRETER) -c 'import sys; print("%d.%d" % sys.version_info[:2])')
endif
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
LINT_STAMP := $(VENV)/.lint-installed

.PHONY: test demo setup jax pytest lit bench lint clean

setup: $(STAMP)

$(STAMP): pyproject.toml setup.py
	test -x $(BIN)/python || $(INTERPRETER) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# The jax extra in the same venv, for xla-emit-jax: `make jax PYTHON=python3.12` (jax 0.12
# needs Python 3.12 or later). Never needed by `make test`.
jax: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[jax]'

test: $(STAMP)
	$(BIN)/python -m pytest -q tests
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/lit -sv tests/filecheck

demo: $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" sh examples/demo.sh

# A few minutes; `make bench BENCH_ARGS=--quick` for smaller sizes and fewer repeats.
bench: $(STAMP)
	$(BIN)/python benchmarks/run_all.py $(BENCH_ARGS)

# Not part of `test`: the type check alone takes a while on CI. Python sources only are
# format-checked: the code samples in the Markdown docs keep their hand alignment.
lint: $(LINT_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check --extend-exclude '*.md' .
	$(BIN)/basedpyright

$(LINT_STAMP): $(STAMP)
	$(BIN)/python -m pip install -q -e '.[lint]'
	touch $(LINT_STAMP)

clean:
	rm -rf $(VENV)
