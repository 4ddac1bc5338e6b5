"""``sgmahjong serve`` on the command line: where it listens, and one clear line when it
cannot."""

from __future__ import annotations

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
