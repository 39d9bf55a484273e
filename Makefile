# Two commands on a fresh machine (see README.md):
#   make run    install into .venv and serve the site on SQLite, nothing else needed
#   make test   install what the tests need and run the whole suite
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test venv test-venv messages bench

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

venv: $(BIN)/python
	$(BIN)/pip install -q -r requirements.txt

test-venv: $(BIN)/python
	$(BIN)/pip install -q -r requirements-test.txt

run: venv
	$(BIN)/python manage.py migrate --noinput
	IN_PROCESS_BEAT=$(if $(REDIS_URL),0,1) $(BIN)/daphne -b $(HOST) -p $(PORT) config.asgi:application

test: test-venv
	bash scripts/test.sh

messages: venv
	$(BIN)/python manage.py makemessages -l es --ignore=.venv --ignore=tests/browser --ignore=games/tables/game_template
	$(BIN)/python manage.py compilemessages --ignore=.venv

# bench_bots: per game playout speed, every level's time per decision, the strength matrix at
# 2 players and each level against fast bots at the game's most players (6 is capped per
# game), 40 games a match. 400-game matches with the expert at its default budget take hours
# of CPU: pass e.g. BENCH_ARGS="--games 400 --budget 40", or split a match over processes
# with --first and add the parts up with --combine (bench/bench_bots.py's docstring).
BENCH_ARGS ?= --players 6
bench: test-venv
	$(BIN)/python bench/bench_bots.py $(BENCH_ARGS)
	$(BIN)/python bench/bench_bot_lengths.py $(BENCH_ARGS_LENGTHS)
	$(BIN)/python bench/bench_gizmos_clicks.py
	$(BIN)/python bench/bench_load.py
	$(BIN)/python bench/bench_dashboard.py
