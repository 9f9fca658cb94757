"""Who may watch and who may act: the listening address, the control token, same-origin checks and the Host
names this machine answers to."""

from __future__ import annotations

import hmac
import ipaddress
import logging
import re
import secrets
import socket
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypedDict, Unpack
from urllib.parse import urlsplit

from controller.config import MIN_TOKEN

from .addresses import network_addresses
from .errors import WebError

log = logging.getLogger(__name__)

DEFAULT_LISTEN = "127.0.0.1"
DEFAULT_PORT = 8080
LOCAL_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
WILDCARDS = ("0.0.0.0", "::", "")
_HOST_NAME = re.compile(r"(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?")


class AccessDenied(WebError, ValueError):
    """A request without the token (or from another site) that wants to do what needs it; ``wrong`` when it
    gave a token and that token is wrong (those are counted per connection)."""

    def __init__(self, message: str, *, wrong: bool = False) -> None:
        super().__init__(message)
        self.wrong = wrong
        self.request_id: object = None


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or name to listen on) only accepts connections from this machine."""
    if host in LOCAL_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def default_data_dir() -> Path:
    """Where finished games live when the config does not say: ~/.local/share/draughts-board/."""
    return Path.home() / ".local" / "share" / "draughts-board"


def allowed_host_names(text: str) -> tuple[str, ...]:
    """The host names of the ``allowed_hosts`` setting (comma- or space-separated; ``*.example.org`` allows
    its subdomains); ValueError naming a name that is not one."""
    names = []
    for name in re.split(r"[\s,]+", text.strip().lower()):
        if not name:
            continue
        if not _HOST_NAME.fullmatch(name) and host_address(name) is None:
            raise ValueError(f"allowed_hosts: {name!r} is not a host name (such as board.local, *.lan)")
        names.append(name)
    return tuple(names)


def host_address(name: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address ``name`` spells (``[::1]`` included), None for a name."""
    try:
        return ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return None


def machine_names() -> set[str]:
    """This machine's own names: its host name and the name mDNS gives it (``raspberrypi.local``). Others
    (a fully qualified name, a proxy's) go in ``allowed_hosts``: looking them up could hang the start."""
    try:
        hostname = socket.gethostname().lower()
    except (OSError, UnicodeError):
        return set()
    names = {hostname, f"{hostname.split('.')[0]}.local"} if hostname else set()
    return {name for name in names if _HOST_NAME.fullmatch(name)}


class Overrides(TypedDict, total=False):
    """What a caller of :meth:`WebOptions.from_config` may set over the config (None: the config's value)."""

    listen: str | None
    port: int | None
    token: str | None
    public_view: bool | None
    require_token: bool | None
    data_dir: str | Path | None
    allowed_hosts: str | tuple[str, ...] | None
    language: str | None


@dataclass(frozen=True)
class WebOptions:
    """The web server's settings, read from the controller's config with safe defaults.

    ``token`` is required for every control action when ``token_required`` (a token configured, listening
    beyond loopback, or forced by ``require_token``); watching then also needs it unless ``public_view``.
    ``allowed_hosts`` are Host names served besides this machine's own (a name behind a proxy, say).
    """

    listen: str = DEFAULT_LISTEN
    port: int = DEFAULT_PORT
    token: str | None = None
    public_view: bool = False
    require_token: bool = False
    data_dir: Path = field(default_factory=default_data_dir)
    allowed_hosts: tuple[str, ...] = ()
    language: str = "en"
    """The board's language: the page's default where the browser asks for none of ours."""

    def __post_init__(self) -> None:
        if not isinstance(self.port, int) or not 0 <= self.port <= 65535:
            raise ValueError(f"web port must be an integer 0-65535, got {self.port!r}")
        if self.token is not None and len(self.token) < MIN_TOKEN:
            raise ValueError(f"token: a configured web token must be at least {MIN_TOKEN} characters long, "
                             f"got {len(self.token)} (leave it empty and one is generated and printed)")
        object.__setattr__(self, "allowed_hosts", allowed_host_names(" ".join(self.allowed_hosts)))

    def host_names(self) -> set[str]:
        """The Host names served (addresses are checked against the connection itself): loopback names, the
        listen address, this machine's names and ``allowed_hosts``."""
        names = {"localhost", "127.0.0.1", "[::1]", *machine_names(), *self.allowed_hosts}
        if self.listen not in WILDCARDS:
            names.add(f"[{self.listen}]" if ":" in self.listen else self.listen.lower())
        return names

    @classmethod
    def from_config(cls, config: object, **overrides: Unpack[Overrides]) -> WebOptions:
        """Pick listen, port, token, public_view and data_dir from any config object (missing -> defaults);
        keyword overrides win. A token is generated when one is required and none is configured."""
        values: dict[str, Any] = {}
        for name, aliases in (("listen", ("listen", "web_listen", "host")), ("port", ("port", "web_port")),
                              ("token", ("token", "web_token")),
                              ("public_view", ("public_view", "web_public_view")),
                              ("require_token", ("require_token",)),
                              ("data_dir", ("data_dir", "games_dir")),
                              ("allowed_hosts", ("allowed_hosts",)), ("language", ("language",))):
            for alias in aliases:
                value = getattr(config, alias, None) if config is not None else None
                if value is not None and value != "":
                    values[name] = value
                    break
        values.update({k: v for k, v in overrides.items() if v is not None})
        if "data_dir" in values:
            values["data_dir"] = Path(values["data_dir"]).expanduser()
        if isinstance(values.get("allowed_hosts"), str):
            values["allowed_hosts"] = (values["allowed_hosts"],)
        options = cls(**values)
        if options.token_required and options.token is None:
            options = cls(**{**values, "token": secrets.token_urlsafe(12)})
        return options

    @property
    def token_required(self) -> bool:
        """Whether control actions need the token: one is configured (on loopback too), the server listens
        beyond loopback, or it is forced."""
        return self.require_token or self.token is not None or not is_loopback(self.listen)

    @property
    def view_needs_token(self) -> bool:
        """Whether merely watching needs the token (a public server without --public-view)."""
        return self.token_required and not self.public_view

    def token_ok(self, given: object) -> bool:
        """Whether ``given`` is the token (constant-time compare); always true when none is required."""
        if not self.token_required:
            return True
        if not isinstance(given, str) or self.token is None:
            return False
        try:
            return hmac.compare_digest(given.encode(), self.token.encode())
        except UnicodeEncodeError:   # a lone surrogate from JSON's \ud800: no token is that
            return False

    def check_control(self, given: object) -> None:
        """Raise AccessDenied unless ``given`` allows a control action."""
        if not self.token_ok(given):
            if given in (None, ""):
                raise AccessDenied("this action needs the access token (open the URL printed at start)")
            raise AccessDenied("wrong access token", wrong=True)

    def url(self, port: int | None = None) -> str:
        """The address to open in a browser, with the token when control needs it."""
        host = self.listen
        if host in WILDCARDS:
            host = "127.0.0.1" if host != "::" else "::1"
        return self._url(host, port)

    def network_urls(self, port: int | None = None) -> list[str]:
        """The addresses a phone on the network opens, one for each of this machine's reachable addresses,
        when listening on every interface (else none: :meth:`url` is the listen address's own)."""
        if self.listen not in WILDCARDS:
            return []
        return [self._url(address, port) for address in network_addresses(ipv6=self.listen == "::")]

    def _url(self, host: str, port: int | None) -> str:
        if ":" in host and not host.startswith("["):
            host = f"[{host}]"
        url = f"http://{host}:{self.port if port is None else port}/"
        return f"{url}?token={self.token}" if self.token_required and self.token else url

    def __repr__(self) -> str:
        token = "set" if self.token else None
        return (f"WebOptions(listen={self.listen!r}, port={self.port}, token={token}, "
                f"public_view={self.public_view}, token_required={self.token_required}, "
                f"data_dir={str(self.data_dir)!r}, allowed_hosts={list(self.allowed_hosts)})")


def same_origin(headers: Mapping[str, str]) -> bool:
    """Whether a browser request comes from our own page: no Origin header (not a browser, or same-origin
    GET) or an Origin whose host:port equals the Host header. Stops other sites driving a local board."""
    origin = headers.get("origin")
    if not origin or origin == "null":
        return origin is None
    host = headers.get("host", "")
    return urlsplit(origin).netloc.lower() == host.lower()


class WrongTokens:
    """Wrong access tokens counted per connection (client address and port): the ``limit``-th closes the
    connection, logged once with its address. At most ``remember`` connections are remembered."""

    def __init__(self, limit: int, remember: int = 4096) -> None:
        self.limit = limit
        self.remember = remember
        self._counts: dict[tuple[str, int], int] = {}

    def wrong(self, client: tuple[str, int] | None) -> bool:
        """Count one wrong token from ``client`` (a (host, port) pair); whether its connection must close."""
        key = (str(client[0]), int(client[1])) if client else ("unknown client", 0)
        count = self._counts.pop(key, 0) + 1
        if count >= self.limit:
            log.warning("%s:%d sent %d wrong access tokens: connection closed", key[0], key[1], count)
            return True
        self._counts[key] = count
        while len(self._counts) > self.remember:
            del self._counts[next(iter(self._counts))]
        return False

    def forget(self, client: tuple[str, int] | None) -> None:
        """The connection is gone."""
        if client:
            self._counts.pop((str(client[0]), int(client[1])), None)

    def __repr__(self) -> str:
        return f"WrongTokens(limit={self.limit}, connections={len(self._counts)})"
