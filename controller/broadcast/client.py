"""The paho-mqtt client both a board and the hall use: the broker's address, user and password, optional
TLS, MQTT 5 or 3.1.1, reconnecting by itself (paho's network thread)."""

from __future__ import annotations

import ssl
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:   # paho is imported when a client is made: a config can be checked without it
    import paho.mqtt.client as mqtt

PROTOCOLS = ("5", "3.1.1")
DEFAULT_BROKER = "localhost:1883"
"""The broker a board publishes to and the hall listens to unless their configs name another."""
SESSION_EXPIRY = 7 * 24 * 3600
"""How long the broker keeps a persistent session's queued messages while its client is away (MQTT 5)."""


@dataclass(frozen=True)
class BrokerSettings:
    """How to reach the broker: ``host:port`` (1883, or 8883 with TLS), credentials, TLS, protocol."""

    host: str = "localhost"
    port: int = 1883
    user: str = ""
    password: str = ""
    tls: bool = False
    ca: str = ""
    """A CA certificate file for a broker whose certificate is not signed by a system CA."""
    protocol: str = "5"
    keepalive: int = 20

    def __post_init__(self) -> None:
        if self.protocol not in PROTOCOLS:
            raise ValueError(f"MQTT protocol: expected one of {', '.join(PROTOCOLS)}, got {self.protocol!r}")
        if not 1 <= self.port <= 65535:
            raise ValueError(f"broker port: must be 1-65535, got {self.port}")

    @classmethod
    def parse(cls, address: str, **options: Any) -> BrokerSettings:
        """``host``, ``host:port``, ``mqtt://host:port`` or ``mqtts://host:port`` (TLS) and the options."""
        text = address.strip()
        if text.startswith("mqtts://"):
            options.setdefault("tls", True)
        text = text.split("://", 1)[-1]
        host, _, port = text.rpartition(":") if text.count(":") == 1 else (text, "", "")
        if not host:
            raise ValueError(f"broker address {address!r}: expected HOST or HOST:PORT")
        try:
            number = int(port) if port else (8883 if options.get("tls") else 1883)
        except ValueError:
            raise ValueError(f"broker address {address!r}: the port {port!r} is not a number") from None
        return cls(host=host, port=number, **options)

    def __str__(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"


def make_client(broker: BrokerSettings, client_id: str, *, persistent: bool = False) -> mqtt.Client:
    """A configured, not yet connected client. ``persistent``: the broker keeps the session (subscriptions
    and QoS 1 messages that arrive while the client is away), as the hall needs."""
    import paho.mqtt.client as mqtt

    if broker.protocol == "5":
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
    else:
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv311,
                             clean_session=not persistent)
    if broker.user:
        client.username_pw_set(broker.user, broker.password or None)
    if broker.tls:
        client.tls_set(ca_certs=broker.ca or None, cert_reqs=ssl.CERT_REQUIRED)
    client.reconnect_delay_set(1, 8)
    return client


def connect(client: mqtt.Client, broker: BrokerSettings, *, persistent: bool = False) -> None:
    """Connect in the background (paho's thread reconnects after every loss)."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.packettypes import PacketTypes
    from paho.mqtt.properties import Properties

    options: dict[str, Any] = {}
    if broker.protocol == "5":
        properties = Properties(PacketTypes.CONNECT)
        if persistent:
            properties.SessionExpiryInterval = SESSION_EXPIRY
        options = {"clean_start": False if persistent else mqtt.MQTT_CLEAN_START_FIRST_ONLY,
                   "properties": properties}
    client.connect_async(broker.host, broker.port, keepalive=broker.keepalive, **options)
    client.loop_start()


def reason_text(reason: Any) -> str:
    """A connection's refusal or loss in words (paho's ReasonCode or a number)."""
    return str(getattr(reason, "getName", lambda: reason)())
