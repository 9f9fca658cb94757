// Clicks, taps and drags on the live board. In "play" mode a move is made as on lidraughts - the piece, then
// where it goes (a capture: each landing square, or the last one when that says which capture), or a drag -
// and handed to the host as one legal path; in "hand" mode a click lifts or puts down one piece, as a hand
// does on a real board; in "edit" mode a click changes the square of a position being set up.

import { _ } from "./i18n.js";
import { cellOf, key } from "./board.js";

const DRAG_PX = 5;

export class BoardInput {
  /** host: {mode() -> "play"|"hand"|"edit"|"none", paths() -> [{text, path, captures}], play(path, dragged),
   *  raw(r, c, cell), edit(r, c), say(text), changed()} */
  constructor(el, host) {
    this.el = el;
    this.host = host;
    this.selection = null;   // {origin: key, landings: [key]}
    this.press = null;       // a pointer held down on a piece: {k, x, y, id, dragging}
    this.suppressClick = false;
    el.addEventListener("click", (e) => this.onClick(e));
    el.addEventListener("pointerdown", (e) => this.onDown(e));
    el.addEventListener("pointermove", (e) => this.onMove(e));
    el.addEventListener("pointerup", (e) => this.onUp(e));
    el.addEventListener("pointercancel", () => this.endDrag());
  }

  clear() { this.selection = null; this.endDrag(); }

  /** The legal paths that go on from the squares clicked so far. */
  candidates() {
    const sel = this.selection;
    if (!sel) return [];
    return this.host.paths().filter((p) => key(...p.path[0]) === sel.origin
      && sel.landings.every((k, i) => p.path[i + 1] && key(...p.path[i + 1]) === k));
  }

  /** Where the selected piece may land next (the squares marked on the board). */
  dests() {
    const n = this.selection ? this.selection.landings.length + 1 : 0;
    return new Set(this.candidates().filter((p) => p.path.length > n).map((p) => key(...p.path[n])));
  }

  /** The square the selected piece stands on now (its origin, or the last landing clicked). */
  standing() {
    const sel = this.selection;
    return sel ? (sel.landings.length ? sel.landings[sel.landings.length - 1] : sel.origin) : null;
  }

  onClick(ev) {
    if (this.suppressClick) { this.suppressClick = false; return; }
    const cell = ev.target.closest(".sq");
    if (!cell) return;
    const r = Number(cell.dataset.row), c = Number(cell.dataset.col);
    const mode = this.host.mode();
    if (mode === "edit") this.host.edit(r, c);
    else if (mode === "hand") this.host.raw(r, c, cell);
    else if (mode === "play") this.choose(key(r, c), false);
  }

  /** A square chosen (by a click or a drop): go on with the move, play it, or pick another piece. */
  choose(k, dragged) {
    const sel = this.selection;
    if (sel) {
      const cands = this.candidates();
      const n = sel.landings.length + 1;
      const next = cands.filter((p) => p.path.length > n && key(...p.path[n]) === k);
      if (next.length) {
        sel.landings.push(k);
        const done = next.filter((p) => p.path.length === n + 1);
        // a capture that may stop here (Konane) stops here: one click; its far landing clicked jumps on
        if (done.length === 1) return this.finish(done[0], dragged);
        return this.host.changed();
      }
      const ends = cands.filter((p) => key(...p.path[p.path.length - 1]) === k);
      if (ends.length === 1) return this.finish(ends[0], dragged);
      const stop = cands.find((p) => p.path.length === n);   // a shorter capture that ends where it stands
      if (stop && k === this.standing()) return this.finish(stop, dragged);
      if (ends.length > 1) { this.host.say(_("Several captures end there: click each landing square in turn.")); return; }
    }
    const from = this.host.paths().filter((p) => key(...p.path[0]) === k);
    const removal = from.length === 1 && from[0].path.every((c) => key(...c) === k);   // Konane's opening
    if (removal && !dragged) return this.finish(from[0], false);                      // one click takes it off
    this.selection = from.length && !(sel && sel.origin === k && !sel.landings.length && !dragged)
      ? { origin: k, landings: [] } : null;
    this.host.changed();
  }

  finish(path, dragged) {
    this.selection = null;
    this.host.play(path, dragged);
  }

  // --- drag and drop (mouse, pen or finger) ---------------------------------------------------------------
  onDown(ev) {
    this.suppressClick = false;
    if (ev.button !== 0 || this.host.mode() !== "play") return;
    const cell = ev.target.closest(".sq");
    if (!cell) return;
    const k = key(Number(cell.dataset.row), Number(cell.dataset.col));
    const fromHere = this.host.paths().some((p) => key(...p.path[0]) === k);
    if (!fromHere) return;
    this.press = { k, x: ev.clientX, y: ev.clientY, id: ev.pointerId, dragging: false };
  }

  onMove(ev) {
    const p = this.press;
    if (!p || ev.pointerId !== p.id) return;
    if (!p.dragging) {
      if (Math.hypot(ev.clientX - p.x, ev.clientY - p.y) < DRAG_PX) return;
      p.dragging = true;
      this.el.setPointerCapture(p.id);   // the drop is read where the pointer is; clicks stay on their square
      this.selection = { origin: p.k, landings: [] };
      this.host.changed();
      const piece = this.el.querySelector(`.sq[data-row="${cellOf(p.k)[0]}"][data-col="${cellOf(p.k)[1]}"] .piece`);
      if (!piece) { this.press = null; return; }
      const box = piece.getBoundingClientRect();
      const ghost = piece.cloneNode(true);
      ghost.id = "drag-ghost";
      ghost.style.width = `${box.width}px`;
      ghost.style.height = `${box.height}px`;
      document.body.appendChild(ghost);
      piece.classList.add("dragged");
      p.ghost = ghost;
      p.piece = piece;
    }
    p.ghost.style.transform = `translate(${ev.clientX - p.ghost.offsetWidth / 2}px, ${ev.clientY - p.ghost.offsetHeight / 2}px)`;
  }

  onUp(ev) {
    const p = this.press;
    if (!p || ev.pointerId !== p.id) return;
    const dragged = p.dragging;
    this.endDrag();
    if (!dragged) return;   // a plain click: the click handler takes it
    this.suppressClick = true;
    const under = document.elementFromPoint(ev.clientX, ev.clientY);
    const cell = under && under.closest(".sq");
    const k = cell && this.el.contains(cell) ? key(Number(cell.dataset.row), Number(cell.dataset.col)) : null;
    if (k && k !== p.k) this.choose(k, true);
    else this.host.changed();   // dropped back or off the board: the piece stays, selected
  }

  endDrag() {
    const p = this.press;
    this.press = null;
    if (!p) return;
    if (p.ghost) p.ghost.remove();
    if (p.piece) p.piece.classList.remove("dragged");
    if (this.el.hasPointerCapture && this.el.hasPointerCapture(p.id)) this.el.releasePointerCapture(p.id);
  }
}
