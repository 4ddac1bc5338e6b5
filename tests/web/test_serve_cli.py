"""``sgmahjong serve`` on the command line: where it listens, and one clear line when it
cannot."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path


def serve(tmp_path: Path, *args: str, timeout: float = 20) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, SGMAHJONG_DATA_DIR=str(tmp_path / "data"))
    return subprocess.run([sys.executable, "-m", "sgmahjong", "serve", *args],
                          capture_output=True, text=True, timeout=timeout, env=env)


def test_a_port_in_use_is_one_line_and_exit_2(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        r = serve(tmp_path, "--port", str(port))
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and f"127.0.0.1:{port}" in r.stderr
    assert "in use" in r.stderr and "Traceback" not in r.stderr
    assert "the web table is at" not in r.stdout      # no address for a server that isn't


def test_a_bad_port_or_host_is_refused(tmp_path: Path) -> None:
    r = serve(tmp_path, "--port", "99999")
    assert r.returncode == 2 and "--port" in r.stderr and "65535" in r.stderr
    r = serve(tmp_path, "--port", "eighty")
    assert r.returncode == 2 and "eighty" in r.stderr
    r = serve(tmp_path, "--host", "no-such-host.invalid")
    assert r.returncode == 2 and "no-such-host.invalid" in r.stderr
    assert "Traceback" not in r.stderr


def test_it_prints_the_address_it_really_listens_on(tmp_path: Path) -> None:
    env = dict(os.environ, SGMAHJONG_DATA_DIR=str(tmp_path / "data"))
    proc = subprocess.Popen([sys.executable, "-m", "sgmahjong", "serve", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("sgmahjong: the web table is at http://127.0.0.1:")
        url = line.split(" at ", 1)[1].split()[0]
        assert not url.endswith(":0/")                 # the port the system gave
        with urllib.request.urlopen(url + "api/options", timeout=10) as r:
            assert r.status == 200
        # the database was created on first run, in the data folder
        assert (tmp_path / "data" / "web.sqlite3").exists()
    finally:
        proc.terminate()
        proc.wait(10)


def test_allow_host_names_are_served_and_others_refused(tmp_path: Path) -> None:
    env = dict(os.environ, SGMAHJONG_DATA_DIR=str(tmp_path / "data"))
    proc = subprocess.Popen([sys.executable, "-m", "sgmahjong", "serve", "--port", "0",
                             "--allow-host", "mahjong.lan", "--allow-host", "Box.Local"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().split(" at ", 1)[1].split()[0] + "api/options"
        port = url.split(":")[2].split("/")[0]

        def status(host: str) -> tuple[int, str]:
            req = urllib.request.Request(url, headers={"Host": host})
            try:
                with urllib.request.urlopen(req, timeout=10) as r:
                    return r.status, ""
            except urllib.error.HTTPError as exc:
                return exc.code, exc.read().decode()

        for host in (f"127.0.0.1:{port}", f"localhost:{port}", "mahjong.lan",
                     f"box.local:{port}"):
            assert status(host)[0] == 200, host
        code, body = status("evil.example")
        assert code == 400 and "bad-host" in body and "--allow-host evil.example" in body
        # listening on 127.0.0.1 only: an IP address other than the local ones is refused
        assert status("192.168.1.20")[0] == 400
    finally:
        proc.terminate()
        proc.wait(10)


# ------------------------------------------------------------ held connections

class HeldServer:
    """``serve``'s uvicorn settings around the app, in a thread of this process, with its
    clocks on a ManualClock: the test moves time on instead of waiting for a timeout."""

    def __init__(self, tmp_path: Path, limits: object) -> None:
        import threading

        import uvicorn

        from sgmahjong.commands.serve import listen
        from sgmahjong.store.db import TableStore
        from sgmahjong.web import WebConfig, create_app
        from sgmahjong.web.clock import ManualClock
        from sgmahjong.web.connections import server_config

        self.clock = ManualClock()
        self.store = TableStore(f"sqlite:///{tmp_path / 'web.sqlite3'}")
        cfg = WebConfig(clock=self.clock, limits=limits, resume_on_startup=False)  # type: ignore[arg-type]
        self.sock = listen("127.0.0.1", 0)
        self.port = self.sock.getsockname()[1]
        self.server = uvicorn.Server(server_config(create_app(cfg, self.store), cfg.limits,
                                                   self.clock))
        self.thread = threading.Thread(target=self.server.run,
                                       kwargs={"sockets": [self.sock]}, daemon=True)
        self.thread.start()
        self.until(lambda: self.server.started)

    def until(self, ready: object, seconds: float = 20) -> None:
        """Wait for the server to reach a state (not for a timeout: the clock is still)."""
        import time
        deadline = time.monotonic() + seconds
        while not ready():  # type: ignore[operator]
            assert time.monotonic() < deadline, "the server did not get there"
            time.sleep(0.01)

    def open(self) -> socket.socket:
        s = socket.create_connection(("127.0.0.1", self.port), timeout=20)
        return s

    def held(self) -> int:
        return len(self.server.server_state.connections)

    def timing(self, seconds: float, count: int = 1) -> None:
        """Wait until ``count`` timers run out ``seconds`` from now (set, not run out)."""
        self.until(lambda: sum(abs(t - self.clock.now() - seconds) < 1e-6
                               for t in self.clock.pending()) == count)

    def close(self) -> None:
        self.server.should_exit = True
        self.thread.join(20)
        self.sock.close()
        self.store.close()


def _answer(s: socket.socket) -> bytes:
    """All the server sends until it closes the connection."""
    out = b""
    while chunk := s.recv(65536):
        out += chunk
    return out


GET = b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


def _response(s: socket.socket) -> bytes:
    """One whole response (its headers, then content-length bytes of body)."""
    out = b""
    while b"\r\n\r\n" not in out:
        chunk = s.recv(65536)
        assert chunk, out
        out += chunk
    head, body = out.split(b"\r\n\r\n", 1)
    length = int(next(line.split(b":", 1)[1] for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length:")))
    while len(body) < length:
        body += s.recv(65536)
    return head + b"\r\n\r\n" + body


def test_serve_times_out_held_headers_and_bodies_and_caps_connections(tmp_path: Path) -> None:
    from sgmahjong.web.limits import WebLimits

    srv = HeldServer(tmp_path, WebLimits(header_timeout=10, body_timeout=30,
                                         max_connections=3))
    try:
        # headers that never finish (slowloris): 408 and closed once their time is up
        slow = srv.open()
        slow.sendall(b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\nX-a: ")
        silent = srv.open()                    # and one that sends nothing at all
        srv.timing(10, 2)
        srv.clock.advance(9)
        ok = srv.open()                        # within the cap, before the timeout
        ok.sendall(GET)
        assert _response(ok).startswith(b"HTTP/1.1 200 ")
        srv.clock.advance(1)
        for s in (slow, silent):
            assert _answer(s).startswith(b"HTTP/1.1 408 Request Timeout\r\n")
            s.close()
        # a kept-alive connection answers again, and its next request is timed too
        ok.sendall(GET)
        assert _response(ok).startswith(b"HTTP/1.1 200 ")
        ok.sendall(b"GET / HTTP/1.1\r\n")
        srv.timing(10)
        srv.clock.advance(10)
        assert _answer(ok).startswith(b"HTTP/1.1 408 ")
        ok.close()
        srv.until(lambda: srv.held() == 0)
        # a body that trickles in: 408 once its time is up, naming it
        body = srv.open()
        body.sendall(b"POST /api/ledgers HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                     b"application/json\r\nContent-Length: 40\r\n\r\n{\"na")
        srv.timing(30)                 # the headers are in: their timeout no longer counts
        srv.clock.advance(10)
        srv.clock.advance(20)
        got = _response(body)
        assert got.startswith(b"HTTP/1.1 408 ")
        assert b'"the request body did not arrive within 30 s"' in got
        body.close()
        # three connections held: a fourth is closed before a byte is read
        held = [srv.open() for _ in range(3)]
        srv.until(lambda: srv.held() == 3)
        extra = srv.open()
        with contextlib.suppress(ConnectionResetError):     # closed, or reset
            assert _answer(extra) == b""
        for s in held:
            s.close()
        srv.until(lambda: srv.held() == 0)
        again = srv.open()
        again.sendall(GET)
        assert _response(again).startswith(b"HTTP/1.1 200 ")
        again.close()
    finally:
        srv.close()


def test_serve_passes_every_limit_to_uvicorn() -> None:
    from sgmahjong.web.clock import ManualClock
    from sgmahjong.web.connections import GuardedH11, server_config
    from sgmahjong.web.limits import WebLimits

    limits = WebLimits(keep_alive_timeout=4, max_header_bytes=8192, max_connections=50,
                       shutdown_grace=7, header_timeout=3.0)
    cfg = server_config(object(), limits, ManualClock())
    assert (cfg.timeout_keep_alive, cfg.h11_max_incomplete_event_size,
            cfg.limit_concurrency, cfg.timeout_graceful_shutdown) == (4, 8192, 51, 7)
    assert isinstance(cfg.http, type) and issubclass(cfg.http, GuardedH11)
    assert (cfg.http.header_timeout, cfg.http.max_connections) == (3.0, 50)
    # the documented defaults (docs/web.md, "Limits")
    d = WebLimits()
    assert (d.header_timeout, d.body_timeout, d.keep_alive_timeout, d.max_header_bytes,
            d.max_connections, d.shutdown_grace, d.ledger_expiry) == (
        10.0, 30.0, 5, 16 * 1024, 800, 10, 90 * 24 * 3600.0)


def test_a_body_refused_before_it_is_read_whole_ends_its_connection(tmp_path: Path) -> None:
    """One answer, then the connection is closed: the rest of a refused body is never read
    as the next request, and the connection is not held for another header timeout (a
    trickled body got its 408 at 30 s, then a second 408 at 40 s when the header timer
    of the "next request" ran out: ``bench/abuse_web.py`` found it)."""
    from sgmahjong.web.limits import WebLimits

    srv = HeldServer(tmp_path, WebLimits(header_timeout=10, body_timeout=30, max_body=1000))
    head = (b"POST /api/ledgers HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
            b"application/json\r\n")
    try:
        slow = srv.open()
        slow.sendall(head + b"Content-Length: 40\r\n\r\n{\"na")
        srv.timing(30)
        srv.clock.advance(30)
        declared = srv.open()                  # a length over the cap: refused unread
        declared.sendall(head + b"Content-Length: 5000\r\n\r\n")
        streamed = srv.open()                  # no length: refused as it passes the cap
        streamed.sendall(head + b"Transfer-Encoding: chunked\r\n\r\n"
                         + b"5dc\r\n" + b"1" * 1500 + b"\r\n")
        for s, status in ((slow, b"408"), (declared, b"413"), (streamed, b"413")):
            got = _response(s)
            assert got.startswith(b"HTTP/1.1 " + status + b" "), got
            assert b"\r\nconnection: close\r\n" in got.lower()
            with contextlib.suppress(OSError):
                s.sendall(b"1")                # the sender goes on with its body ...
            with contextlib.suppress(ConnectionResetError):
                assert _answer(s) == b""       # ... to a connection already closed
            s.close()
        srv.until(lambda: srv.held() == 0)
    finally:
        srv.close()


class _Transport:
    """What uvicorn's protocol asks of a connection, without a socket."""

    def __init__(self) -> None:
        self.aborted = False

    def get_extra_info(self, name: str, default: object = None) -> object:
        return default

    def abort(self) -> None:
        self.aborted = True

    def close(self) -> None:
        pass

    def is_closing(self) -> bool:
        return self.aborted


def test_a_connection_refused_at_the_cap_does_not_count_against_it() -> None:
    """A burst past the cap must not lock out the connections already served: the ones
    refused were counted until their close had gone through, so a request on an accepted
    connection meanwhile got uvicorn's 503 "Exceeded concurrency limit"
    (``bench/abuse_web.py``'s probe did, during its burst of 850 connections)."""
    import asyncio

    from uvicorn.server import ServerState

    from sgmahjong.web.clock import ManualClock
    from sgmahjong.web.connections import server_config
    from sgmahjong.web.limits import WebLimits

    async def app(scope: object, receive: object, send: object) -> None:
        pass

    config = server_config(app, WebLimits(max_connections=2), ManualClock())
    config.load()
    state = ServerState()
    loop = asyncio.new_event_loop()
    try:
        made = [config.http_protocol_class(config=config, server_state=state,  # type: ignore[call-arg]
                                           app_state={}, _loop=loop) for _ in range(5)]
        conns = [_Transport() for _ in made]
        for protocol, transport in zip(made, conns, strict=True):
            protocol.connection_made(transport)  # type: ignore[arg-type]
        assert [t.aborted for t in conns] == [False, False, True, True, True]
        # before the refused ones' close has gone through, only the two served count
        assert len(state.connections) == 2 < config.limit_concurrency  # type: ignore[operator]
        for protocol in made:
            protocol.connection_lost(None)
        assert not state.connections
        loop.run_until_complete(asyncio.gather(*asyncio.all_tasks(loop)))
    finally:
        loop.close()
