"""Hardware I/O for the draughts board: sensor sources and LED outputs (simulated, GPIO, serial).

Knows nothing of the rules. The controller sees only ``SensorSource`` and ``LedOutput``.
"""

from .clock import ManualClock, MonotonicClock
from .device import open_device
from .interfaces import BoardDevice, GpioModule, LedOutput, SensorSource
from .profile import Profile, ProfileError, load_profile
from .simulated import SimulatedDevice
from .types import Cell, CellChange, LedFrame, Light, LinkStatus, Occupancy, Pattern, Rgb

__all__ = [
    "BoardDevice",
    "Cell",
    "CellChange",
    "GpioModule",
    "LedFrame",
    "LedOutput",
    "Light",
    "LinkStatus",
    "ManualClock",
    "MonotonicClock",
    "Occupancy",
    "Pattern",
    "Profile",
    "ProfileError",
    "Rgb",
    "SensorSource",
    "SimulatedDevice",
    "load_profile",
    "open_device",
]
