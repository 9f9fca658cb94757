// The hall's page: #/EVENT/ROUND (every board), #/EVENT/ROUND/BOARD (one game), #/EVENT/ROUND/arbiter,
// #/EVENT/standings. The round is long-polled: the server answers when something changed.
import { _, _n, loadLanguage, translatePage } from "/i18n.js";

await loadLanguage("");
translatePage();
const token = new URLSearchParams(location.search).get("token") || "";
const main = document.getElementById("main");
const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) { if (k === "text") e.textContent = v; else e.setAttribute(k, v); }
  for (const k of kids) e.append(k);
  return e;
};
const clock = s => s == null ? "" : `${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, "0")}:` +
  String(Math.floor(s) % 60).padStart(2, "0");
const esc = encodeURIComponent;
let generation = 0;   // a new view stops the previous view's polling

function drawBoard(rows, cols, pieces, last) {
  const b = el("div", {class: "board"});
  b.style.gridTemplateColumns = `repeat(${cols}, 1fr)`;
  const at = new Map(pieces.map(([r, c, p]) => [`${r},${c}`, p]));
  const lit = new Set((last || []).map(([r, c]) => `${r},${c}`));
  for (let r = rows - 1; r >= 0; r--) {
    for (let c = 0; c < cols; c++) {
      const sq = el("div", {class: `sq ${(r + c) % 2 ? "l" : "d"}${lit.has(`${r},${c}`) ? " last" : ""}`,
                            "data-row": r, "data-col": c});
      const p = at.get(`${r},${c}`);
      if (p) { sq.append(el("div", {class: `pc ${p}`})); sq.dataset.piece = p; }
      b.append(sq);
    }
  }
  return b;
}

function tile(event, round, b) {
  const t = el("div", {class: "tile" + (b.flags.length ? " flagged" : ""), "data-board": b.board});
  t.append(el("div", {class: "head"}, el("span", {text: _("Board {board}", {board: b.board})}),
              el("span", {class: "result", text: b.result === "*" ? "" : b.result})));
  t.append(el("div", {class: "players", text: `${b.white} - ${b.black}`}));
  if (b.pieces) t.append(drawBoard(b.rows, b.cols, b.pieces, b.last_cells));
  const clocks = b.clocks ? `${clock(b.clocks.white)} | ${clock(b.clocks.black)}` : "";
  t.append(el("div", {class: "foot"}, el("span", {class: "lastmove", text: b.last_label || "-"}),
              el("span", {class: "clock", text: clocks})));
  if (b.flags.length) t.append(el("div", {class: "flags", text: b.flags.join(", ")}));
  t.onclick = () => { location.hash = `#/${esc(event)}/${esc(round)}/${esc(b.board)}`; };
  return t;
}

async function poll(url, draw) {
  const mine = ++generation;
  let version = null;
  while (mine === generation) {
    try {
      const r = await fetch(version === null ? url : `${url}?after=${version}`);
      if (!r.ok) throw new Error(r.status);
      const data = await r.json();
      document.getElementById("conn").dataset.state = "up";
      if (mine !== generation) return;
      version = data.version;
      draw(data);
    } catch (e) {
      document.getElementById("conn").dataset.state = "down";
      await new Promise(res => setTimeout(res, 2000));
    }
  }
}

function nav(event, round) {
  const n = document.getElementById("nav");
  n.replaceChildren(el("a", {href: `#/${esc(event)}/${esc(round)}`, text: _("{event} round {round}", {event, round})}),
    el("a", {href: `/pdn/${esc(event)}/${esc(round)}.pdn`, text: _("live PDN")}),
    el("a", {href: `/archive/${esc(event)}/${esc(round)}.pdn`, text: _("finished games")}),
    el("a", {href: `#/${esc(event)}/standings`, text: _("standings")}),
    el("a", {href: `#/${esc(event)}/${esc(round)}/arbiter` + "", text: _("arbiter")}));
}

function showRound(event, round) {
  nav(event, round);
  document.getElementById("title").textContent = _("{event} - round {round}", {event, round});
  poll(`/api/round/${esc(event)}/${esc(round)}`, data => {
    const grid = el("div", {class: "grid", id: "boards"});
    const n = data.boards.length;
    grid.style.setProperty("--tile", n > 30 ? "11em" : n > 12 ? "13em" : "18em");
    for (const b of data.boards) grid.append(tile(event, round, b));
    main.replaceChildren(n ? grid : el("p", {class: "empty", text: _("No board has reported yet.")}));
  });
}

// A second mover's ply right after the first mover's is written without its number: "3. 9-13 22-18"; one
// that opens the list (a game set up for the second mover) keeps it: "1. … 22-18".
const answers = (moves, i) => i > 0 && moves[i].label.includes("\u2026") && !moves[i - 1].label.includes("\u2026");

async function showGame(event, round, board) {
  nav(event, round);
  document.getElementById("title").textContent = _("{event} - round {round} - board {board}", {event, round, board});
  let selected = null;
  const url = `/api/board/${esc(event)}/${esc(round)}/${esc(board)}`;
  const draw = data => {
    const moves = data.moves || [];
    const index = selected === null ? moves.length : selected;
    const pieces = index === 0 ? data.start : moves[index - 1].pieces;
    const list = el("div", {class: "moves", id: "moves"});
    moves.forEach((m, i) => {
      const p = el("span", {class: "ply" + (i + 1 === index ? " sel" : ""), "data-ply": i + 1,
                            text: answers(moves, i) ? m.text : m.label});
      p.onclick = () => { selected = i + 1 === moves.length ? null : i + 1; draw(data); };
      list.append(p, " ");
    });
    const head = el("div", {}, el("h2", {text: `${data.white} - ${data.black}`}),
                    el("p", {class: "result", id: "game-result", text: data.result}),
                    el("p", {class: "clock", text: data.clocks ?
                      `${clock(data.clocks.white)} | ${clock(data.clocks.black)}` : ""}),
                    el("p", {class: "flags", text: data.flags.join(", ")}),
                    el("a", {href: `/pdn/${esc(event)}/${esc(round)}/${esc(board)}.pdn`, text: "PDN"}), list);
    main.replaceChildren(el("div", {class: "game", id: "game"},
      data.rows ? drawBoard(data.rows, data.cols, pieces || [], index === moves.length ? data.last_cells : []) : "",
      head));
  };
  const mine = ++generation;
  let version = null;
  while (mine === generation) {   // the board's page follows the round's changes
    try {
      const data = await (await fetch(url)).json();
      if (mine !== generation) return;
      draw(data);
      const r = await (await fetch(`/api/round/${esc(event)}/${esc(round)}` +
                                   (version === null ? "" : `?after=${version}`))).json();
      version = r.version;
    } catch (e) { await new Promise(res => setTimeout(res, 2000)); }
  }
}

async function post(action, body) {
  const r = await fetch(`/api/${action}`, {method: "POST", headers: {"Content-Type": "application/json",
    "X-Hall-Token": token}, body: JSON.stringify(body)});
  const data = await r.json();
  document.getElementById("arbiter-msg").textContent = r.ok ? _("Saved.") : data.error;
  return r.ok;
}

function showArbiter(event, round) {
  nav(event, round);
  document.getElementById("title").textContent = _("{event} - round {round} - arbiter", {event, round});
  poll(`/api/round/${esc(event)}/${esc(round)}`, data => {
    if (document.activeElement && main.contains(document.activeElement)) return;  // do not disturb typing
    const table = el("table", {id: "arbiter"}, el("tr", {}, ...[_("Board"), _("Players"), _("Moves"), _("Result"),
      _("Flags"), _("Correct the result"), ""].map(h => el("th", {text: h}))));
    for (const b of data.boards) {
      const select = el("select", {"data-board": b.board});
      for (const r of ["", "1-0", "0-1", "1/2-1/2"]) select.append(el("option", {value: r, text: r || _("(board's)")}));
      select.value = b.corrected ? b.corrected.result : "";
      const note = el("input", {placeholder: _("note"), value: b.corrected ? b.corrected.note : ""});
      const save = el("button", {text: _("Save")});
      save.onclick = () => post("result", {event, round, board: b.board, result: select.value, note: note.value});
      table.append(el("tr", {"data-board": b.board, class: b.flags.length ? "flagged" : ""},
        el("td", {text: b.board}), el("td", {text: `${b.white} - ${b.black}`}), el("td", {text: b.plies}),
        el("td", {class: "result", text: b.result}), el("td", {class: "flags", text: b.flags.join(", ")}),
        el("td", {}, select, " ", note), el("td", {}, save)));
    }
    const pairs = el("textarea", {id: "pairings", rows: 8, cols: 50,
      placeholder: _("one board a line: BOARD WHITE - BLACK (no black: a bye)")});
    pairs.value = data.pairings.map(p => `${p.board} ${p.white} - ${p.black}`).join("\n");
    const savePairs = el("button", {text: _("Save pairings"), id: "save-pairings"});
    savePairs.onclick = () => post("pairings", {event, round, pairings: pairs.value.split("\n").filter(l => l.trim())
      .map(l => { const m = l.trim().match(/^(\S+)\s+(.*?)\s*-\s*(.*)$/) || [];
                  return {board: m[1] || l, white: m[2] || "", black: m[3] || ""}; })});
    main.replaceChildren(table, el("h3", {text: _("Pairings")}), pairs, el("br"), savePairs,
                         el("p", {id: "arbiter-msg"}));
  });
}

async function showStandings(event) {
  ++generation;
  document.getElementById("title").textContent = _("{event} - standings", {event});
  const data = await (await fetch(`/api/standings/${esc(event)}`)).json();
  const tb = data.system === "swiss" ? "Buchholz" : "Sonneborn-Berger";
  const table = el("table", {id: "standings"}, el("tr", {}, ...["#", _("Player"), _("Points"), _("Games"), _("W"), _("D"), _("L"), tb]
    .map(h => el("th", {text: h}))));
  for (const s of data.standings) {
    table.append(el("tr", {}, ...[s.rank, s.name, s.points, s.games, s.wins, s.draws, s.losses, s.tiebreak]
      .map(v => el("td", {text: v}))));
  }
  main.replaceChildren(table);
}

async function route() {
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  if (parts.length === 2 && parts[1] === "standings") return showStandings(parts[0]);
  if (parts.length === 3 && parts[2] === "arbiter") return showArbiter(parts[0], parts[1]);
  if (parts.length === 3) return showGame(...parts);
  if (parts.length === 2) return showRound(...parts);
  const data = await (await fetch("/api/rounds")).json();
  if (data.rounds.length === 1) { location.hash = `#/${esc(data.rounds[0].event)}/${esc(data.rounds[0].round)}`; return; }
  main.replaceChildren(el("ul", {}, ...data.rounds.map(r => el("li", {}, el("a",
    {href: `#/${esc(r.event)}/${esc(r.round)}`, text: _n("{event} round {round} ({n} board)", "{event} round {round} ({n} boards)", r.boards, {event: r.event, round: r.round})})))));
  if (!data.rounds.length) { await new Promise(res => setTimeout(res, 2000)); if (!location.hash) route(); }
}
window.addEventListener("hashchange", route);
route();
