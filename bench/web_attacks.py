"""What each attack of issue 21 costs the web panel, side by side with what a normal client sees meanwhile.

Every scenario starts a real panel in its own process (``tests/web/attack_server.py``: Session + WebServer
on a free loopback port), measures a normal client first on the quiet server - the peer of every ratio - then
again while attacker processes run the attack, and reads the server's memory (VmHWM, /proc) and log. The
normal client is one websocket (a ``ping`` and its ``pong``) and one HTTP client (``GET /api/state``),
``--probes`` requests each, 20 ms apart.

Scenarios (loopback only, each bounded by ``--seconds`` and by its counts):
  body     four connections declaring a 10 GB body and one chunked flood, reconnecting for the whole time
  stuck    a websocket client that never reads, while another floods commands as fast as it is let
  idle     --idle connections that never send a byte (opened at 400/s), on a server limited to
           --descriptors descriptors
  ping     one websocket client sending pings as fast as it can
  clients  --clients websocket clients watching; a command's state is timed until all of them have it
  library  a --games-game library: GET /api/games, peer = reading every file as each listing did before

    .venv/bin/python bench/web_attacks.py [--scenarios body,stuck,idle,ping,clients,library] [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing as mp
import os
import resource
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "web"))   # the panel's process

import httpx
from attack_server import PanelProcess, address, raw_websocket, ws_url
from websockets.sync.client import connect

SCENARIOS = ("body", "stuck", "idle", "ping", "clients", "library")
MB = 1024 * 1024


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of ``values`` (nan when empty)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def more_descriptors() -> None:
    """Raise this process's soft descriptor limit to its hard limit (attackers hold many sockets)."""
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else 65536, hard))


# --- the normal client --------------------------------------------------------------------------------------
@dataclass
class Probe:
    """A normal client's latencies (ms) and failures: websocket ping round trips and GET /api/state."""

    ping: list[float] = field(default_factory=list)
    state: list[float] = field(default_factory=list)
    failures: int = 0


def probe(url: str, count: int, timeout: float = 10.0) -> Probe:
    """``count`` pings and ``count`` state requests, 20 ms apart, as a page and a script would make them."""
    out = Probe()
    try:
        with connect(ws_url(url), open_timeout=timeout) as ws:
            ws.recv(timeout=timeout)
            for n in range(count):
                start = time.perf_counter()
                ws.send(json.dumps({"type": "ping", "id": f"probe-{n}"}))
                while json.loads(ws.recv(timeout=timeout)).get("id") != f"probe-{n}":
                    pass
                out.ping.append((time.perf_counter() - start) * 1000)
                time.sleep(0.02)
    except (OSError, TimeoutError, Exception):
        out.failures += 1
    with httpx.Client(timeout=timeout) as client:
        for _ in range(count):
            start = time.perf_counter()
            try:
                client.get(url + "api/state").raise_for_status()
                out.state.append((time.perf_counter() - start) * 1000)
            except (httpx.HTTPError, OSError):
                out.failures += 1
            time.sleep(0.02)
    return out


# --- attackers (each in its own process) --------------------------------------------------------------------
def attack_body(url: str, seconds: float, out: Connection) -> None:
    """Five connections at a time: four declare 10 GB, one is chunked; each pushes until the server closes."""
    host, port = address(url)
    heads = [f"POST /api/command HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
             f"Content-Length: {10 * 1024**3}\r\n\r\n"] * 4
    heads.append(f"POST /api/command HTTP/1.1\r\nHost: {host}:{port}\r\nTransfer-Encoding: chunked\r\n\r\n"
                 "1000000\r\n")
    stats = {"connections": 0, "refused_413": 0, "pushed_mb": 0.0}
    lock = threading.Lock()
    deadline = time.monotonic() + seconds

    def flood(head: str) -> None:
        chunk = b"x" * 65536
        while time.monotonic() < deadline:
            sent = 0
            with socket.create_connection((host, port), timeout=10) as sock:
                sock.sendall(head.encode())
                with contextlib.suppress(OSError):
                    while time.monotonic() < deadline and sent < 256 * MB:
                        sock.sendall(chunk)
                        sent += len(chunk)
                answer = b""
                with contextlib.suppress(OSError):
                    answer = sock.recv(100)
            with lock:
                stats["connections"] += 1
                stats["refused_413"] += answer.startswith(b"HTTP/1.1 413")
                stats["pushed_mb"] += sent / MB

    threads = [threading.Thread(target=flood, args=(head,)) for head in heads]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    out.send(stats)


def attack_stuck(url: str, seconds: float, out: Connection) -> None:
    """A websocket client that never reads (4 KB receive buffer) plus one flooding commands without waiting
    for the replies, and a watcher counting the states it gets."""
    stuck = raw_websocket(url, rcvbuf=4096)
    counts = asyncio.run(flood(url, seconds, lambda n: json.dumps({"type": "command", "id": n, "command": {
        "kind": "place" if n % 2 == 0 else "lift", "row": 4, "col": 4}}), "reply", watch=True))
    counts["stuck_closed"] = stuck_closed(stuck)
    stuck.close()
    out.send(counts)


async def flood(url: str, seconds: float, message: Callable[[int], str], answer: str,
                watch: bool = False) -> dict[str, int]:
    """Send ``message(n)`` as fast as the connection takes them for ``seconds`` while counting the answers
    (and, with ``watch``, the states a second client receives) until a second after; the asyncio client reads
    while it sends. ``span_ms`` is the time from the first message to the end of the counting."""
    from websockets.asyncio.client import connect as aconnect

    counts = {"sent": 0, "answered": 0, "watcher_states": 0}

    async def count(ws: Any, key: str, kind: str) -> None:
        with contextlib.suppress(Exception):
            async for text in ws:
                if json.loads(text)["type"] == kind:
                    counts[key] += 1

    async with aconnect(ws_url(url)) as ws, aconnect(ws_url(url)) as watcher:
        await ws.recv()
        await watcher.recv()
        readers = [asyncio.create_task(count(ws, "answered", answer))]
        if watch:
            readers.append(asyncio.create_task(count(watcher, "watcher_states", "state")))
        started = time.monotonic()
        deadline = started + seconds
        with contextlib.suppress(Exception):
            while time.monotonic() < deadline:
                left = max(0.01, deadline - time.monotonic())
                await asyncio.wait_for(ws.send(message(counts["sent"])), left)
                counts["sent"] += 1
        await asyncio.sleep(1)   # the answers still on their way
        for reader in readers:
            reader.cancel()
        counts["span_ms"] = round((time.monotonic() - started) * 1000)
    return counts


def stuck_closed(sock: socket.socket) -> bool:
    """Whether the server has closed ``sock`` (what is buffered for it is read and dropped)."""
    sock.setblocking(False)
    try:
        while True:
            if not sock.recv(1 << 20):
                return True
    except BlockingIOError:
        return False
    except OSError:
        return True


def attack_idle(url: str, count: int, seconds: float, out: Connection) -> None:
    """``count`` connections that never send a byte, opened at 400 a second (faster, the kernel's accept queue
    overflows and they trickle in over SYN retries), held for ``seconds``; how many the server closed."""
    more_descriptors()
    socks = []
    deadline = time.monotonic() + seconds
    for n in range(count):
        socks.append(socket.create_connection(address(url), timeout=10))
        time.sleep(max(0.0, n / 400 - (time.monotonic() - deadline + seconds)))
    out.send({"opened": len(socks), "connected": len(socks)})
    time.sleep(max(0.0, deadline - time.monotonic()))
    closed = sum(stuck_closed(sock) for sock in socks)
    for sock in socks:
        sock.close()
    out.send({"opened": len(socks), "connected": len(socks), "closed_by_server": closed})


def attack_ping(url: str, seconds: float, out: Connection) -> None:
    """Pings as fast as the connection takes them, the pongs counted."""
    out.send(asyncio.run(flood(url, seconds, lambda n: '{"type":"ping"}', "pong")))


def attack_clients(url: str, count: int, out: Connection) -> None:
    """``count`` websocket clients that record when each state reaches them (CLOCK_MONOTONIC, shared by the
    processes); told to stop, they send back every client's arrival times."""
    more_descriptors()

    async def main() -> None:
        from websockets.asyncio.client import connect as aconnect

        arrivals: list[list[float]] = [[] for _ in range(count)]
        clients = []
        for n in range(count):
            ws = await aconnect(ws_url(url), max_size=None)
            await ws.recv()
            clients.append(ws)
            if n % 100 == 99:
                await asyncio.sleep(0)

        async def watch(n: int, ws: Any) -> None:
            with contextlib.suppress(Exception):
                async for message in ws:
                    if '"type":"state"' in str(message)[:20]:
                        arrivals[n].append(time.monotonic())

        tasks = [asyncio.create_task(watch(n, ws)) for n, ws in enumerate(clients)]
        out.send({"connected": len(clients)})
        await asyncio.to_thread(out.recv)   # "stop"
        for task in tasks:
            task.cancel()
        for ws in clients:
            with contextlib.suppress(Exception):
                await ws.close()
        out.send({"arrivals": arrivals})

    asyncio.run(main())


@contextlib.contextmanager
def attacker(target: Callable[..., None], *args: Any) -> Iterator[Connection]:
    """Run ``target(*args, conn)`` in its own process; yields our end of the pipe."""
    ctx = mp.get_context("spawn")
    ours, theirs = ctx.Pipe()
    process = ctx.Process(target=target, args=(*args, theirs), daemon=True)
    process.start()
    theirs.close()   # ours then sees EOF if the attacker dies
    try:
        yield ours
    finally:
        process.join(60)
        if process.is_alive():
            process.terminate()


# --- scenarios ----------------------------------------------------------------------------------------------
@dataclass
class Row:
    """One line of the report."""

    scenario: str
    quiet: Probe
    attacked: Probe
    memory_kb: int
    cpu_percent: float
    figures: str


def run_scenario(name: str, args: argparse.Namespace, data: Path) -> Row:
    if name == "library":
        return library_scenario(args, data)
    descriptors = args.descriptors if name == "idle" else None
    limits = {"stuck_seconds": 2.0} if name == "stuck" else None
    with PanelProcess(data, descriptors=descriptors, limits=limits) as panel:
        quiet = probe(panel.url, args.probes)
        before = panel.memory_kb("VmHWM")
        cpu, started = panel.cpu_seconds(), time.monotonic()
        if name == "body":
            with attacker(attack_body, panel.url, args.seconds) as conn:
                attacked = probe(panel.url, args.probes)
                stats = conn.recv()
            figures = (f"{stats['connections']} floods, {stats['refused_413']} refused 413 before their body "
                       f"was read; {stats['pushed_mb']:.0f} MB sent into socket buffers till each was closed")
        elif name == "stuck":
            with attacker(attack_stuck, panel.url, args.seconds) as conn:
                attacked = probe(panel.url, args.probes)
                stats = conn.recv()
            dropped = any("dropped websocket client" in line for line in panel.lines["stderr"])
            window = stats["span_ms"] / 1000
            figures = (f"{stats['sent']} commands sent, {stats['answered']} answered "
                       f"({stats['answered'] / window:.0f}/s), watcher got {stats['watcher_states']} "
                       f"states ({stats['watcher_states'] / window:.0f}/s), stuck client "
                       f"{'dropped' if dropped else 'NOT dropped'}")
        elif name == "idle":
            with attacker(attack_idle, panel.url, args.idle, args.seconds) as conn:
                conn.recv()   # all of them connected (or --seconds went by)
                attacked = probe(panel.url, args.probes)
                assert panel.process is not None
                held = len(os.listdir(f"/proc/{panel.process.pid}/fd"))
                stats = conn.recv()
            tracebacks = sum("Traceback" in line for line in panel.lines["stderr"])
            figures = (f"{stats['opened']} idle under a {args.descriptors}-descriptor limit "
                       f"({stats['connected']} connected), the server at {held} descriptors, "
                       f"{stats['closed_by_server']} closed by it to make room, {tracebacks} tracebacks")
        elif name == "ping":
            with attacker(attack_ping, panel.url, args.seconds) as conn:
                attacked = probe(panel.url, args.probes)
                stats = conn.recv()
            figures = (f"{stats['sent']} pings sent, {stats['answered']} answered "
                       f"({stats['answered'] / (stats['span_ms'] / 1000):.0f}/s)")
        else:
            attacked, figures = clients_scenario(panel, args)
        growth = panel.memory_kb("VmHWM") - before
        busy = 100 * (panel.cpu_seconds() - cpu) / (time.monotonic() - started)
    return Row(name, quiet, attacked, growth, busy, figures)


def clients_scenario(panel: PanelProcess, args: argparse.Namespace) -> tuple[Probe, str]:
    """``--clients`` watchers; ``--probes`` commands, each timed until its state reached every watcher."""
    rss_before = panel.memory_kb("VmRSS")
    with attacker(attack_clients, panel.url, args.clients) as conn:
        connected = conn.recv()["connected"]
        per_client = (panel.memory_kb("VmRSS") - rss_before) / max(1, connected)
        sent: list[float] = []
        with connect(ws_url(panel.url)) as ws:
            ws.recv(timeout=10)
            for n in range(args.probes):
                gesture = {"kind": "place" if n % 2 == 0 else "lift", "row": 4, "col": 4}
                sent.append(time.monotonic())
                ws.send(json.dumps({"type": "command", "id": n, "command": gesture}))
                while json.loads(ws.recv(timeout=30)).get("id") != n:
                    pass
                time.sleep(0.2)
        attacked = probe(panel.url, args.probes)
        conn.send("stop")
        arrivals = conn.recv()["arrivals"]
    fanout = []
    for start in sent:
        last = [next((t for t in times if t >= start), None) for times in arrivals]
        if all(t is not None for t in last):
            fanout.append((max(t for t in last if t is not None) - start) * 1000)
    return attacked, (f"{connected} clients, {per_client:.0f} KB each; a state reached all of them in "
                      f"p50 {pct(fanout, 0.5):.0f} ms, max {max(fanout, default=float('nan')):.0f} ms")


def library_scenario(args: argparse.Namespace, data: Path) -> Row:
    """A library of ``--games`` one-game files: listing time against reading every file per listing."""
    from web.library import GameLibrary

    games = data / "games"
    games.mkdir(parents=True, exist_ok=True)
    text = ('[Event "bench"]\n[White "Person"]\n[Black "Computer (level 3)"]\n[Result "1-0"]\n'
            '[GameType "20"]\n[Termination "Normal"]\n\n1. 32-28 19-23 2. 28x19 14x23 {resignation} 1-0\n')
    old = time.time() - 3600
    for n in range(args.games):
        path = games / f"2026{n // 3600:04d}-{n % 3600:06d}-international.pdn"
        path.write_text(text, encoding="utf-8")
        os.utime(path, (old, old))
    os.utime(games, (old, old))
    with PanelProcess(data) as panel:
        quiet = probe(panel.url, args.probes)
        before = panel.memory_kb("VmHWM")
        cpu, started = panel.cpu_seconds(), time.monotonic()
        listing: list[float] = []
        with httpx.Client(timeout=60) as client:
            first = time.perf_counter()
            count = len(client.get(panel.url + "api/games").json()["games"])
            first_ms = (time.perf_counter() - first) * 1000
            for _ in range(args.probes):
                start = time.perf_counter()
                client.get(panel.url + "api/games").raise_for_status()
                listing.append((time.perf_counter() - start) * 1000)
        growth = panel.memory_kb("VmHWM") - before
        busy = 100 * (panel.cpu_seconds() - cpu) / (time.monotonic() - started)
    peer: list[float] = []
    for _ in range(3):   # what every listing did before the index: read every file again
        start = time.perf_counter()
        GameLibrary(data).listing()
        peer.append((time.perf_counter() - start) * 1000)
    attacked = Probe(ping=quiet.ping, state=listing)
    figures = (f"{count} games: GET /api/games p50 {pct(listing, 0.5):.1f} ms, max {max(listing):.1f} ms "
               f"(first, indexing: {first_ms:.0f} ms); peer, every file read per listing: "
               f"p50 {pct(peer, 0.5):.0f} ms = {pct(peer, 0.5) / pct(listing, 0.5):.0f}x slower")
    return Row("library", quiet, attacked, growth, busy, figures)


def report(rows: list[Row]) -> None:
    print(f"{'scenario':<9}{'ping p50 ms':>18}{'ping p95 ms':>18}{'GET state p50 ms':>22}{'fails':>7}"
          f"{'server':>9}{'peak mem':>10}  figures")
    print(f"{'':<9}{'quiet > attack':>18}{'quiet > attack':>18}{'quiet > attack':>22}{'':>7}{'CPU %':>9}"
          f"{'+MB':>10}")
    for row in rows:
        q, a = row.quiet, row.attacked
        state_label = "GET /api/games" if row.scenario == "library" else ""
        print(f"{row.scenario:<9}"
              f"{pct(q.ping, 0.5):>8.1f} >{pct(a.ping, 0.5):>7.1f}"
              f"{pct(q.ping, 0.95):>10.1f} >{pct(a.ping, 0.95):>7.1f}"
              f"{pct(q.state, 0.5):>12.1f} >{pct(a.state, 0.5):>8.1f}"
              f"{a.failures:>7}{row.cpu_percent:>9.0f}{row.memory_kb / 1024:>10.1f}  {row.figures}"
              + (f" ({state_label} in the GET column)" if state_label else ""))
    compared = [r for r in rows if r.quiet.ping and r.attacked.ping and r.scenario != "library"]
    if compared:
        ratios = (f"{r.scenario} {pct(r.attacked.ping, 0.5) / pct(r.quiet.ping, 0.5):.1f}x" for r in compared)
        print("normal client's ping under attack / quiet (same run), p50: " + ", ".join(ratios))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenarios", default=",".join(SCENARIOS), help="comma-separated, default: all")
    parser.add_argument("--seconds", type=float, default=8.0, help="length of each attack (default 8)")
    parser.add_argument("--probes", type=int, default=40, help="normal client requests a phase (default 40)")
    parser.add_argument("--idle", type=int, default=1100, help="idle connections (default 1100)")
    parser.add_argument("--descriptors", type=int, default=1024,
                        help="the idle scenario's server descriptor limit (default 1024)")
    parser.add_argument("--clients", type=int, default=1000, help="watching clients (default 1000)")
    parser.add_argument("--games", type=int, default=10_000, help="games in the library (default 10000)")
    parser.add_argument("--quick", action="store_true",
                        help="small counts and 2 s attacks (what the test suite runs)")
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.scenarios.split(",") if n.strip()]
    unknown = sorted(set(names) - set(SCENARIOS))
    if unknown:
        parser.error(f"unknown scenario(s) {', '.join(unknown)}; known: {', '.join(SCENARIOS)}")
    if args.quick:
        args.seconds, args.probes, args.idle, args.descriptors = 2.0, 10, 300, 256
        args.clients, args.games = 50, 300
    if min(args.seconds, args.probes, args.idle, args.descriptors, args.clients, args.games) <= 0:
        parser.error("counts and --seconds must be positive")
    more_descriptors()
    rows = []
    for name in names:
        with tempfile.TemporaryDirectory(prefix=f"dboard-attack-{name}-") as tmp:
            try:
                rows.append(run_scenario(name, args, Path(tmp)))
            except EOFError:
                raise SystemExit(f"error: the {name} attacker died (its traceback is above)") from None
    report(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
