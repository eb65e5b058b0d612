# Two commands for a fresh machine: `make run` and `make test`. Everything else is set up by them.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Lets a server started by this Makefile on this computer use the secret key generated beside
# the SQLite database (tarot_club/secret_key.py). Only local serving targets set it; a
# production start (make serve, gunicorn) needs DJANGO_SECRET_KEY.
LOCAL_SERVER := DJANGO_LOCAL_SERVER=1
HOST ?= 127.0.0.1
PORT ?= 8000
# make serve: pages only (long documents are background jobs, so 30 s is plenty); workers are
# recycled now and then; gunicorn 27's control socket is one fixed path per user: off.
GUNICORN_FLAGS ?= --no-control-socket --timeout 30 --max-requests 2000 --max-requests-jitter 200

.PHONY: run club test lint serve worker demo bench clean messages mutation

$(BIN)/python:
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "Python 3.11 is required ($(PYTHON) not found)."; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

## run: set up, migrate SQLite, load a demo on an empty database, serve on :8000
run: $(STAMP)
	DJANGO_DEBUG=1 $(BIN)/python manage.py migrate --noinput
	DJANGO_DEBUG=1 $(BIN)/python manage.py setup_demo
	@echo ""
	@echo "  Tarot Club runs at http://$(HOST):$(PORT)/"
	@echo "  Staff pages: http://$(HOST):$(PORT)/gestion/  (log in as 'organisateur', password 'tarot-demo')"
	@echo "  The score calculator and the public pages need no login."
	@echo ""
	@# The background jobs' worker runs beside the server and stops with it (--parent).
	DJANGO_DEBUG=1 $(BIN)/python manage.py jobs_worker --parent $$$$ & exec env DJANGO_DEBUG=1 $(LOCAL_SERVER) $(BIN)/python manage.py runserver $(HOST):$(PORT)

## club: serve the club room's phones over its Wi-Fi (gunicorn on every address of this laptop,
## debug off, plain HTTP, no /admin/); never loads the demo, refuses to start while an account has
## the demo's password, asks for the first organiser account; prints the address phones open,
## with its QR code
club: $(STAMP)
	$(LOCAL_SERVER) $(BIN)/python manage.py serve_club --port $(PORT)

## test: set up, lint, then run the whole test suite (browser tests when chromium is installed)
test: $(STAMP) lint
	@command -v chromium >/dev/null 2>&1 || echo "NOTE: chromium is not installed: the browser tests will be SKIPPED (apt-get install chromium)."
	DJANGO_TESTING=1 $(BIN)/python -m pytest -n 2 --dist loadgroup $(PYTEST_ARGS)

## mutation: would the tests catch a wrong score, refusal or rank? Mutates the pure core (mutmut,
## one child process, one file at a time), prints killed / survived per file (MUTATION_ARGS=deal)
mutation: $(STAMP)
	DJANGO_TESTING=1 $(BIN)/python tests/mutation/run.py $(MUTATION_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	DJANGO_TESTING=1 $(BIN)/python manage.py makemigrations --check --dry-run

## serve: production-style server (needs DJANGO_SECRET_KEY, DATABASE_URL, DJANGO_ALLOWED_HOSTS);
## stops at once, saying why, when the deploy checks find an error (no DJANGO_SECRET_KEY...)
serve: $(STAMP)
	$(BIN)/python manage.py check --deploy --fail-level ERROR
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput
	$(BIN)/gunicorn tarot_club.wsgi --workers $${WEB_CONCURRENCY:-3} --bind $(HOST):$(PORT) $(GUNICORN_FLAGS)

## worker: runs the background jobs (score sheet documents, season archives); in production, one
## or more per machine beside make serve, on the same database and DJANGO_JOBS_DIR
worker: $(STAMP)
	$(BIN)/python manage.py jobs_worker

messages: $(STAMP)
	DJANGO_DEBUG=1 $(BIN)/python manage.py makemessages -l fr --no-obsolete --no-location --ignore='.venv/*' --ignore='mutants/*'
	DJANGO_DEBUG=1 $(BIN)/python manage.py compilemessages --ignore='.venv/*' --ignore='mutants/*'

bench: $(STAMP)
	$(BIN)/python bench/run.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) staticfiles .pytest_cache
