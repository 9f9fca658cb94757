"""This machine's addresses that a phone on the same network can reach, for the URLs ``dboard play`` prints
when it listens on every interface. Found without sending a packet: the interfaces' own addresses (Linux:
an ioctl per interface, /proc/net/if_inet6) and the source address a UDP socket would use towards a private
network (``connect`` on UDP sends nothing)."""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import struct
import sys
from collections.abc import Iterator
from pathlib import Path

SIOCGIFADDR = 0x8915
"""Linux's ioctl for an interface's IPv4 address."""
PROBES_V4 = ("10.255.255.255", "172.31.255.255", "192.168.255.255")
PROBES_V6 = ("fd00::1",)
IF_INET6 = Path("/proc/net/if_inet6")


def reachable(address: str) -> bool:
    """Whether another machine could reach ``address``: not loopback, link-local, multicast or unspecified."""
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_link_local or ip.is_multicast or ip.is_unspecified)


def _interfaces_v4() -> Iterator[str]:
    """The IPv4 address of every interface that has one (Linux; nothing elsewhere)."""
    if not sys.platform.startswith("linux"):
        return
    import fcntl

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for _, name in socket.if_nameindex():
            request = struct.pack("256s", name.encode()[:15])
            with contextlib.suppress(OSError):   # an interface without an IPv4 address
                yield socket.inet_ntoa(fcntl.ioctl(sock.fileno(), SIOCGIFADDR, request)[20:24])


def _interfaces_v6() -> Iterator[str]:
    """The IPv6 addresses of the interfaces, from /proc/net/if_inet6 (Linux; nothing elsewhere)."""
    try:
        lines = IF_INET6.read_text(encoding="ascii").splitlines()
    except OSError:
        return
    for line in lines:
        fields = line.split()
        if fields and len(fields[0]) == 32:
            yield str(ipaddress.IPv6Address(bytes.fromhex(fields[0])))


def _routed(family: socket.AddressFamily, targets: tuple[str, ...]) -> Iterator[str]:
    """The source address the routing table picks towards each private ``target`` (no packet is sent)."""
    for target in targets:
        with contextlib.suppress(OSError), socket.socket(family, socket.SOCK_DGRAM) as sock:
            sock.connect((target, 9))
            yield str(sock.getsockname()[0])


def network_addresses(ipv6: bool = False) -> list[str]:
    """This machine's reachable IPv4 addresses (and its IPv6 ones when ``ipv6``), routed ones first, each
    once."""
    found = [*_routed(socket.AF_INET, PROBES_V4), *_interfaces_v4()]
    if ipv6:
        found += [*_routed(socket.AF_INET6, PROBES_V6), *_interfaces_v6()]
    return [a for a in dict.fromkeys(found) if reachable(a)]
