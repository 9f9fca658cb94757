"""Count the Python bytecode steps a call takes: the tests' measure of linear time (never the clock)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import FrameType
from typing import Any


def count_steps(fn: Callable[[], Any]) -> int:
    """How many bytecode instructions run inside ``fn()`` (in every Python frame it calls)."""
    steps = 0

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal steps
        frame.f_trace_opcodes = True
        if event == "opcode":
            steps += 1
        return tracer

    old = sys.gettrace()
    sys.settrace(tracer)
    try:
        fn()
    except Exception:
        pass
    finally:
        sys.settrace(old)
    return steps


def growth(fn: Callable[[str], Any], make: Callable[[int], str], small: int, factor: int = 16) -> float:
    """steps(input of size small * factor) / steps(input of size small): about `factor` when linear."""
    return count_steps(lambda: fn(make(small * factor))) / max(1, count_steps(lambda: fn(make(small))))
