"""Issue 28 item 8: the addresses printed for a phone are this machine's own and reachable from the network,
found without a packet sent."""

from __future__ import annotations

import socket

from web.access import WebOptions
from web.addresses import network_addresses, reachable


def test_only_addresses_another_machine_can_reach() -> None:
    assert reachable("192.168.1.20") and reachable("10.0.0.5") and reachable("fd00::2")
    for address in ("127.0.0.1", "127.0.1.1", "::1", "169.254.3.4", "fe80::1%eth0", "0.0.0.0", "224.0.0.1",
                    "not an address"):
        assert not reachable(address), address


def test_the_addresses_are_this_machines_own() -> None:
    found = network_addresses(ipv6=True)
    assert found, "this machine has a network interface"
    assert len(found) == len(set(found))
    for address in found:   # a socket binds only to an address of this machine
        family = socket.AF_INET6 if ":" in address else socket.AF_INET
        with socket.socket(family, socket.SOCK_DGRAM) as sock:
            sock.bind((address, 0))
    assert all(":" not in a for a in network_addresses())   # IPv4 only unless asked


def test_network_urls_carry_the_token_and_only_on_every_interface() -> None:
    options = WebOptions(listen="0.0.0.0", port=8080, token="a-token-of-16-chars")
    urls = options.network_urls()
    assert urls and all(u.endswith(":8080/?token=a-token-of-16-chars") for u in urls)
    assert options.url() == "http://127.0.0.1:8080/?token=a-token-of-16-chars"
    assert WebOptions(listen="127.0.0.1", port=8080).network_urls() == []
    assert WebOptions(listen=network_addresses()[0], port=8080).network_urls() == []   # its own URL says it
