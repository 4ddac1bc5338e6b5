#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests. Prints only its SQLAlchemy URL on stdout;
# everything else goes to stderr, so the caller can capture the URL:
#
#   SGMAHJONG_TEST_DATABASE_URL=$(bash .ci/postgres.sh)     # a new server in /tmp
#   export SGMAHJONG_TEST_DATABASE_URL
#   pytest tests/web
#
#   bash .ci/postgres.sh DIR        the server in DIR: made if DIR is empty or missing,
#                                   started if stopped, reused if running
#   bash .ci/postgres.sh stop DIR   stop the server in DIR and delete DIR
#
# (Assign, then export: `export X=$(...)` would hide this script's failure from set -e.)
#
# As root (CI), PostgreSQL is installed with apt-get when no initdb is found, and the
# server runs as the postgres user (PostgreSQL refuses to run as root). Anyone else needs
# PostgreSQL installed already (Debian: apt-get install postgresql), and the server runs as
# themselves. PG_BIN=/path/to/bin picks the PostgreSQL programs to use.
#
# The server listens only on a Unix socket inside its own directory: no TCP port is taken,
# so it cannot clash with another PostgreSQL on the machine, and only root and the
# directory's owner can reach it (authentication is "trust"). It is tuned for speed, not
# durability (fsync off): it holds test data only.
#
# The server is left running when this script ends: the tests connect to it afterwards,
# and a CI machine is thrown away after its run. A developer stops it with `stop DIR`
# (the directory is named on stderr).
set -euo pipefail

DB=sgmahjong_test
SUPERUSER=postgres
# Marks a directory this script made, so `stop` never deletes a real cluster.
MARK=.sgmahjong-test-server
# The socket's name, not a TCP port: each server's socket lives in its own directory.
PORT=5432

log() { echo "postgres.sh: $*" >&2; }
die() { echo "postgres.sh: error: $*" >&2; exit 1; }
trap 'echo "postgres.sh: error: failed at line $LINENO: $BASH_COMMAND" >&2' ERR

is_root() { [ "$(id -u)" = 0 ]; }

find_bin() {
    if [ -n "${PG_BIN:-}" ]; then
        [ -x "$PG_BIN/initdb" ] || die "PG_BIN=$PG_BIN has no initdb"
        echo "$PG_BIN"
        return
    fi
    local newest
    # Debian keeps each major version apart; the newest one wins.
    newest=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    if [ -n "$newest" ] && [ -x "$newest/initdb" ]; then
        echo "$newest"
    elif command -v initdb >/dev/null 2>&1; then
        dirname "$(command -v initdb)"
    fi
}

install_postgres() {
    is_root || die "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb) and only root may install it: apt-get install postgresql"
    command -v apt-get >/dev/null 2>&1 || die "PostgreSQL is not installed and there is no apt-get to install it"
    log "installing PostgreSQL with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    # A fresh machine may have no package lists at all; an old list may name files the
    # mirror no longer has, so one failed install is retried after an update.
    if ! ls /var/lib/apt/lists/*_Packages* >/dev/null 2>&1; then
        apt-get update -q >&2
    fi
    if ! apt-get install -y -q --no-install-recommends postgresql >&2; then
        apt-get update -q >&2
        apt-get install -y -q --no-install-recommends postgresql >&2
    fi
}

# Runs a server program as the user the server belongs to.
as_owner() {
    if is_root; then
        # From /, which the postgres user can read (the caller's directory may not be).
        (cd / && runuser -u "$SUPERUSER" -- "$@")
    else
        "$@"
    fi
}

url() {
    echo "postgresql+psycopg://$SUPERUSER@/$DB?host=$1&port=$PORT"
}

running() {
    [ -f "$1/data/PG_VERSION" ] && as_owner "$BIN/pg_ctl" -D "$1/data" status >/dev/null 2>&1
}

if [ "${1:-}" = stop ]; then
    dir=${2:?usage: bash .ci/postgres.sh stop DIR}
    [ -f "$dir/$MARK" ] || die "$dir holds no server made by this script"
    BIN=$(find_bin)
    [ -n "$BIN" ] || die "no PostgreSQL programs found (set PG_BIN)"
    if running "$dir"; then
        as_owner "$BIN/pg_ctl" -D "$dir/data" -m fast -w stop >&2
    fi
    rm -rf -- "$dir"
    log "stopped and removed $dir"
    exit 0
fi

BIN=$(find_bin)
if [ -z "$BIN" ]; then
    install_postgres
    BIN=$(find_bin)
    [ -n "$BIN" ] || die "apt-get installed postgresql, but no initdb is in /usr/lib/postgresql/*/bin"
fi
if is_root; then
    id -u "$SUPERUSER" >/dev/null 2>&1 || die "there is no '$SUPERUSER' user to run the server as (the Debian package makes it)"
    command -v runuser >/dev/null 2>&1 || die "runuser (util-linux) is needed to run the server as $SUPERUSER"
fi

if [ $# -ge 1 ]; then
    dir=$1
    [[ "$dir" =~ ^[A-Za-z0-9/._-]+$ ]] || die "$dir: use a path of letters, digits and / . _ - only"
    mkdir -p -- "$dir"
    dir=$(cd -- "$dir" && pwd)
else
    # Short and in /tmp: a Unix socket's path is limited to about 100 bytes, and the
    # postgres user must be able to reach it (a root-only TMPDIR would not do).
    dir=$(mktemp -d /tmp/sgmahjong-pg.XXXXXX)
fi
# The path goes into the URL and postgresql.conf unquoted.
[[ "$dir" =~ ^[A-Za-z0-9/._-]+$ ]] || die "$dir: use a path of letters, digits and / . _ - only"

if [ ! -f "$dir/data/PG_VERSION" ]; then
    if [ -f "$dir/$MARK" ]; then
        rm -rf -- "$dir/data"       # left by an earlier run that failed half-way
    else
        # Checked before the directory is handed to the server's user: a mistyped DIR (an
        # existing folder) must not be chowned.
        [ -z "$(ls -A -- "$dir")" ] || die "$dir is neither empty nor a server made by this script"
        touch "$dir/$MARK"
    fi
    if is_root; then
        chown "$SUPERUSER:" "$dir"
    fi
    chmod 700 "$dir"
    as_owner test -w "$dir" || die "the $SUPERUSER user cannot reach $dir (a folder on its path is closed to it): pick one under /tmp"
    log "creating a cluster in $dir ($("$BIN/postgres" --version))"
    # C collation: text sorts byte by byte, as in SQLite. --no-sync: nothing here must
    # survive a crash.
    if ! as_owner "$BIN/initdb" -D "$dir/data" -U "$SUPERUSER" -A trust -E UTF8 \
            --locale=C --no-sync >"$dir/initdb.log" 2>&1; then
        cat "$dir/initdb.log" >&2
        die "initdb failed in $dir"
    fi
    cat >>"$dir/data/postgresql.conf" <<EOF

# added by .ci/postgres.sh: a private, throwaway test server
listen_addresses = ''
unix_socket_directories = '$dir'
port = $PORT
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 200
EOF
fi

if running "$dir"; then
    log "the server in $dir is already running"
else
    # pg_ctl -w waits until the server accepts connections (or fails).
    if ! as_owner "$BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >&2; then
        tail -n 40 "$dir/server.log" >&2 || true
        die "the server in $dir did not start (log: $dir/server.log)"
    fi
fi

psql() { "$BIN/psql" -h "$dir" -p "$PORT" -U "$SUPERUSER" -X -q -v ON_ERROR_STOP=1 "$@"; }
if [ "$(psql -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$DB'")" != 1 ]; then
    psql -d postgres -c "CREATE DATABASE $DB" >&2
fi
psql -d "$DB" -c "SELECT 1" >/dev/null || die "cannot connect to database $DB in $dir"

log "ready: database $DB, socket in $dir (stop: bash .ci/postgres.sh stop $dir)"
url "$dir"
