// The move list as lidraughts shows it: a table of move number, first mover's ply, second mover's ply, whose
// plies can be clicked; the second mover's first ply after a set-up reads "1. … 21-17".

import { _ } from "./i18n.js";

export const other = (color) => (color === "white" ? "black" : "white");
/** A side's name as sentences say it, in the page's language ("White"). */
export const sideName = (color) => ({ white: _("White"), black: _("Black") })[color] || color || "";

/** Rows {number, cells: [ply|null, ply|null]} of plies [{text, by}] (ply numbers count from 1). */
export function moveRows(plies, first) {
  const rows = [];
  let row = null;
  plies.forEach((p, i) => {
    const col = p.by === other(first) ? 1 : 0;
    if (!row || col === 0 || row.cells[1]) { row = { number: rows.length + 1, cells: [null, null] }; rows.push(row); }
    row.cells[col] = { text: p.text, by: p.by, ply: i + 1 };
  });
  return rows;
}

/** How a ply is written on its own: "2. 27x18" or "2. … 23x34". */
export function plyLabel(rows, ply) {
  for (const row of rows) {
    const [a, b] = row.cells;
    if (a && a.ply === ply) return `${row.number}. ${a.text}`;
    if (b && b.ply === ply) return `${row.number}. … ${b.text}`;
  }
  return "";
}

/** Draw ``rows`` into ``box`` (a scrolling element) with ``current`` marked; a click on a ply calls onPick. */
export function renderMoveTable(box, rows, { first, current, follow, onPick }) {
  const table = document.createElement("table");
  table.className = "move-table";
  const head = table.createTHead().insertRow();
  for (const title of ["", sideName(first), sideName(other(first))]) {
    const th = document.createElement("th");
    th.textContent = title;
    head.appendChild(th);
  }
  const body = table.createTBody();
  for (const row of rows) {
    const tr = body.insertRow();
    const num = tr.insertCell();
    num.className = "num";
    num.textContent = `${row.number}.`;
    row.cells.forEach((p, col) => {
      const td = tr.insertCell();
      if (!p) {
        if (col === 0 && row.cells[1]) { td.className = "gap"; td.textContent = "…"; }
        return;
      }
      td.className = p.ply === current ? "ply current" : "ply";
      td.dataset.ply = p.ply;
      td.textContent = p.text;
      td.onclick = () => onPick(p.ply);
    });
  }
  box.replaceChildren(table);
  if (follow) { box.scrollTop = box.scrollHeight; return; }
  const td = box.querySelector("td.current");   // keep the ply viewed in sight, without scrolling the page
  if (!td) return;
  const top = td.offsetTop - table.tHead.offsetHeight;
  if (top < box.scrollTop) box.scrollTop = top;
  else if (td.offsetTop + td.offsetHeight > box.scrollTop + box.clientHeight)
    box.scrollTop = td.offsetTop + td.offsetHeight - box.clientHeight;
}
