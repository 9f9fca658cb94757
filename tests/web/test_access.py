"""Who may watch and act: loopback binding, token rules, URL and same-origin checks."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.config import Config, ConfigError
from web.access import AccessDenied, WebOptions, is_loopback, same_origin


def test_loopback_needs_no_token() -> None:
    options = WebOptions.from_config(Config())
    assert options.listen == "127.0.0.1"
    assert not options.token_required
    assert options.token is None
    assert options.token_ok(None)
    assert options.url(8123) == "http://127.0.0.1:8123/"


def test_public_listen_generates_a_token_and_refuses_without_it() -> None:
    options = WebOptions.from_config(Config(listen="0.0.0.0"))
    assert options.token_required and options.view_needs_token
    assert options.token and len(options.token) >= 12
    with pytest.raises(AccessDenied, match="needs the access token"):
        options.check_control(None)
    with pytest.raises(AccessDenied, match="wrong access token"):
        options.check_control("x" * len(options.token))
    options.check_control(options.token)
    assert options.url(9000) == f"http://127.0.0.1:9000/?token={options.token}"


def test_configured_token_and_public_view() -> None:
    config = Config(listen="192.168.1.5", token="s3cret-token-0123", public_view=True)
    options = WebOptions.from_config(config)
    assert options.token == "s3cret-token-0123"
    assert options.token_required and not options.view_needs_token
    assert not options.token_ok("s3cret-token-0124")
    assert "s3cret-token" not in repr(options)


def test_configured_token_is_required_on_loopback_too() -> None:
    """Issue 21 item 6: `--listen 127.0.0.1 --token ...` protected nothing and said nothing."""
    options = WebOptions.from_config(Config(listen="127.0.0.1", token="my-loopback-secret"))
    assert options.token_required and options.view_needs_token
    with pytest.raises(AccessDenied, match="needs the access token"):
        options.check_control(None)
    with pytest.raises(AccessDenied, match="wrong access token") as wrong:
        options.check_control("my-loopback-secreT")
    assert wrong.value.wrong
    assert options.url(8080) == "http://127.0.0.1:8080/?token=my-loopback-secret"


@pytest.mark.parametrize("token", ["abc", "mysecret123", "x" * 15])
def test_short_tokens_are_refused_with_a_clear_message(token: str) -> None:
    """Issue 21 item 10: a configured token could be 8 characters."""
    with pytest.raises(ValueError, match=f"at least 16 characters long, got {len(token)}"):
        WebOptions(token=token)
    with pytest.raises(ConfigError, match=f"token: must be at least 16 characters long, got {len(token)}"):
        Config(token=token)


def test_allowed_hosts_are_host_names() -> None:
    options = WebOptions.from_config(Config(allowed_hosts="Board.Example.org, *.lan  192.168.1.9"))
    assert options.allowed_hosts == ("board.example.org", "*.lan", "192.168.1.9")
    assert {"localhost", "127.0.0.1", "[::1]", "board.example.org", "*.lan"} <= options.host_names()
    with pytest.raises(ValueError, match=r"'evil\.example/path' is not a host name"):
        WebOptions(allowed_hosts=("evil.example/path",))
    assert "10.0.0.7" in WebOptions(listen="10.0.0.7").host_names()


def test_data_dir_is_expanded(tmp_path: Path) -> None:
    options = WebOptions.from_config(Config(data_dir=str(tmp_path)))
    assert options.data_dir == tmp_path
    assert WebOptions.from_config(Config()).data_dir == Path.home() / ".local/share/draughts-board"


@pytest.mark.parametrize(("host", "loop"), [("127.0.0.1", True), ("::1", True), ("localhost", True),
                                            ("127.0.0.2", True), ("0.0.0.0", False), ("10.0.0.1", False)])
def test_is_loopback(host: str, loop: bool) -> None:
    assert is_loopback(host) is loop


def test_same_origin() -> None:
    assert same_origin({"host": "127.0.0.1:8080"})
    assert same_origin({"host": "127.0.0.1:8080", "origin": "http://127.0.0.1:8080"})
    assert not same_origin({"host": "127.0.0.1:8080", "origin": "http://evil.example"})
    assert not same_origin({"host": "127.0.0.1:8080", "origin": "null"})
