// Drawing a draughts board: squares with their coordinates, pieces, LEDs and marks, updated in place so that a
// piece's move can be animated; and reading positions (FEN) in the physical cells the page draws.

import { _, N_ } from "./i18n.js";

export const key = (r, c) => `${r},${c}`;
export const cellOf = (k) => k.split(",").map(Number);

/** A square and what stands on it, as a screen reader says it ("28: white king"). */
export function squareWords(name, p, occupied = true) {
  if (!p) return occupied ? _("{square}: a piece the game does not have", { square: name }) : _("{square}: empty", { square: name });
  const words = { "white": N_("{square}: white man"), "white-king": N_("{square}: white king"),
    "black": N_("{square}: black man"), "black-king": N_("{square}: black king") };
  const said = _(words[p.color + (p.king ? "-king" : "")], { square: name });
  return occupied ? said : _("{piece}, lifted", { piece: said });
}

/** The variant's playing squares as [row, col, name] in physical cells (the board may be turned round). */
export function physicalSquares(variant, orientation) {
  if (!variant || !variant.squares) return [];
  if (orientation !== "white-far") return variant.squares;
  return variant.squares.map(([r, c, n]) => [variant.rows - 1 - r, variant.cols - 1 - c, n]);
}

/** The pieces of a PDN FEN ("W:W31,K32:B1-5") as a Map "r,c" -> {color, king}, on the given squares. */
export function fenPieces(fen, squares) {
  const byName = new Map(squares.map(([r, c, n]) => [String(n).toLowerCase(), key(r, c)]));
  const pieces = new Map();
  for (const part of String(fen || "").replace(/\.$/, "").split(":").slice(1)) {
    const color = part[0] && part[0].toUpperCase() === "W" ? "white" : "black";
    for (let token of part.slice(1).split(",")) {
      token = token.trim().toLowerCase();
      const king = token.startsWith("k");
      if (king) token = token.slice(1);
      const range = /^(\d+)-(\d+)$/.exec(token);
      const names = range ? Array.from({ length: Math.max(0, range[2] - range[1] + 1) }, (_, i) => String(+range[1] + i))
        : [token];
      for (const name of names) if (byName.has(name)) pieces.set(byName.get(name), { color, king });
    }
  }
  return pieces;
}

/** The move between two positions as the board sees it: from, to and the captured cells of ``mover``. */
export function moveBetween(before, after, mover) {
  const gone = [...before].filter(([k, p]) => p.color === mover && !(after.get(k)?.color === mover));
  const came = [...after].filter(([k, p]) => p.color === mover && !(before.get(k)?.color === mover));
  const captures = [...before].filter(([k, p]) => p.color !== mover && !after.has(k)).map(([k]) => cellOf(k));
  if (gone.length !== 1 || came.length !== 1) return null;
  return { from: cellOf(gone[0][0]), to: cellOf(came[0][0]), captures };
}

const reducedMotion = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/** One board element. ``render(model)`` updates it; the squares are rebuilt only when the layout changes.

 model: {rows, cols, flip, names: Map key->name, pieces: Map key->{color,king}, occ: Set|null (what the sensors
 see: a piece not on its square is drawn lifted, a sensed square without a piece striped), leds: Map key->light,
 last: {from, to, captures}|null, selected: key|null, dests: Set, marks: Set (squares to fix), view: ply|null}
*/
export class BoardView {
  constructor(el) {
    this.el = el;
    this.cells = new Map();
    this.layout = "";
  }

  cell(k) { return this.cells.get(k); }

  render(m) {
    const layout = `${m.rows}x${m.cols}:${m.flip}:${[...m.names].join(";")}:${(m.lines || []).length}`;
    if (layout !== this.layout) this.build(m, layout);
    if (m.view == null) delete this.el.dataset.view; else this.el.dataset.view = m.view;
    this.el.classList.toggle("history", m.view != null);
    const last = m.last || {};
    const lastFrom = last.from ? key(...last.from) : null;
    const lastTo = last.to ? key(...last.to) : null;
    const caps = new Set((last.captures || []).map((v) => key(...v)));
    for (const [k, cell] of this.cells) {
      const p = m.pieces.get(k);
      const occupied = m.occ ? m.occ.has(k) : !!p;
      const cls = cell.classList;
      cls.toggle("play", m.names.has(k) && m.view == null);
      cls.toggle("last-from", k === lastFrom);
      cls.toggle("last-to", k === lastTo);
      cls.toggle("captured", caps.has(k) && !occupied);
      cls.toggle("selected", k === m.selected);
      cls.toggle("dest", !!(m.dests && m.dests.has(k)));
      cls.toggle("fix", !!(m.marks && m.marks.has(k)));
      this.setLed(cell, m.leds && m.leds.get(k));
      this.setPiece(cell, p, occupied);
    }
  }

  build(m, layout) {
    this.layout = layout;
    this.el.textContent = "";
    this.cells.clear();
    this.el.style.setProperty("--rows", m.rows);
    this.el.style.setProperty("--cols", m.cols);
    const numeric = [...m.names.values()].every((n) => /^\d+$/.test(n));
    const fileOf = new Map(), rankOf = new Map();   // algebraic notation: letters by column, numbers by row
    for (const [k, n] of m.names) { const [r, c] = cellOf(k); fileOf.set(c, n[0]); rankOf.set(r, n.slice(1)); }
    for (let i = 0; i < m.rows; i++) {
      const r = m.flip ? i : m.rows - 1 - i;
      for (let j = 0; j < m.cols; j++) {
        const c = m.flip ? m.cols - 1 - j : j;
        const k = key(r, c);
        const cell = document.createElement("div");
        cell.className = (r + c) % 2 === 0 ? "sq dark" : "sq light";
        cell.dataset.row = r; cell.dataset.col = c;
        const name = m.names.get(k);
        if (name) { cell.dataset.name = name; cell.setAttribute("role", "img"); }
        else cell.setAttribute("aria-hidden", "true");
        if (name && numeric) cell.appendChild(label("name", name));
        if (!numeric && j === 0 && rankOf.has(r)) cell.appendChild(label("coord rank", rankOf.get(r)));
        if (!numeric && i === m.rows - 1 && fileOf.has(c)) cell.appendChild(label("coord file", fileOf.get(c)));
        this.el.appendChild(cell);
        this.cells.set(k, cell);
      }
    }
    this.el.classList.toggle("points", !!(m.lines && m.lines.length));
    if (m.lines && m.lines.length) this.el.appendChild(drawLines(m));
  }

  setLed(cell, light) {
    let d = cell.querySelector(".led");
    if (!light || light.pattern === "off") { if (d) d.remove(); delete cell.dataset.led; return; }
    if (!d) { d = document.createElement("div"); cell.prepend(d); }
    const [r, g, b] = light.rgb || [255, 255, 255];
    d.className = `led ${light.pattern}`;
    d.style.background = `rgb(${r},${g},${b})`;
    cell.dataset.led = light.pattern;
  }

  setPiece(cell, p, occupied) {
    cell.dataset.occupied = occupied ? "1" : "0";
    if (cell.dataset.name) cell.setAttribute("aria-label", squareWords(cell.dataset.name, p, occupied));
    delete cell.dataset.pending;
    const kind = p ? `${p.color}${p.king ? " king" : ""}${occupied ? "" : " lifted"}` : (occupied ? "unknown" : "");
    if (p) cell.dataset.piece = p.color + (p.king ? "-king" : ""); else delete cell.dataset.piece;
    let d = cell.querySelector(".piece:not(.ghost)");
    if ((d ? d.dataset.kind : "") === kind) return;
    if (d) d.remove();
    if (!kind) return;
    d = pieceElement(kind);
    d.dataset.kind = kind;
    cell.appendChild(d);
  }

  /** Slide the piece now on ``to`` from ``from``; fade out the pieces it took (their former look given). */
  animate(from, to, taken = []) {
    if (reducedMotion()) return;
    const a = this.cell(key(...from)), b = this.cell(key(...to));
    const piece = b && b.querySelector(".piece:not(.ghost)");
    if (a && piece && a !== b) {
      const ra = a.getBoundingClientRect(), rb = b.getBoundingClientRect();
      piece.animate([{ transform: `translate(${ra.left - rb.left}px, ${ra.top - rb.top}px)` },
        { transform: "translate(0px, 0px)" }], { duration: 220, easing: "ease-out" });
    }
    for (const { cell: at, piece: was } of taken) {
      const c = this.cell(key(...at));
      if (!c || !was) continue;
      const ghost = pieceElement(`ghost ${was.color}${was.king ? " king" : ""}`);
      c.appendChild(ghost);
      ghost.animate([{ opacity: 0.9 }, { opacity: 0 }], { duration: 260, easing: "ease-in" }).onfinish = () => ghost.remove();
    }
  }
}

const SVG_NS = "http://www.w3.org/2000/svg";
const CROWN = "M3 17 L1.5 6.5 L7 10.5 L12 3 L17 10.5 L22.5 6.5 L21 17 Z M3 19 H21 V21.5 H3 Z";

/** A piece of ``kind`` ("white king", "black lifted", ...); a king carries a crown over most of its disc,
 so that it stands out at a glance, also on a phone (as lidraughts draws its kings). */
export function pieceElement(kind) {
  const d = document.createElement("div");
  d.className = `piece ${kind}`;
  if (/\bking\b/.test(kind)) {
    const svg = document.createElementNS(SVG_NS, "svg");
    svg.setAttribute("class", "crown");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("aria-hidden", "true");
    const path = document.createElementNS(SVG_NS, "path");
    path.setAttribute("d", CROWN);
    svg.appendChild(path);
    d.appendChild(svg);
  }
  return d;
}

/** A board of points (alquerque): the lines joining them, drawn over the cells, under the pieces. */
function drawLines(m) {
  const ns = SVG_NS;
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("class", "lines");
  svg.setAttribute("viewBox", `0 0 ${m.cols} ${m.rows}`);
  svg.setAttribute("preserveAspectRatio", "none");
  const x = (c) => (m.flip ? m.cols - 1 - c : c) + 0.5;
  const y = (r) => (m.flip ? r : m.rows - 1 - r) + 0.5;
  for (const [r1, c1, r2, c2] of m.lines) {
    const line = document.createElementNS(ns, "line");
    line.setAttribute("x1", x(c1)); line.setAttribute("y1", y(r1));
    line.setAttribute("x2", x(c2)); line.setAttribute("y2", y(r2));
    svg.appendChild(line);
  }
  return svg;
}

function label(cls, text) {
  const s = document.createElement("span");
  s.className = cls;
  s.textContent = text;
  return s;
}
