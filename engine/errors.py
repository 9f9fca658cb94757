"""The engine's error root: what it raises to its callers about positions, protocols, engines and ratings.

Each is also the builtin error it always was (a ``ValueError``: a bad value; ratings' a sqlite error too), so
callers that catch those still do; a caller that must tell the engine's errors from anything else catches
``EngineError``.
"""

from __future__ import annotations


class EngineError(Exception):
    """The root of the engine package's errors."""
