"""The main job as a new user meets it (issue 28's blocker): a copy of this checkout whose own virtual
environment is built only by what ``./dev play`` installs, and another built by the README's Raspberry Pi
commands less the Pi-only packages, must start ``dboard`` and serve the page over HTTP. The test suite's own
environment has every extra, so only a fresh one shows a dependency that the main job forgot."""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PI_ONLY = {"pi", "RPi.GPIO", "rpi-lgpio", "spidev"}
"""What the README's Pi install adds that builds or runs only on a Raspberry Pi."""

URL = re.compile(r"http://127\.0\.0\.1:\d+/\S*")


def copy_checkout(dest: Path) -> Path:
    """The files a clone of this checkout has (tracked, plus new files not ignored), links kept as links."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, check=True, capture_output=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source, target = ROOT / name, dest / name
        if not source.is_symlink() and not source.is_file():
            continue   # listed but deleted in the work tree
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_symlink():
            target.symlink_to(os.readlink(source))
        else:
            target.write_bytes(source.read_bytes())
            target.chmod(source.stat().st_mode)
    return dest


def user_env(home_data: Path) -> dict[str, str]:
    """The environment of a person at a shell: none of this test run's virtual environment or settings."""
    ours = {str(Path(sys.prefix) / "bin"), str(Path(sys.executable).parent)}
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DBOARD_", "PYTEST", "VIRTUAL_ENV", "PYTHON"))}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if p not in ours)
    env["XDG_DATA_HOME"] = str(home_data / "share")   # nothing of the person's own data is read or written
    env["XDG_CONFIG_HOME"] = str(home_data / "config")
    return env


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run(cmd: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{shlex.join(cmd)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done


def serve_and_fetch(cmd: list[str], cwd: Path, env: dict[str, str], stop: signal.Signals) -> str:
    """Start ``dboard play`` as `cmd`, wait for the URL it prints, fetch the page and the game's state over
    HTTP, stop it with `stop` and return what it printed (it must exit 0)."""
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    printed: list[str] = []
    try:
        url = None
        for line in proc.stdout:
            printed.append(line)
            found = URL.search(line)
            if found:
                url = found.group(0)
                break
        assert url is not None, "dboard play printed no URL:\n" + "".join(printed)
        page = _get(url)
        assert "<html" in page.lower() and "app.js" in page, page[:500]
        hello = json.loads(_get(url.split("?")[0] + "api/state"))
        assert hello["virtual"] is True and hello["state"]["board_connected"] is True, hello
        proc.send_signal(stop)
        rest, _ = proc.communicate(timeout=60)
        printed.append(rest)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    output = "".join(printed)
    assert proc.returncode == 0, f"{shlex.join(cmd)} exited {proc.returncode}:\n{output}"
    return output


def _get(url: str) -> str:
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                assert response.status == 200
                return str(response.read().decode())
        except ConnectionError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def readme_pi_install() -> str:
    """The README's pip command for a Pi 1-4, less the Pi-only packages."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## On a Raspberry Pi", 1)[1].split("\n## ", 1)[0]
    line = next(line for line in section.splitlines() if line.startswith(".venv/bin/pip install"))
    command = line.split("#", 1)[0].strip()
    spec = re.search(r"'\.\[([^\]]*)\]'", command)
    assert spec is not None, command
    extras = [e for e in spec.group(1).split(",") if e.strip() and e.strip() not in PI_ONLY]
    words = [w for w in shlex.split(command) if w not in PI_ONLY and not w.startswith(".[")]
    return shlex.join([*words, f".[{','.join(extras)}]" if extras else "."])


@pytest.fixture(scope="module")
def play_checkout(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    """A copy of the checkout whose .venv ``./dev play --help`` has built, as on a fresh clone."""
    root = copy_checkout(tmp_path_factory.mktemp("clone"))
    env = user_env(tmp_path_factory.mktemp("user"))
    done = run(["./dev", "play", "--help"], root, env)
    assert "usage: dboard play" in done.stdout
    yield root, env


def test_dev_play_serves_the_page_from_a_fresh_clone(play_checkout: tuple[Path, dict[str, str]],
                                                     tmp_path: Path) -> None:
    root, env = play_checkout
    command = ["./dev", "play", "--data-dir", str(tmp_path / "data"), "--port", str(free_port())]
    output = serve_and_fetch(command, root, env, signal.SIGINT)
    assert "Stopped" in output
    assert (tmp_path / "data").is_dir()   # the game went to the data directory given, nowhere else


def test_every_command_has_help_in_the_play_environment(play_checkout: tuple[Path, dict[str, str]]) -> None:
    root, env = play_checkout
    dboard = str(root / ".venv" / "bin" / "dboard")
    listing = run([dboard, "--help"], root, env).stdout
    commands = re.findall(r"^    ([a-z][a-z-]+)\s", listing.split("commands:", 1)[1], re.M)
    assert {"play", "hall", "pdn", "stats", "replay"} <= set(commands)
    for command in commands:
        assert f"usage: dboard {command}" in run([dboard, command, "--help"], root, env).stdout


def test_a_feature_without_its_extra_names_the_extra(play_checkout: tuple[Path, dict[str, str]],
                                                     tmp_path: Path) -> None:
    """The play environment has no paho-mqtt: the hall and broadcasting say which extra brings them."""
    root, env = play_checkout
    dboard = str(root / ".venv" / "bin" / "dboard")
    assert subprocess.run([str(root / ".venv" / "bin" / "python"), "-c", "import paho"],
                          capture_output=True).returncode != 0, "the play environment is meant to lack paho"
    hall = subprocess.run([dboard, "hall"], cwd=root, env=env, capture_output=True, text=True, timeout=60)
    config = tmp_path / "config.toml"
    config.write_text("broadcast = true\n", encoding="utf-8")
    broadcast = subprocess.run([dboard, "play", "--config", str(config), "--no-web", "--data-dir",
                                str(tmp_path / "data")], cwd=root, env=env, capture_output=True, text=True,
                               stdin=subprocess.DEVNULL, timeout=60)
    for done, extra in ((hall, "hall"), (broadcast, "mqtt")):
        assert done.returncode == 1, done.stderr
        assert "Traceback" not in done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and f"'{extra}' extra" in lines[0], done.stderr


def test_the_readme_pi_install_serves_the_page_as_the_service_runs_it(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """The README's Pi commands (venv, pip install, less the Pi-only packages), then ``dboard play`` as the
    systemd unit runs it: no terminal, stopped by SIGINT (its KillSignal)."""
    root = copy_checkout(tmp_path_factory.mktemp("opt"))
    env = user_env(tmp_path_factory.mktemp("pi-user"))
    install = readme_pi_install()
    assert "[pi" not in install and "RPi" not in install
    run(["python3", "-m", "venv", ".venv"], root, env)
    run(["bash", "-c", install], root, env)
    data = tmp_path_factory.mktemp("pi-data")
    output = serve_and_fetch([str(root / ".venv" / "bin" / "dboard"), "play", "--data-dir", str(data),
                              "--port", str(free_port())], root, env, signal.SIGINT)
    assert "Stopped" in output
