"""Browser tests of the web table: a real ``sgmahjong serve`` process and headless Chromium.

Chromium comes from the system (Debian's ``chromium`` package, which ``.ci/run`` installs);
Playwright only drives it, so nothing is downloaded at test time. Without a Chromium the
tests are skipped, unless ``SGMAHJONG_REQUIRE_BROWSER=1`` (set by ``.ci/run``) makes that
a failure, so CI cannot pass by quietly skipping them.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-quic",
    # the machine's network is closed: without these Chromium keeps calling home
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
SEED = 3   # a deal whose first hand ends in a win with the players of these tests

# The browser sees only Latin fonts, as on a fresh Debian without CJK or emoji fonts, so a
# tile or icon that needs such a font shows as an empty box here too. The directories of
# Debian's DejaVu and Liberation; elsewhere all system fonts less the CJK and emoji ones.
LATIN_FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/truetype/liberation",
                   "/usr/share/fonts/truetype/liberation2")
NOT_LATIN = ("*Emoji*", "*emoji*", "*CJK*", "*cjk*", "*SourceHan*", "*Noto*SC-*",
             "*Noto*TC-*", "*Noto*JP-*", "*Noto*KR-*", "*wqy*", "*arphic*", "*DroidSansFallback*",
             "*Symbola*", "*unifont*")


def fonts_conf(folder: Path, font_dirs: Sequence[str] | None = None,
               reject: Sequence[str] = NOT_LATIN) -> Path:
    """A fontconfig file (for ``FONTCONFIG_FILE``) that offers only the fonts of ``font_dirs``.

    None: the Latin fonts of :data:`LATIN_FONT_DIRS`, with the system's rules (which font
    stands for sans-serif, system-ui ...); ``()``: no font at all. ``reject``: the font files
    left out even so (by default every font with Chinese, Japanese or emoji glyphs).
    """
    rules = ""
    if font_dirs is None:
        font_dirs = [d for d in LATIN_FONT_DIRS if Path(d).is_dir()] or ["/usr/share/fonts"]
        rules = '<include ignore_missing="yes">/etc/fonts/conf.d</include>'
    folder.mkdir(parents=True, exist_ok=True)
    dirs = "".join(f"<dir>{d}</dir>" for d in font_dirs)
    rejects = "".join(f"<glob>{g}</glob>" for g in reject)
    conf = folder / "fonts.conf"
    conf.write_text('<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">'
                    f"<fontconfig>{dirs}{rules}<cachedir>{folder / 'cache'}</cachedir>"
                    f"<selectfont><rejectfont>{rejects}</rejectfont></selectfont></fontconfig>")
    return conf


def chromium_path() -> str | None:
    for name in (os.environ.get("SGMAHJONG_CHROMIUM"), "chromium", "chromium-browser",
                 "google-chrome"):
        if name and (path := shutil.which(name)):
            return path
    return None


# Per module, not per session: Playwright's sync API keeps an event loop running in this
# thread while it is open, which would break the asyncio tests collected after these.
@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    path = chromium_path()
    required = os.environ.get("SGMAHJONG_REQUIRE_BROWSER") == "1"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if required:
            pytest.fail("playwright is not installed (pip install -e '.[dev]')")
        pytest.skip("playwright is not installed")
    if path is None:
        if required:
            pytest.fail("no Chromium found (apt-get install chromium, or set SGMAHJONG_CHROMIUM)")
        pytest.skip("no Chromium found (apt-get install chromium)")
    with sync_playwright() as pw:
        env = dict(os.environ, FONTCONFIG_FILE=str(fonts_conf(tmp_path_factory.mktemp("fonts"))))
        b = pw.chromium.launch(executable_path=path, args=CHROMIUM_ARGS, headless=True, env=env)
        yield b
        b.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``python -m sgmahjong serve`` on a loopback port and a SQLite file of its own."""

    def __init__(self, folder: Path, ai_delay: float = 0.02) -> None:
        self.folder = folder
        self.ai_delay = ai_delay
        self.port = free_port()
        self.db = f"sqlite:///{folder / 'web.sqlite3'}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = folder / "server.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = dict(os.environ, SGMAHJONG_DATA_DIR=str(self.folder / "data"))
        cmd = [sys.executable, "-m", "sgmahjong", "serve", "--port", str(self.port),
               "--database-url", self.db, "--allow-seed", "--ai-delay", str(self.ai_delay),
               "--next-hand-delay", "60", "--disconnect-grace", "60",
               "--claim-window", "0", "--turn-limit", "0"]
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server stopped: {self.log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/options", timeout=1):
                    return
            except (urllib.error.URLError, OSError):
                time.sleep(0.1)
        raise RuntimeError(f"the server did not answer: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        """Stop the process at once, as a crash or a power cut would."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.proc = None

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(f"{self.url}{path}", timeout=5) as r:
            return json.loads(r.read())

    def stored(self, table_id: str) -> tuple[Any, list[Any]]:
        """The table's rules and its stored events, read from the server's database."""
        from sgmahjong.game import Event
        from sgmahjong.rules.loading import rules_from_dict
        from sgmahjong.store.db import TableStore

        store = TableStore(self.db)
        try:
            row = store.load_table(table_id)
            assert row is not None
            events = [Event.from_json(p) for p in store.load_events(table_id)]
        finally:
            store.close()
        return rules_from_dict(row.rules), events


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path)
    s.start()
    yield s
    s.stop()


class ClockedServer:
    """The web app in this process (uvicorn in a thread) with its table timers on a
    :class:`~sgmahjong.web.clock.ManualClock`: a test says how much time has passed
    (``clock.advance``) instead of waiting for a timer. AI players move at once."""

    def __init__(self, folder: Path, **config: Any) -> None:
        import uvicorn

        from sgmahjong.store.db import TableStore
        from sgmahjong.web import WebConfig, create_app
        from sgmahjong.web.clock import ManualClock

        self.clock = ManualClock()
        self.port = free_port()
        self.db = f"sqlite:///{folder / 'web.sqlite3'}"
        # no idle close: a test may move the clock on past it in one step, faster than
        # the page's pings (real time) could keep up
        settings: dict[str, Any] = {"ai_delay": 0.0, "allow_seed": True,
                                    "resume_on_startup": False, "idle_timeout": 0.0}
        settings.update(config)
        self.config = WebConfig(database_url=self.db, clock=self.clock, **settings)
        self.store = TableStore(self.db)
        self.app = create_app(self.config, self.store)
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=self.port,
                                                    log_level="warning", ws_max_size=64 * 1024))
        self.thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.thread = threading.Thread(target=self.server.run, name="clocked-server",
                                       daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the in-process server did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        self.server.should_exit = True
        if self.thread is not None:
            self.thread.join(15)
        self.store.close()

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(f"{self.url}{path}", timeout=5) as r:
            return json.loads(r.read())

    def events(self, table_id: str) -> list[dict[str, Any]]:
        """The table's stored log (each event as stored, ``meta`` and all)."""
        return self.store.load_events(table_id)
