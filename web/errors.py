"""The web panel's error root: a request, a message, a body, a library file or a statistic it refuses.

Each is also a ``ValueError``, as it always was; the panel answers every ``WebError`` with a 4xx reply or an
error message naming what was wrong, and anything else is its own failure (logged).
"""

from __future__ import annotations


class WebError(Exception):
    """The root of the web package's errors."""
