// The game library tab: the saved games (finished, or unfinished with result *), each viewable move by move
// (the move table numbered by moves, as the live one) and downloadable as PDN under its file's name.

import { BoardView, key } from "./board.js";
import { moveRows, renderMoveTable } from "./moves.js";

const $ = (sel) => document.querySelector(sel);

/** The library tab's behaviour. ctx: {variants() -> the hello's variant list, query() -> "?token=..." or ""} */
export function openLibrary(ctx) {
  const board = new BoardView($("#viewer-board"));
  let viewer = null;   // {data, ply, rows, first}

  async function load() {
    const res = await fetch("/api/games" + ctx.query());
    const data = await res.json();
    const tbody = $("#games");
    tbody.textContent = "";
    const games = data.games || [];
    $("#games-empty").hidden = games.length > 0;
    for (const g of games) {
      const tr = document.createElement("tr");
      tr.className = g.finished === false ? "game unfinished" : "game";
      tr.dataset.id = g.id;
      const result = g.finished === false ? "unfinished" : g.result;
      const cells = { date: when(g), variant: g.variant_name || g.variant, white: g.white, black: g.black, result,
        moves: Math.ceil(g.plies / 2) };
      for (const [col, v] of Object.entries(cells)) {
        const td = document.createElement("td");
        td.dataset.col = col;
        td.textContent = v;
        tr.appendChild(td);
      }
      const td = document.createElement("td");
      td.dataset.col = "pdn";
      const a = document.createElement("a");
      a.href = `/api/games/${encodeURIComponent(g.id)}.pdn${ctx.query()}`;
      a.textContent = "PDN";
      a.download = g.download || "";
      a.className = "download";
      a.onclick = (e) => e.stopPropagation();
      td.appendChild(a);
      tr.appendChild(td);
      tr.onclick = () => open(g.id);
      tbody.appendChild(tr);
    }
  }

  async function open(id) {
    const res = await fetch(`/api/games/${encodeURIComponent(id)}${ctx.query()}`);
    const data = await res.json();
    $("#viewer").hidden = false;
    $("#viewer").dataset.id = id;   // the Replay button (lessons.js) replays this game on the board
    const sm = data.summary || {};
    $("#viewer-title").textContent = `${sm.white || "?"} – ${sm.black || "?"}  ${sm.result || ""}  `
      + `(${sm.variant_name || sm.variant || ""}, ${when(sm)})`;
    $("#viewer-error").hidden = !data.error;
    $("#viewer-error").textContent = data.error || "";
    if (!data.frames) { viewer = null; return; }
    const variant = ctx.variants().find((v) => v.id === data.variant) || {};
    const first = data.first || variant.first || "white";
    // Who made each ply: the color of the piece that stands on its target afterwards.
    const plies = data.frames.slice(1).map((f) => ({ text: f.text, by: moverOf(f) }));
    viewer = { data, ply: 0, rows: moveRows(plies, first), first,
      names: new Map((variant.squares || []).map(([r, c, n]) => [key(r, c), String(n)])),
      lines: variant.lines || [] };
    go(0);
  }

  function go(ply) {
    const v = viewer;
    if (!v) return;
    const frames = v.data.frames;
    v.ply = Math.max(0, Math.min(ply, frames.length - 1));
    const f = frames[v.ply];
    board.render({ rows: v.data.rows, cols: v.data.cols, flip: false, names: v.names, lines: v.lines, occ: null,
      leds: null,
      pieces: new Map(f.pieces.map((p) => [key(p.row, p.col), { color: p.color, king: !!p.king }])),
      last: f.from ? { from: f.from, to: f.to } : null, view: v.ply, selected: null, dests: null, marks: null });
    $("#v-ply").textContent = `${v.ply} / ${frames.length - 1}`;
    $("#v-ply").dataset.ply = v.ply;
    renderMoveTable($("#viewer-moves"), v.rows, { first: v.first, current: v.ply, follow: false, onPick: go });
  }

  $("#v-first").onclick = () => go(0);
  $("#v-prev").onclick = () => go((viewer?.ply ?? 0) - 1);
  $("#v-next").onclick = () => go((viewer?.ply ?? 0) + 1);
  $("#v-last").onclick = () => go(Infinity);
  document.addEventListener("keydown", (e) => {
    if ($("#library").hidden || !viewer || e.target.closest("input, select, textarea")) return;
    if (e.key === "ArrowLeft") go(viewer.ply - 1);
    if (e.key === "ArrowRight") go(viewer.ply + 1);
  });
  return { load };
}

/** The game's date and, when known, its start time: "2026.11.30 20:30". */
const when = (g) => [g.date || "?", g.time || ""].join(" ").trim();

function moverOf(frame) {
  if (frame.by) return frame.by;
  const p = frame.to && frame.pieces.find((q) => q.row === frame.to[0] && q.col === frame.to[1]);
  return p ? p.color : "white";
}
