"""The firmware bridge's error root: what it raises to its callers about boards, profiles, frames and links.

Each error is also a ``ValueError`` (a bad square, profile or frame is a bad value), so callers that
validate may keep catching those; the controller decides by these types what is the person's to change.
"""

from __future__ import annotations


class BridgeError(Exception):
    """The root of the firmware bridge's errors (not the GPIO model's, which mimics RPi.GPIO's own)."""
