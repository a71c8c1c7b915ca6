# Two commands on a fresh machine:  make run  (the site with demo data)  and  make test.
# Both create the virtualenv, install, and migrate by themselves. Set DATABASE_URL and
# REDIS_URL to use PostgreSQL and Redis instead of the embedded SQLite and filesystem broker.

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=
VAR_DIR := $(or $(CELTIC_VAR_DIR),var)
# The served host and port, for the links in emails and the demo's banner (settings.SITE_URL
# follows them unless SITE_URL is set).
SITE_ENV := CELTIC_HOST=$(HOST) CELTIC_PORT=$(PORT)

.PHONY: run test install lint typecheck bench bench-scale migrate worker clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

migrate: install
	$(BIN)/python manage.py migrate --noinput

## make run: migrate, seed demo users and games, start the Celery workers (the clock queue
## with beat, the mail queue) and the web server. A slow mail server never holds up a clock.
## The logins are printed once, last: by demo_banner, once the server answers.
run: migrate
	$(BIN)/python manage.py vapid_keys
	$(SITE_ENV) $(BIN)/python manage.py seed_demo --no-banner
	$(SITE_ENV) $(BIN)/python manage.py seed_demo_tournaments
	$(SITE_ENV) $(BIN)/python manage.py seed_demo_leagues
	$(SITE_ENV) $(BIN)/python manage.py seed_demo_ladders
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	@echo "Starting the Celery workers (clock with beat, mail) and the web server on http://$(HOST):$(PORT)/"
	@trap 'trap - INT TERM EXIT; kill 0' INT TERM EXIT; \
	$(SITE_ENV) $(BIN)/celery -A celticsite --quiet worker -Q clock -n clock@%h --beat --pool=solo \
		--loglevel=WARNING --schedule=$(VAR_DIR)/celerybeat-schedule & \
	$(SITE_ENV) $(BIN)/celery -A celticsite --quiet worker -Q mail -n mail@%h --pool=solo --loglevel=WARNING & \
	$(SITE_ENV) $(BIN)/python manage.py demo_banner & \
	$(SITE_ENV) $(BIN)/python manage.py runserver $(HOST):$(PORT)

## make worker: only the Celery workers, the clock queue's with beat (docker-compose runs
## beat, the clock worker and the mail worker as three services).
worker: migrate
	@trap 'trap - INT TERM EXIT; kill 0' INT TERM EXIT; \
	$(SITE_ENV) $(BIN)/celery -A celticsite worker -Q clock -n clock@%h --beat --concurrency=1 --loglevel=INFO \
		--schedule=$(VAR_DIR)/celerybeat-schedule & \
	$(SITE_ENV) $(BIN)/celery -A celticsite worker -Q mail -n mail@%h --loglevel=INFO

## make test: lint, import contracts, strict types on the engine, then the whole suite.
test: install lint typecheck
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

typecheck: install
	$(BIN)/mypy games/kinds tournaments/pairing tournaments/standings tournaments/trf leagues/placement.py ladders/rules.py

bench: install
	$(BIN)/python -m bench.engine
	$(BIN)/python -m bench.knot
	$(BIN)/python -m bench.ratings
	$(BIN)/python -m bench.inbound
	$(BIN)/python -m bench.swiss --sizes 50 200
	$(BIN)/python -m bench.tournaments

## make bench-scale: seed a disposable PostgreSQL database to a federation's size, serve it
## with gunicorn (4 workers) and measure the API at 1, 8 and 32 concurrent clients (see
## bench/README.md). SCALE_DB, SCALE_ARGS (e.g. "--reuse --duration 5 --players 2000").
SCALE_DB ?= postgres://postgres@127.0.0.1:5432/celtic_scale
SCALE_ARGS ?=
bench-scale: install
	$(BIN)/python -m bench.scale_load --database-url $(SCALE_DB) $(SCALE_ARGS)

clean:
	rm -rf $(VENV) var staticfiles .pytest_cache .mypy_cache .ruff_cache
