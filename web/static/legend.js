// "What the lights mean": the LED colours and patterns the controller lights (controller/lights.py) and the
// marks the page draws on the board, each shown on a one-square board drawn by the board's own renderer.

import { BoardView } from "./board.js";
import { _, N_ } from "./i18n.js";

const $ = (sel) => document.querySelector(sel);
const HERE = "0,0";

/** The LED colours: name, the color the controller sends (firmware_bridge/types.py), what it asks. */
const COLOURS = [
  ["green", [0, 255, 0], N_("where the piece may go (blinking: a square on its way); at the end, the winner's pieces")],
  ["orange", [255, 100, 0], N_("a piece that must capture")],
  ["red", [255, 0, 0], N_("take this piece off (a captured piece), or a wrong move or piece here")],
  ["yellow", [255, 200, 0], N_("the computer's move: steady where from, blinking where to; all pieces at a draw")],
  ["white", [255, 255, 255], N_("put a white piece here (blinking fast: a white king)")],
  ["blue", [0, 0, 255], N_("put a black piece here (blinking fast: a black king)")],
  ["purple", [160, 0, 255], N_("crown this piece: put a second piece on it")],
  ["cyan", [0, 200, 255], N_("the piece in the hand or hinted, a question, or moves to choose from")],
];

const SEEN = { cyan: N_("cyan (it looks teal)") };   // as a person names what the page shows
/** The colours' names, in the page's language. */
const COLOUR_NAMES = { green: N_("green"), orange: N_("orange"), red: N_("red"), yellow: N_("yellow"),
  white: N_("white"), blue: N_("blue"), purple: N_("purple"), cyan: N_("cyan") };

const PATTERNS = [
  ["on", N_("steady")],
  ["slow", N_("slow blink: a step to come, or a piece to put")],
  ["fast", N_("fast blink: do this first, or a king")],
];

/** The page's own marks: the board model that draws each one, and what it says. */
const MARKS = [
  ["last-from", { last: { from: [0, 0] } }, N_("faint yellow frame: where the last move came from")],
  ["last-to", { last: { to: [0, 0] } }, N_("yellow frame: where the last move went")],
  ["captured", { last: { captures: [[0, 0]] } }, N_("×: a piece the last move took")],
  ["selected", { selected: HERE, piece: "white" }, N_("green frame: the piece picked up on the page")],
  ["dest", { dests: new Set([HERE]) }, N_("green dot: where the picked-up piece may go")],
  ["fix", { marks: new Set([HERE]) }, N_("dashed red frame: fix this square so the board matches the game")],
  ["lifted", { piece: "white", occ: new Set() }, N_("faded piece, dashed: a piece of the game off its square")],
  ["unknown", { occ: new Set([HERE]) }, N_("striped: the board senses a piece the game does not have here")],
  ["king", { piece: "black", king: true }, N_("crown: a king")],
];

/** Draw one entry: a one-square board and its meaning, as a list item named by ``data-legend``. */
function entry(name, model, text) {
  const li = document.createElement("li");
  li.dataset.legend = name;
  const square = li.appendChild(document.createElement("div"));
  square.className = "board legend-square";
  const pieces = new Map(model.piece ? [[HERE, { color: model.piece, king: !!model.king }]] : []);
  new BoardView(square).render({
    rows: 1, cols: 1, flip: false, names: new Map(), pieces, occ: model.occ || null, last: model.last || null,
    leds: model.led ? new Map([[HERE, model.led]]) : null, selected: model.selected || null,
    dests: model.dests || null, marks: model.marks || null, view: null,
  });
  const span = li.appendChild(document.createElement("span"));
  span.textContent = text;
  return li;
}

/** Fill the legend's three lists (#legend-colours, #legend-patterns, #legend-marks). */
export function renderLegend() {
  const colours = $("#legend-colours"), patterns = $("#legend-patterns"), marks = $("#legend-marks");
  for (const [name, rgb, text] of COLOURS)
    colours.appendChild(entry(`led-${name}`, { led: { rgb, pattern: "on" } }, `${_(SEEN[name] || COLOUR_NAMES[name])}: ${_(text)}`));
  for (const [name, text] of PATTERNS)
    patterns.appendChild(entry(`pattern-${name}`, { led: { rgb: [0, 255, 0], pattern: name } }, _(text)));
  for (const [name, model, text] of MARKS) marks.appendChild(entry(`mark-${name}`, model, _(text)));
}
