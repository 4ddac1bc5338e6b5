"""``sgmahjong serve``: the web table (FastAPI and uvicorn): invite friends, AI fills the seats."""

from __future__ import annotations

import argparse
import errno
import logging
import os
import socket

from ..errors import SgmahjongError
from .terminal import HelpFormatter

WILDCARDS = ("0.0.0.0", "::", "")

EPILOG = """\
examples:
  sgmahjong serve                                  http://127.0.0.1:8000
  sgmahjong serve --host 0.0.0.0 --port 8080       reachable from the local network
  sgmahjong serve --database-url postgresql+psycopg://user@db/sgmahjong

Tables live in a SQLite file in your data folder (SGMAHJONG_DATA_DIR changes the folder,
SGMAHJONG_DATABASE_URL or --database-url the database). Unfinished tables resume when
the server starts again. A SQLite database serves one process; any number of servers
can share one PostgreSQL database (behind any load balancer): each plays some tables
and relays its sockets for the others, and a server that dies has its tables taken
over by another within a few seconds.
"""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "serve", help="serve the web table: invite friends by link, AI fills empty seats",
        description="Start the web table: create a table, share its invite link, and play "
                    "in the browser; AI players fill the empty seats.",
        epilog=EPILOG, formatter_class=HelpFormatter)
    p.add_argument("--host", default="127.0.0.1", help="address to listen on "
                                                       "(default 127.0.0.1)")
    p.add_argument("--port", type=port_number, default=8000, help="port (default 8000)")
    p.add_argument("--database-url", metavar="URL",
                   default=os.environ.get("SGMAHJONG_DATABASE_URL"),
                   help="SQLAlchemy database URL (default: $SGMAHJONG_DATABASE_URL, else "
                        "web.sqlite3 in the data folder)")
    p.add_argument("--ai-delay", type=float, default=0.6, metavar="SECONDS",
                   help="pause after each AI move (default 0.6)")
    p.add_argument("--disconnect-grace", type=float, default=30.0, metavar="SECONDS",
                   help="an absent player's turns go to the AI after this (default 30)")
    p.add_argument("--claim-window", type=float, default=10.0, metavar="SECONDS",
                   help="time a player has to answer a claim offer (pong, chow, kong, win) "
                        "before the server passes for them (default 10; 0 turns it off)")
    p.add_argument("--turn-limit", type=float, default=60.0, metavar="SECONDS",
                   help="time a player has for their own turn before the AI plays that "
                        "turn for them, seat kept (default 60; 0 turns it off)")
    p.add_argument("--next-hand-delay", type=float, default=30.0, metavar="SECONDS",
                   help="the longest wait between hands for players to press Next "
                        "(default 30)")
    p.add_argument("--allow-seed", action="store_true",
                   help="let a table's creator fix the deal with a seed (for tests, "
                        "demonstrations and benchmarks; off by default so nobody can "
                        "replay a known wall against friends)")
    p.add_argument("--rate", type=float, default=10.0, metavar="MESSAGES",
                   help="messages a socket may send per second, bursts of three times "
                        "that allowed (default 10)")
    p.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                   help="another websocket origin to accept, e.g. a proxy's "
                        "https://mahjong.example (repeatable)")
    p.add_argument("--tables-per-client", type=int, default=20, metavar="N",
                   help="tables one client address may create in 10 minutes (default 20; "
                        "raise it behind a proxy, where every client has its address)")
    p.add_argument("--ai-processes", type=int, default=None, metavar="N",
                   help="processes that think for the AI players, hint and review "
                        "(default: one per core; 0 thinks in this process's threads)")
    p.add_argument("--ledgers-per-client", type=int, default=20, metavar="N",
                   help="scorekeeper ledgers one client address may open in 10 minutes "
                        "(default 20)")
    p.add_argument("--ledger-days", type=float, default=90.0, metavar="DAYS",
                   help="a scorekeeper ledger not changed for this many days is deleted "
                        "(default 90)")
    p.add_argument("--max-connections", type=int, default=800, metavar="N",
                   help="connections open at once, sockets included (default 800): past it "
                        "requests get 503 and new connections are closed at once")
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                   help="another name this server answers to (the Host header), e.g. "
                        "mahjong.lan (repeatable); localhost, 127.0.0.1, ::1 and the "
                        "--host name always are, and any IP address when serving on "
                        "0.0.0.0; other names are refused, which stops DNS rebinding")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..store.db import TableStore, default_database_url
    from ..store.leases import SingleServerLock, is_postgres

    url = args.database_url or default_database_url()
    if not args.rate > 0:
        raise SgmahjongError(f"--rate must be above 0, not {args.rate}")
    if args.ai_processes is not None and not 0 <= args.ai_processes <= 256:
        raise SgmahjongError(f"--ai-processes must be 0 to 256, not {args.ai_processes}")
    if not args.ledger_days > 0:
        raise SgmahjongError(f"--ledger-days must be above 0, not {args.ledger_days}")
    shared = is_postgres(url)
    from ..web.memory import limit_malloc_arenas
    limit_malloc_arenas()     # before any thread: a long-running server's heap stays compact
    # Take the port before saying where the table is: a port in use is one clear error,
    # not an address printed for a server that never starts.
    sock = listen(args.host, args.port)
    lock = SingleServerLock(url)
    try:
        lock.acquire()            # a second server on one SQLite file is refused
        store = TableStore(url)   # created on first run
    except BaseException:
        lock.release()
        sock.close()
        raise
    # the web stack, once nothing stands in the way
    import uvicorn

    from ..web import WebConfig, create_app, logs
    from ..web.connections import raise_open_files_limit, server_config
    from ..web.limits import DAY, WebLimits

    config = WebConfig(database_url=url, ai_delay=args.ai_delay,
                       rate=args.rate, burst=3 * args.rate, shared=shared,
                       disconnect_grace=args.disconnect_grace,
                       claim_window=max(0.0, args.claim_window),
                       turn_limit=max(0.0, args.turn_limit),
                       next_hand_delay=args.next_hand_delay, allow_seed=args.allow_seed,
                       allowed_origins=tuple(args.allow_origin),
                       allowed_hosts=served_hosts(args.host, args.allow_host),
                       allow_ip_hosts=args.host in WILDCARDS,
                       ai_processes=args.ai_processes,
                       limits=WebLimits(creates_per_client=max(1, args.tables_per_client),
                                        ledgers_per_client=max(1, args.ledgers_per_client),
                                        ledger_expiry=args.ledger_days * DAY,
                                        max_connections=max(1, args.max_connections)))
    app = create_app(config, store)
    raise_open_files_limit()
    port = sock.getsockname()[1]
    shown = "127.0.0.1" if args.host in WILDCARDS else args.host
    if ":" in shown:
        shown = f"[{shown}]"
    print(f"sgmahjong: the web table is at http://{shown}:{port}/ (Ctrl-C stops it)")
    print(f"sgmahjong: tables are kept in {_safe(url)}", flush=True)
    server = uvicorn.Server(server_config(app, config.limits, config.clock))
    handler = logs.install()
    try:
        server.run(sockets=[sock])
    finally:
        logging.getLogger().removeHandler(handler)
        sock.close()
        store.close()
        lock.release()
    return 0


def served_hosts(host: str, extra: list[str]) -> tuple[str, ...]:
    """The names the server answers to: the local ones, the one it listens on (unless it
    listens on every address) and the ``--allow-host`` names.

    >>> served_hosts("0.0.0.0", ["mahjong.lan"])
    ('localhost', '127.0.0.1', '::1', 'mahjong.lan')
    >>> served_hosts("box.local", [])
    ('localhost', '127.0.0.1', '::1', 'box.local')
    """
    from ..web.config import LOCAL_HOSTS

    names = list(LOCAL_HOSTS)
    for name in ([] if host in WILDCARDS else [host]) + list(extra):
        name = name.strip().strip("[]").lower()
        if name and name not in names:
            names.append(name)
    return tuple(names)


def port_number(text: str) -> int:
    """An argparse type: a TCP port, 0 (any free port) to 65535."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, not {port}")
    return port


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``, or a SgmahjongError that says why not."""
    try:
        family, kind, proto, _, addr = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except socket.gaierror as exc:
        raise SgmahjongError(f"cannot listen on {host!r}: {exc.strerror}") from None
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(addr)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        why = ("the port is in use (is another server running? try --port)"
               if exc.errno == errno.EADDRINUSE else exc.strerror or str(exc))
        raise SgmahjongError(f"cannot listen on {host}:{port}: {why}") from None
    sock.set_inheritable(True)
    return sock


def _safe(url: str) -> str:
    """The database URL without a password."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        creds, host = rest.rsplit("@", 1)
        if ":" in creds:
            return f"{scheme}://{creds.split(':', 1)[0]}:***@{host}"
    return url
