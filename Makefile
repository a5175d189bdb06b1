# Set-up is part of every target: a fresh machine needs nothing but python3.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
LINT_STAMP := $(VENV)/.lint-installed

.PHONY: test demo setup pytest lit bench lint clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

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
