"""The LED light policy, in one place: which squares light, in which color and pattern, for each situation.

Colors: green = where the piece may go, orange = pieces that must capture, red = take off / wrong, yellow =
the computer's move, white/blue = put a white/black piece here, purple = crown this piece, cyan = candidates.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from firmware_bridge.types import (
    BLUE,
    CYAN,
    GREEN,
    ORANGE,
    PURPLE,
    RED,
    WHITE,
    YELLOW,
    Cell,
    LedFrame,
    Light,
    Pattern,
    Rgb,
)

from .inference import Expectation, MoveShape

ON, SLOW, FAST = Pattern.ON, Pattern.SLOW_BLINK, Pattern.FAST_BLINK


@dataclass(frozen=True)
class Fill:
    """A square to fill: which color of piece and whether a king (a crowned piece: two stacked)."""

    square: Cell
    color: str
    king: bool


class Lights:
    """A frame under construction; later calls win over earlier ones for the same square."""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols
        self.lights: dict[Cell, Light] = {}

    def add(self, squares: Iterable[Cell], color: Rgb, pattern: Pattern) -> Lights:
        """Light ``squares`` in ``color`` and ``pattern`` (replacing their earlier lights); returns self."""
        for sq in squares:
            self.lights[sq] = Light(color, pattern)
        return self

    def frame(self) -> LedFrame:
        """The finished frame (unlit squares off)."""
        return LedFrame.of(self.rows, self.cols, self.lights)


class LightPolicy:
    """Builds every LED frame the controller shows; ``teaching`` adds whole capture paths."""

    def __init__(self, rows: int, cols: int, teaching: bool = False) -> None:
        self.rows, self.cols = rows, cols
        self.teaching = teaching

    def _lights(self) -> Lights:
        return Lights(self.rows, self.cols)

    def _paths(self, lights: Lights, shapes: Iterable[MoveShape]) -> None:
        for shape in shapes:
            if shape.captures:
                lights.add(shape.path[1:], GREEN, SLOW)

    def turn(self, exp: Expectation, crown: Cell | None = None) -> LedFrame:
        """Start of a turn: the pieces that must capture (teaching: their whole paths); a crown request."""
        lights = self._lights()
        if self.teaching:
            self._paths(lights, exp.shapes)
        lights.add(exp.must_capture, ORANGE, SLOW)
        if crown is not None:
            lights.add([crown], PURPLE, FAST)
        return lights.frame()

    def lifted(self, exp: Expectation, origin: Cell) -> LedFrame:
        """A piece is in the hand: its legal destinations, or a clear "no" and the pieces that must
        capture."""
        lights = self._lights()
        shapes = exp.shapes_from(origin)
        if not shapes:
            lights.add(exp.must_capture, ORANGE, FAST)
            lights.add([origin], RED, FAST)
            return lights.frame()
        if self.teaching:
            self._paths(lights, shapes)
        lights.add([s.path[1] for s in shapes], GREEN, SLOW)
        lights.add([s.target for s in shapes], GREEN, ON)
        lights.add([origin], CYAN, ON)
        return lights.frame()

    def capturing(self, exp: Expectation, occupancy: frozenset[Cell], shapes: Iterable[MoveShape],
                  landed: Cell | None) -> LedFrame:
        """During a capture: the next landing squares and the pieces still to take off."""
        lights = self._lights()
        shapes = list(shapes)
        if self.teaching:
            self._paths(lights, shapes)
        for shape in shapes:
            if landed is not None and landed in shape.path:
                index = shape.path.index(landed)
                nxt = shape.path[index + 1:index + 2] or (shape.target,)
            else:
                nxt = shape.path[1:2]
            lights.add(nxt, GREEN, ON)
            lights.add([sq for sq in shape.captures if sq in occupancy], RED, SLOW)
        if landed is None:
            lights.add({s.origin for s in shapes if s.origin in occupancy}, CYAN, ON)
        return lights.frame()

    def computer(self, shape: MoveShape, occupancy: frozenset[Cell]) -> LedFrame:
        """The computer's move: from (steady), to (blinking), pieces to take off (red)."""
        lights = self._lights()
        lights.add([shape.origin], YELLOW, ON)
        lights.add(shape.path[1:], YELLOW, SLOW)
        lights.add([sq for sq in shape.captures if sq in occupancy], RED, FAST)
        return lights.frame()

    def computer_fix(self, shape: MoveShape, to_empty: Iterable[Cell], to_fill: Iterable[Fill]) -> LedFrame:
        """Another move made for the computer: its move (yellow) under what to fix first, as out of sync shows
        it: red = lift the piece from here, white/blue = put it (or a captured piece) back here."""
        lights = self._lights()
        lights.add([shape.origin], YELLOW, ON)
        lights.add(shape.path[1:], YELLOW, SLOW)
        lights.lights.update(self.sync(to_empty, to_fill).as_dict())
        return lights.frame()

    def not_your_turn(self, exp: Expectation, square: Cell, crown: Cell | None = None) -> LedFrame:
        """A piece of the side not to move lifted: red on its square, over the turn's own lights."""
        lights = self._lights()
        lights.lights.update(self.turn(exp, crown).as_dict())
        lights.add([square], RED, FAST)
        return lights.frame()

    def question(self, squares: Iterable[Cell]) -> LedFrame:
        """The board asks a question (the page or the console answers): the squares it is about, cyan."""
        return self._lights().add(squares, CYAN, FAST).frame()

    def hint(self, shape: MoveShape, occupancy: frozenset[Cell]) -> LedFrame:
        """A suggested move: the piece (cyan), its path and landing (green), the pieces to take off (red)."""
        lights = self._lights()
        lights.add(shape.path[1:-1], GREEN, SLOW)
        lights.add([shape.target], GREEN, ON)
        lights.add([sq for sq in shape.captures if sq in occupancy], RED, SLOW)
        lights.add([shape.origin], CYAN, ON)
        return lights.frame()

    def thinking(self) -> LedFrame:
        """The computer is thinking: dark board."""
        return self._lights().frame()

    def sync(self, to_empty: Iterable[Cell], to_fill: Iterable[Fill]) -> LedFrame:
        """Out of sync: red = empty this square, white/blue = put a white/black piece here (fast = king)."""
        lights = self._lights()
        lights.add(to_empty, RED, FAST)
        for fill in to_fill:
            lights.add([fill.square], WHITE if fill.color == "white" else BLUE, FAST if fill.king else SLOW)
        return lights.frame()

    def candidates(self, shapes: Iterable[MoveShape]) -> LedFrame:
        """Several moves explain the board: light their origins and paths for the person to choose."""
        lights = self._lights()
        for shape in shapes:
            lights.add(shape.path, CYAN, FAST)
        return lights.frame()

    def missed(self, origin: Cell, target: Cell, should_capture: Iterable[Cell]) -> LedFrame:
        """A missed capture: the offending move in red, the pieces that should have captured in orange."""
        lights = self._lights()
        lights.add(should_capture, ORANGE, FAST)
        lights.add([origin, target], RED, FAST)
        return lights.frame()

    def refused(self, exp: Expectation, origin: Cell, target: Cell) -> LedFrame:
        """A refused move: where it came from and went (red) and the pieces that must capture instead."""
        lights = self._lights()
        if self.teaching:
            self._paths(lights, exp.shapes)
        lights.add(exp.must_capture, ORANGE, FAST)
        lights.add([origin, target], RED, FAST)
        return lights.frame()

    def game_over(self, winner_squares: Iterable[Cell], draw_squares: Iterable[Cell]) -> LedFrame:
        """Game over: the winner's pieces green, or every piece yellow for a draw."""
        lights = self._lights()
        lights.add(winner_squares, GREEN, SLOW)
        lights.add(draw_squares, YELLOW, SLOW)
        return lights.frame()

    def wrong_color(self, wrong: Iterable[Cell], playing: Iterable[Cell]) -> LedFrame:
        """Pieces on the wrong color of squares for the variant: red on them, white on the right squares."""
        lights = self._lights()
        lights.add(playing, WHITE, SLOW)
        lights.add(wrong, RED, FAST)
        return lights.frame()

    def __repr__(self) -> str:
        return f"LightPolicy({self.rows}x{self.cols}, teaching={self.teaching})"
