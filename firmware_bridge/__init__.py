"""Hardware I/O for the draughts board: sensor sources and LED outputs (simulated, GPIO, serial).

Knows nothing of the rules. The controller sees only ``SensorSource`` and ``LedOutput``.
"""

from .clock import ManualClock, MonotonicClock
from .interfaces import LedOutput, SensorSource
from .simulated import SimulatedBoard
from .types import Colour, LedFrame, Light, Occupancy, Pattern, Square, SquareChange

__all__ = [
    "Colour",
    "LedFrame",
    "LedOutput",
    "Light",
    "ManualClock",
    "MonotonicClock",
    "Occupancy",
    "Pattern",
    "SensorSource",
    "SimulatedBoard",
    "Square",
    "SquareChange",
]
