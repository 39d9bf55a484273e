#!/usr/bin/env bash
# The whole test suite against real PostgreSQL, Redis, a Celery worker, an SMTP
# server on loopback and Debian's Chromium. Starts (or, as root, installs) the
# services that are missing; never skips them silently.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-.venv/bin}

need_apt=()
command -v pg_ctlcluster >/dev/null || need_apt+=(postgresql)
command -v redis-server >/dev/null || need_apt+=(redis-server)
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
command -v msgfmt >/dev/null || need_apt+=(gettext)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "installing ${need_apt[*]} with apt-get"
    apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need_apt[@]}"
  else
    echo "missing ${need_apt[*]}: install them (apt-get install ${need_apt[*]})" >&2
    exit 1
  fi
fi

if ! pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then
  echo "starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start
  for _ in $(seq 30); do pg_isready -h 127.0.0.1 -p 5432 -q && break; sleep 1; done
fi
if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  echo "starting Redis"
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no
  for _ in $(seq 30); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 1; done
fi

PGUSER_NAME=${PGUSER_NAME:-$( [ "$(id -u)" = 0 ] && echo root || echo postgres )}
export DATABASE_URL=${TEST_DATABASE_URL:-postgres://${PGUSER_NAME}@127.0.0.1:5432/postgres}
export REDIS_URL=${TEST_REDIS_URL:-redis://127.0.0.1:6379/14}
export CHANNELS_PREFIX="asgi-test-$$"
export CELERY_QUEUE="boardgames-test-$$"

"$BIN/python" manage.py compilemessages --ignore=.venv >/dev/null

status=0
"$BIN/python" -m pytest -m "not browser" -p no:cacheprovider "$@" || status=$?
# 5: no non-browser test among the given paths (e.g. only browser files): go on.
if [ $status -eq 5 ]; then status=0; fi
if [ $status -eq 0 ] || [ $status -eq 1 ]; then
  DJANGO_ALLOW_ASYNC_UNSAFE=true "$BIN/python" -m pytest -m browser -p no:cacheprovider "$@" || {
    s=$?; [ $s -eq 5 ] || status=$s; }
fi
exit $status
