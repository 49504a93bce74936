#!/usr/bin/env bash
# Install (if needed) and start a local PostgreSQL for the tests, then print the URL of
# a test database. Uses the Debian cluster: root may not run initdb itself.
# Prints nothing (exit 0) where that is impossible (not root, no apt): the PostgreSQL
# tests then skip locally; in CI (CI=true) they fail instead of skipping.
set -euo pipefail
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
  exit 0
fi
if ! command -v pg_ctlcluster >/dev/null 2>&1; then
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
service postgresql start >/dev/null
for _ in $(seq 1 30); do
  su postgres -c "pg_isready -q" && break
  sleep 1
done
su postgres -c "psql -qtc \"SELECT 1 FROM pg_roles WHERE rolname='nightfall'\"" | grep -q 1 \
  || su postgres -c "psql -qc \"CREATE ROLE nightfall LOGIN SUPERUSER PASSWORD 'nightfall';\"" >/dev/null
su postgres -c "psql -qtc \"SELECT 1 FROM pg_database WHERE datname='nightfall_test'\"" \
  | grep -q 1 || su postgres -c "createdb -O nightfall nightfall_test"
echo "postgresql+psycopg://nightfall:nightfall@127.0.0.1/nightfall_test"
