"""The tournament hall's error root: a stream entry, a book file or a config it refuses.

Each is also a ``ValueError``, as it always was; whatever a board or a file sends that the hall refuses is a
``HallError``, named in one line, and anything else is the hall's own failure (logged).
"""

from __future__ import annotations


class HallError(Exception):
    """The root of the hall package's errors."""
