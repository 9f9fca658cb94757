"""Who may watch and who may act: the listening address, the control token and same-origin checks."""

from __future__ import annotations

import hmac
import ipaddress
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

DEFAULT_LISTEN = "127.0.0.1"
DEFAULT_PORT = 8080
LOCAL_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})


class AccessDenied(ValueError):
    """A request without the token (or from another site) that wants to do what needs it."""


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


@dataclass(frozen=True)
class WebOptions:
    """The web server's settings, read from the controller's config with safe defaults.

    ``token`` is required for every control action when ``token_required`` (listening beyond loopback, or
    forced by ``require_token``); watching then also needs it unless ``public_view``.
    """

    listen: str = DEFAULT_LISTEN
    port: int = DEFAULT_PORT
    token: str | None = None
    public_view: bool = False
    require_token: bool = False
    data_dir: Path = field(default_factory=default_data_dir)

    def __post_init__(self) -> None:
        if not isinstance(self.port, int) or not 0 <= self.port <= 65535:
            raise ValueError(f"web port must be an integer 0-65535, got {self.port!r}")
        if self.token is not None and len(self.token) < 8:
            raise ValueError("the web token must be at least 8 characters long")

    @classmethod
    def from_config(cls, config: Any, **overrides: Any) -> WebOptions:
        """Pick listen, port, token, public_view and data_dir from any config object (missing -> defaults);
        keyword overrides win. A token is generated when one is required and none is configured."""
        values: dict[str, Any] = {}
        for name, aliases in (("listen", ("listen", "web_listen", "host")), ("port", ("port", "web_port")),
                              ("token", ("token", "web_token")),
                              ("public_view", ("public_view", "web_public_view")),
                              ("require_token", ("require_token",)),
                              ("data_dir", ("data_dir", "games_dir"))):
            for alias in aliases:
                value = getattr(config, alias, None) if config is not None else None
                if value is not None and value != "":
                    values[name] = value
                    break
        values.update({k: v for k, v in overrides.items() if v is not None})
        if "data_dir" in values:
            values["data_dir"] = Path(values["data_dir"]).expanduser()
        options = cls(**values)
        if options.token_required and options.token is None:
            options = cls(**{**values, "token": secrets.token_urlsafe(12)})
        return options

    @property
    def token_required(self) -> bool:
        """Whether control actions need the token (anything but loopback, or when forced)."""
        return self.require_token or not is_loopback(self.listen)

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
        return hmac.compare_digest(given.encode(), self.token.encode())

    def check_control(self, given: object) -> None:
        """Raise AccessDenied unless ``given`` allows a control action."""
        if not self.token_ok(given):
            raise AccessDenied("this action needs the access token (open the URL printed at start)"
                               if given in (None, "") else "wrong access token")

    def url(self, port: int | None = None) -> str:
        """The address to open in a browser, with the token when control needs it."""
        host = self.listen
        if host in ("0.0.0.0", "::", ""):
            host = "127.0.0.1" if host != "::" else "[::1]"
        elif ":" in host and not host.startswith("["):
            host = f"[{host}]"
        url = f"http://{host}:{self.port if port is None else port}/"
        return f"{url}?token={self.token}" if self.token_required and self.token else url

    def __repr__(self) -> str:
        token = "set" if self.token else None
        return (f"WebOptions(listen={self.listen!r}, port={self.port}, token={token}, "
                f"public_view={self.public_view}, token_required={self.token_required}, "
                f"data_dir={str(self.data_dir)!r})")


def same_origin(headers: Any) -> bool:
    """Whether a browser request comes from our own page: no Origin header (not a browser, or same-origin
    GET) or an Origin whose host:port equals the Host header. Stops other sites driving a local board."""
    origin = headers.get("origin")
    if not origin or origin == "null":
        return origin is None
    host = headers.get("host", "")
    return urlsplit(origin).netloc.lower() == host.lower()
