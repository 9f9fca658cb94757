"""Hardware I/O for the draughts board: sensor sources and LED outputs (simulated, GPIO, serial).

Knows nothing of the rules. The controller sees only ``SensorSource`` and ``LedOutput``.
"""

from .board import open_board
from .clock import ManualClock, MonotonicClock
from .interfaces import LedOutput, SensorSource
from .profile import Profile, ProfileError, load_profile
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
    "Profile",
    "ProfileError",
    "SensorSource",
    "SimulatedBoard",
    "Square",
    "SquareChange",
    "load_profile",
    "open_board",
]
