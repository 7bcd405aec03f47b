# Bunco Night: `make run` serves the site, `make test` runs every check.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
HOST ?= 0.0.0.0
PORT ?= 8000
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
export PIP_DISABLE_PIP_VERSION_CHECK := 1

# Extra pytest options for `make test-sqlite` / `make test-postgres`, e.g. PYTEST_ARGS="-x tests/play".
PYTEST_ARGS ?=

# Debian packages: Pango for WeasyPrint's PDFs (run); Chromium, Poppler and zbar for tests;
# PostgreSQL for the second test run (a throwaway server, see .ci/with-postgres).
# Fonts: DejaVu (the print stylesheet's), Noto CJK and Noto Color Emoji for names DejaVu lacks.
RUN_DEBS := libpango-1.0-0 fontconfig libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core fonts-noto-cjk \
	fonts-noto-color-emoji
TEST_DEBS := $(RUN_DEBS) chromium chromium-driver poppler-utils zbar-tools wrk postgresql

.PHONY: run test test-sqlite test-postgres test-stress check lint format bench bench-load \
	system-run system-test clean backup restore

define apt_install
	@missing=$$(for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:" $$missing; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi
endef

$(PY):
	$(PYTHON) -m venv $(VENV) || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq python3-venv && $(PYTHON) -m venv $(VENV); }

$(VENV)/.run-installed: requirements.txt | $(PY)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -r requirements.txt
	touch $@

$(VENV)/.test-installed: requirements.txt requirements-test.txt $(VENV)/.run-installed
	$(PIP) install -q -r requirements-test.txt
	touch $@

system-run:
	$(call apt_install,$(RUN_DEBS))

system-test:
	$(call apt_install,$(TEST_DEBS))

.secret_key:
	@$(PYTHON) -c "import secrets; print(secrets.token_urlsafe(50))" > $@
	@chmod 600 $@

run: system-run $(VENV)/.run-installed .secret_key
	@export DJANGO_SECRET_KEY="$$(cat .secret_key)" DJANGO_ALLOWED_HOSTS="$${DJANGO_ALLOWED_HOSTS:-*}"; \
	export DJANGO_PUBLIC_URL="$${DJANGO_PUBLIC_URL:-$$($(PY) -m bunco_night.core.address '$(HOST)' '$(PORT)')}"; \
	$(PY) manage.py migrate --noinput && \
	$(PY) manage.py load_demo && \
	$(PY) manage.py collectstatic --noinput -v 0 && \
	echo && \
	if [ -n "$$DJANGO_PUBLIC_URL" ]; then \
	  echo "Bunco Night is at $$DJANGO_PUBLIC_URL/ (phones on the same Wi-Fi open it too)"; \
	  echo "On this computer also http://127.0.0.1:$(PORT)/; table links and QR codes use the address above."; \
	else \
	  echo "Bunco Night is at http://127.0.0.1:$(PORT)/ on this computer only: no phone can reach it"; \
	  echo "(HOST=$(HOST), or no network). Run 'make run' without HOST, or set DJANGO_PUBLIC_URL."; \
	fi; \
	$(PY) manage.py demo_login; echo "Stop with Ctrl+C."; echo; \
	exec $(VENV)/bin/gunicorn -c gunicorn.conf.py bunco_night.wsgi --bind $(HOST):$(PORT) --access-logfile -

# A consistent copy of the database in backups/ (DIR=... elsewhere); safe while the site runs.
backup: $(VENV)/.run-installed .secret_key
	@DJANGO_SECRET_KEY="$$(cat .secret_key)" $(PY) manage.py backup $(if $(DIR),--dir "$(DIR)")

# Bring a backup back into an empty database: make restore FILE=backups/bunco-night-....sqlite3
restore: $(VENV)/.run-installed .secret_key
	@test -n "$(FILE)" || { echo "Say which backup: make restore FILE=backups/..."; exit 2; }
	@DJANGO_SECRET_KEY="$$(cat .secret_key)" $(PY) manage.py restore "$(FILE)"

TEMPLATES = $(shell find templates -name '*.html' | sort)

lint: $(VENV)/.test-installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/djade --check --target-version 5.2 $(TEMPLATES)

format: $(VENV)/.test-installed
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/djade --target-version 5.2 $(TEMPLATES)

# Lint and checks, then the suite on SQLite (every test) and on PostgreSQL (what touches the
# database; of the browser tests, those marked both_databases). Every phase runs even if one
# before it failed; the target fails if any did, and ends with each phase's time.
TEST_PHASES := lint check test-sqlite test-postgres
test: system-test $(VENV)/.test-installed
	@status=0; times=""; \
	for phase in $(TEST_PHASES); do \
	  start=$$SECONDS; $(MAKE) --no-print-directory $$phase || { status=1; times="$$times $$phase FAILED"; }; \
	  times="$$times $$phase=$$((SECONDS - start))s"; \
	done; \
	echo "== make test: exit $$status after $$SECONDS s ($$times )"; exit $$status

check: $(VENV)/.test-installed
	$(PY) manage.py check --settings=bunco_night.test_settings
	$(PY) manage.py makemigrations --check --dry-run --settings=bunco_night.test_settings

# One worker per core (pytest-xdist), each with its own database, live server and Chromium.
# Tests run in a random order (pytest-randomly): the header prints the seed, and
# PYTEST_ARGS=--randomly-seed=N repeats that order. The 25 slowest tests are listed at the end.
PYTEST := $(VENV)/bin/pytest -n auto --durations=25 --durations-min=1

# BUNCO_TEST_DATABASE makes the suite refuse to start on any other database.
test-sqlite: system-test $(VENV)/.test-installed
	@echo "== The suite on SQLite"
	@SECONDS=0; status=0; \
	env -u DATABASE_URL BUNCO_TEST_DATABASE=sqlite $(PYTEST) $(PYTEST_ARGS) || status=$$?; \
	echo "== SQLite: exit $$status after $$SECONDS s"; exit $$status

test-postgres: system-test $(VENV)/.test-installed
	@echo "== The suite on PostgreSQL (a throwaway server): what touches the database"
	@SECONDS=0; status=0; \
	BUNCO_TEST_DATABASE=postgresql .ci/with-postgres $(PYTEST) --second-database $(PYTEST_ARGS) || status=$$?; \
	echo "== PostgreSQL: exit $$status after $$SECONDS s"; exit $$status

# The browser tests with every core kept busy by another process, as on a loaded CI machine.
test-stress: system-test $(VENV)/.test-installed
	@echo "== The browser tests, with $$(nproc) busy loops beside them"
	@for i in $$(seq $$(nproc)); do (exec yes >/dev/null) & done; \
	trap 'kill $$(jobs -p) 2>/dev/null' EXIT; SECONDS=0; status=0; \
	env -u DATABASE_URL BUNCO_TEST_DATABASE=sqlite $(PYTEST) -m browser $(PYTEST_ARGS) || status=$$?; \
	echo "== Browser tests under load: exit $$status after $$SECONDS s"; exit $$status

bench: $(VENV)/.test-installed
	$(PY) bench/rules_bench.py

bench-load: $(VENV)/.run-installed
	$(call apt_install,wrk)
	$(PY) bench/load_bench.py $(BENCH_ARGS)

.PHONY: bench-party
$(VENV)/.bench-installed: bench/requirements.txt $(VENV)/.run-installed
	$(PIP) install -q -r bench/requirements.txt
	touch $@

# A party at a fixed rate (bench/party_bench.py): SQLite, or PostgreSQL when DATABASE_URL says so.
bench-party: $(VENV)/.bench-installed
	$(PY) bench/party_bench.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache .hypothesis
