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

.PHONY: run test install lint typecheck bench migrate worker clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

migrate: install
	$(BIN)/python manage.py migrate --noinput

## make run: migrate, seed demo users and games, start a Celery worker+beat and the web server.
run: migrate
	$(BIN)/python manage.py seed_demo
	$(BIN)/python manage.py seed_demo_tournaments
	$(BIN)/python manage.py seed_demo_leagues
	$(BIN)/python manage.py seed_demo_ladders
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	@echo "Starting the Celery worker (with beat) and the web server on http://$(HOST):$(PORT)/"
	@trap 'trap - INT TERM EXIT; kill 0' INT TERM EXIT; \
	$(BIN)/celery -A celticsite worker --beat --pool=solo --loglevel=WARNING \
		--schedule=$(VAR_DIR)/celerybeat-schedule & \
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

## make worker: only the Celery worker with its beat scheduler (docker-compose runs them apart).
worker: migrate
	$(BIN)/celery -A celticsite worker --beat --loglevel=INFO --schedule=$(VAR_DIR)/celerybeat-schedule

## make test: lint, import contracts, strict types on the engine, then the whole suite.
test: install lint typecheck
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .
	$(BIN)/lint-imports

typecheck: install
	$(BIN)/mypy games/rules tournaments/pairing tournaments/standings tournaments/trf leagues/placement.py ladders/rules.py

bench: install
	$(BIN)/python -m bench.engine
	$(BIN)/python -m bench.ratings
	$(BIN)/python -m bench.swiss --sizes 50 200

clean:
	rm -rf $(VENV) var staticfiles .pytest_cache .mypy_cache .ruff_cache
