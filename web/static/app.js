// draughts-board page: renders the controller's state pushed over /ws, sends commands back.
"use strict";

const params = new URLSearchParams(location.search);
const TOKEN = params.get("token") || "";
const $ = (sel) => document.querySelector(sel);

const app = {
  ws: null, state: null, hello: null, flipped: false, nextId: 1,
  localOcc: null,          // optimistic physical occupancy (set of "r,c") until the next state
  edit: null,              // Map "r,c" -> {color, king} while editing a position by hand
  messages: [], engine: null, sync: null, missed: false,
  viewer: null,
};

function pick(obj, ...names) {
  if (!obj) return undefined;
  for (const n of names) if (obj[n] !== undefined && obj[n] !== null) return obj[n];
  return undefined;
}
const key = (r, c) => `${r},${c}`;
function rc(v) {   // [r,c] | {row,col} | "r,c" -> [r,c]
  if (v == null) return null;
  if (Array.isArray(v)) return [v[0], v[1]];
  if (typeof v === "object") return [pick(v, "row", "r"), pick(v, "col", "c")];
  return null;
}

// ---------------------------------------------------------------- connection
function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const url = `${proto}//${location.host}/ws${TOKEN ? "?token=" + encodeURIComponent(TOKEN) : ""}`;
  const ws = new WebSocket(url);
  app.ws = ws;
  ws.onopen = () => setConn(true);
  ws.onclose = () => { setConn(false); setTimeout(connect, 1000); };
  ws.onmessage = (ev) => { try { onMessage(JSON.parse(ev.data)); } catch (e) { console.error(e); } };
}
function setConn(up) {
  const el = $("#conn");
  el.textContent = up ? "live" : "disconnected";
  el.className = "pill " + (up ? "conn-up" : "conn-down");
  el.dataset.state = up ? "up" : "down";
}
function send(msg) {
  msg.id = app.nextId++;
  if (TOKEN) msg.token = TOKEN;
  if (!app.ws || app.ws.readyState !== WebSocket.OPEN) { addMessage("not connected", "error"); return; }
  app.ws.send(JSON.stringify(msg));
}
function command(kind, fields = {}) { send({ type: "command", command: Object.assign({ kind }, fields) }); }

function onMessage(msg) {
  switch (msg.type) {
    case "hello": app.hello = msg; fillVariants(msg.variants || []); if (msg.state) setState(msg.state); break;
    case "state": setState(msg.state); break;
    case "event": onEvent(msg.kind, msg.data || {}); break;
    case "error": addMessage(msg.message, msg.error === "forbidden" ? "error forbidden" : "error"); break;
    default: break;
  }
}

function norm(kind) { return String(kind).replace(/[_\s-]/g, "").toLowerCase(); }

function onEvent(kind, data) {
  switch (norm(kind)) {
    case "refusal": addMessage(`Refused: ${data.message}${data.rule ? ` (${data.rule})` : ""}`, "refusal"); break;
    case "outofsync": showSync(data); break;
    case "engine": case "engineprogress": app.engine = data; renderEngine(); break;
    case "gameover":   // patch the state too: a game ended by a command may not be followed by a state
      if (app.state) { app.state = Object.assign({}, app.state, { result: data, state: "game_over" }); render(); }
      else renderResult(data);
      break;
    case "message": {
      addMessage(data.text, data.level || "info");
      const offer = /^(white|black) offers a draw/.exec(data.text || "");
      if (offer) app.drawOfferBy = offer[1];
      if (/declines the draw/.test(data.text || "")) app.drawOfferBy = null;
      break;
    }
    case "move": case "movecommitted": app.sync = null; clearFix(); break;
    case "hint": case "hintframe":   // a new LED frame (not always followed by a state)
      if (app.state && Array.isArray(data.frame)) { app.state = Object.assign({}, app.state, { leds: data.frame }); render(); }
      break;
    default: break;
  }
}

function addMessage(text, cls = "info") {
  if (!text) return;
  const li = document.createElement("li");
  li.className = cls;
  li.textContent = text;
  const ul = $("#messages");
  ul.prepend(li);
  while (ul.children.length > 50) ul.lastChild.remove();
}

// ---------------------------------------------------------------- state rendering
function boardSize(s) {
  const size = pick(s, "size", "board_size");
  if (size && typeof size === "object") return Array.isArray(size) ? size : [size.rows, size.cols];
  return [pick(s, "rows", "height") || 8, pick(s, "cols", "width") || 8];
}
function setState(s) {
  if (!s) return;
  app.state = s;
  app.localOcc = null;
  render();
}

function piecesMap(list) {
  const m = new Map();
  for (const p of list || []) m.set(key(p.row, p.col), { color: p.color, king: !!p.king });
  return m;
}
function occupancySet(s) {
  const occ = pick(s, "occupancy", "physical_occupancy", "occupied");
  if (!occ) return null;
  return new Set(occ.map((v) => { const [r, c] = rc(v); return key(r, c); }));
}

function render() {
  const s = app.state;
  if (!s) return;
  const [rows, cols] = boardSize(s);
  const variant = pick(s, "variant", "variant_id") || "";
  $("#variant-name").textContent = pick(s, "variant_name") || variant;
  const turn = pick(s, "turn", "side_to_move");
  $("#turn").textContent = turn ? `${turn} to move` : "";
  $("#turn").dataset.turn = turn || "";
  $("#machine").textContent = (pick(s, "state", "machine") || "").replace(/_/g, " ");
  $("#machine").dataset.state = pick(s, "state", "machine") || "";
  const virtual = !!(app.hello && app.hello.virtual);   // a real board is moved by hand, not by clicks
  $("#virtual-note").hidden = !virtual;
  $("#btn-arrange").hidden = !virtual;
  if (!$("#ng-variant").dataset.userSet && variant) $("#ng-variant").value = variant;
  if (document.activeElement !== $("#teaching")) $("#teaching").checked = !!pick(s, "teaching");
  renderBoard($("#board"), rows, cols, s);
  renderMoves(s);
  renderClocks(s);
  renderResult(pick(s, "result", "outcome"));
  app.engineState = pick(s, "engine") || null;
  if (!(app.engineState && app.engineState.thinking)) app.engine = null;
  renderEngine();
  renderRating(pick(s, "rating"));
  if (!app._shownHistory && Array.isArray(s.messages)) {   // earlier messages, once; later ones come as events
    app._shownHistory = true;
    for (const m of s.messages) addMessage(typeof m === "string" ? m : m.text, (m && m.level) || "info");
  }
  $("#board-link").hidden = pick(s, "board_connected") !== false;   // a serial board's cable is out
  const claim = pick(s, "claimable_draw");   // a draw the rules leave to a claim (English repetition, ...)
  $("#btn-claim-draw").disabled = !claim;
  $("#btn-claim-draw").title = claim ? `claim the draw: ${claim}` : "the rules allow no draw claim now";
  $("#missed-capture").hidden = pick(s, "state") !== "person.missed_capture";
  const policy = (currentVariant(s) || {}).missed_capture_policy || "";
  for (const b of document.querySelectorAll("#missed-capture button"))
    b.hidden = !(b.dataset.choice === "retract" || policy.endsWith(b.dataset.choice));
  const st = pick(s, "state");
  app.sync = st === "out_of_sync" || st === "setup" ? diffSync(s) : null;
  markFix();
}

function currentVariant(s) {
  return ((app.hello && app.hello.variants) || []).find((x) => x.id === pick(s, "variant"));
}
function variantSquares(s) {   // [[row, col, name], ...] of the state's variant, in physical coordinates
  const v = currentVariant(s);
  if (!v || !v.squares) return undefined;
  if (pick(s, "orientation") !== "white-far") return v.squares;
  return v.squares.map(([r, c, n]) => [v.rows - 1 - r, v.cols - 1 - c, n]);
}
function playable(s, r, c, pieces) {
  const sq = pick(s, "squares", "playing_squares") || variantSquares(s);
  if (Array.isArray(sq)) {
    if (!app._play || app._playFor !== sq) {
      app._play = new Map(sq.map((v) => { const [a, b] = rc(v); return [key(a, b), v.name || v[2] || ""]; }));
      app._playFor = sq;
    }
    return app._play.has(key(r, c));
  }
  const parity = pick(s, "parity");
  if (parity !== undefined) return (r + c) % 2 === parity;
  for (const k of pieces.keys()) { const [a, b] = k.split(",").map(Number); return (r + c) % 2 === (a + b) % 2; }
  return (r + c) % 2 === 0;
}

function renderBoard(el, rows, cols, s, opts = {}) {
  el.style.setProperty("--rows", rows);
  el.style.setProperty("--cols", cols);
  el.classList.toggle("size10", Math.max(rows, cols) === 10);
  el.classList.toggle("size12", Math.max(rows, cols) >= 12);
  const pieces = opts.pieces ? piecesMap(opts.pieces) : (app.edit || piecesMap(pick(s, "pieces")));
  const occ = opts.pieces ? null : (app.edit ? null : (app.localOcc || occupancySet(s)));
  const leds = new Map();
  if (!opts.pieces) {
    const frame = pick(s, "leds", "led_frame", "frame") || [];
    for (const l of Array.isArray(frame) ? frame : (frame.lights || [])) leds.set(key(l.row, l.col), l);
  }
  const last = opts.pieces ? opts.last : pick(s, "last_move");
  const lastFrom = last ? rc(pick(last, "from", "from_rc")) : null;
  const lastTo = last ? rc(pick(last, "to", "to_rc")) : null;
  const caps = new Set(((last && pick(last, "captures", "captures_rc")) || []).map((v) => key(...rc(v))));
  el.textContent = "";
  const flip = app.flipped !== ["black", "white-far"].includes(pick(s, "orientation"));
  for (let i = 0; i < rows; i++) {
    const r = flip ? i : rows - 1 - i;
    for (let j = 0; j < cols; j++) {
      const c = flip ? cols - 1 - j : j;
      const k = key(r, c);
      const cell = document.createElement("div");
      cell.className = (r + c) % 2 === 0 ? "sq dark" : "sq light";
      cell.dataset.row = r; cell.dataset.col = c;
      if (playable(s, r, c, pieces)) cell.classList.add("play");
      if (!opts.pieces && app._play && app._play.get(k)) {
        const n = document.createElement("span"); n.className = "name"; n.textContent = app._play.get(k);
        cell.appendChild(n); cell.dataset.name = app._play.get(k);
      }
      if (lastFrom && key(...lastFrom) === k) cell.classList.add("last-from");
      if (lastTo && key(...lastTo) === k) cell.classList.add("last-to");
      if (caps.has(k) && !(occ && occ.has(k))) cell.classList.add("captured");
      const led = leds.get(k);
      if (led && led.pattern !== "off") {
        const d = document.createElement("div");
        const col = led.rgb || [255, 255, 255];
        d.className = `led ${led.pattern}`;
        d.style.background = `rgb(${col[0]},${col[1]},${col[2]})`;
        cell.appendChild(d);
        cell.dataset.led = led.pattern;
      }
      const p = pieces.get(k);
      const occupied = occ ? occ.has(k) : !!p;
      cell.dataset.occupied = occupied ? "1" : "0";
      if (p || occupied) {
        const d = document.createElement("div");
        d.className = "piece";
        if (p) { d.classList.add(p.color); if (p.king) d.classList.add("king"); } else d.classList.add("unknown");
        if (p && !occupied) d.classList.add("lifted");
        cell.appendChild(d);
        if (p) cell.dataset.piece = p.color + (p.king ? "-king" : "");
      }
      el.appendChild(cell);
    }
  }
}

function renderMoves(s) {
  const ol = $("#moves");
  const list = pick(s, "moves", "move_list", "history") || [];
  ol.textContent = "";
  const first = (currentVariant(s) || {}).first || "white";   // moves are numbered in pairs from the first mover
  let li = null;
  for (const m of list) {
    const by = typeof m === "string" ? null : m.by;
    if (!li || by === first || li.children.length >= 2) {
      li = document.createElement("li");
      ol.appendChild(li);
      if (by && by !== first) { const gap = document.createElement("span"); gap.className = "gap"; gap.textContent = "…"; li.appendChild(gap); }
    }
    const ply = document.createElement("span");
    ply.className = "ply";
    ply.textContent = typeof m === "string" ? m : pick(m, "text", "move");
    li.appendChild(ply);
  }
  ol.scrollTop = ol.scrollHeight;
}

function fmtClock(v) {
  if (v == null) return "";
  if (typeof v === "string") return v;
  const t = Math.max(0, Math.round(v));
  return `${Math.floor(t / 60)}:${String(t % 60).padStart(2, "0")}`;
}
function renderClocks(s) {
  const clocks = pick(s, "clocks") || {};
  for (const side of ["white", "black"]) {
    const el = $(`#clock-${side}`);
    const v = clocks[side];
    el.textContent = v == null ? "" : `${side}: ${fmtClock(typeof v === "object" ? pick(v, "remaining", "seconds") : v)}`;
    el.classList.toggle("running", (clocks.running || pick(s, "turn")) === side && v != null);
  }
}
function renderResult(r) {
  const el = $("#result");
  if (!r) { el.hidden = true; el.dataset.result = ""; return; }
  const res = typeof r === "string" ? r : pick(r, "result");
  const reason = typeof r === "string" ? "" : pick(r, "reason") || "";
  el.hidden = false;
  el.dataset.result = res;
  el.textContent = `Game over: ${res}${reason ? " — " + reason : ""}`;
}
function renderRating(r) {   // the person's Glicko-2 rating in this variant (games against the engine)
  const el = $("#rating");
  el.hidden = !r;
  el.textContent = r ? `${r.player}: ${r.variant} rating ${Math.round(r.rating)} (RD ${Math.round(r.rd)})` : "";
}
function renderEngine() {
  const st = app.engineState || {};
  const e = app.engine;
  const el = $("#engine");
  const lines = [];
  if (st.opponent && st.opponent !== "person") lines.push(`${st.opponent} level ${st.level ?? "?"}`);
  if (st.thinking) lines.push("thinking…");
  if (e && (e.depth != null || e.pv)) {
    const pv = Array.isArray(e.pv) ? e.pv.join(" ") : (e.pv || "");
    lines.push(`depth ${e.depth ?? "?"}  score ${e.score ?? "?"}`, pv);
  }
  if (st.move) lines.push(`plays ${st.move}`);
  el.textContent = lines.length ? lines.join("\n") : "idle";
  el.classList.toggle("muted", !st.thinking && !st.move);
  el.dataset.thinking = st.thinking ? "1" : "0";
}
function diffSync(s) {   // squares to empty / fill so the board matches the game
  const want = piecesMap(pick(s, "pieces"));
  const occ = occupancySet(s) || new Set();
  return { to_empty: [...occ].filter((k) => !want.has(k)).map((k) => k.split(",").map(Number)),
    to_fill: [...want.keys()].filter((k) => !occ.has(k)).map((k) => ({ rc: k.split(",").map(Number) })) };
}
function showSync(data) { app.sync = data; markFix(); }   // the controller's own message explains it
function clearFix() { for (const c of document.querySelectorAll("#board .fix")) c.classList.remove("fix"); }
function markFix() {
  clearFix();
  const d = app.sync;
  if (!d) return;
  for (const v of d.to_empty || []) markCell(rc(v));
  for (const v of d.to_fill || []) markCell(rc(pick(v, "rc", "square") || v));
}
function markCell(p) {
  if (!p) return;
  const el = document.querySelector(`#board .sq[data-row="${p[0]}"][data-col="${p[1]}"]`);
  if (el) el.classList.add("fix");
}

// ---------------------------------------------------------------- virtual board and editing
function onBoardClick(ev) {
  const cell = ev.target.closest(".sq");
  if (!cell || !app.state) return;
  const r = Number(cell.dataset.row), c = Number(cell.dataset.col);
  if (app.edit) { cycleEdit(r, c); return; }
  if (!(app.hello && app.hello.virtual)) return;
  if (!cell.classList.contains("play") && cell.dataset.occupied !== "1") return;
  const occ = app.localOcc || occupancySet(app.state) || new Set();
  const k = key(r, c);
  if (occ.has(k)) { command("lift", { row: r, col: c }); occ.delete(k); } else { command("place", { row: r, col: c }); occ.add(k); }
  app.localOcc = occ;
  cell.dataset.occupied = occ.has(k) ? "1" : "0";
  cell.dataset.pending = "1";
}

function arrange() {   // make the virtual board's occupancy equal the game's pieces
  const s = app.state;
  if (!s) return;
  const want = new Set([...piecesMap(pick(s, "pieces")).keys()]);
  const occ = occupancySet(s) || new Set();
  for (const k of occ) if (!want.has(k)) { const [r, c] = k.split(",").map(Number); command("lift", { row: r, col: c }); }
  for (const k of want) if (!occ.has(k)) { const [r, c] = k.split(",").map(Number); command("place", { row: r, col: c }); }
}

const EDIT_CYCLE = [null, { color: "white", king: false }, { color: "white", king: true },
  { color: "black", king: false }, { color: "black", king: true }];
function cycleEdit(r, c) {
  if (!playable(app.state, r, c, piecesMap(pick(app.state, "pieces")))) return;
  const k = key(r, c);
  const cur = app.edit.get(k);
  const idx = cur ? EDIT_CYCLE.findIndex((e) => e && e.color === cur.color && e.king === cur.king) : 0;
  const next = EDIT_CYCLE[(idx + 1) % EDIT_CYCLE.length];
  if (next) app.edit.set(k, next); else app.edit.delete(k);
  render();
}
function setEditMode(on) {
  app.edit = on ? piecesMap(pick(app.state, "pieces")) : null;
  render();
}

// ---------------------------------------------------------------- controls
function fillVariants(list) {
  const sel = $("#ng-variant");
  if (sel.options.length) return;
  for (const v of list) {
    const o = document.createElement("option");
    o.value = v.id; o.textContent = `${v.name || v.id} (${v.cols}×${v.rows})`;
    sel.appendChild(o);
  }
  if (app.state) sel.value = pick(app.state, "variant") || sel.value;
}

function bindControls() {
  $("#board").addEventListener("click", onBoardClick);
  $("#btn-takeback").onclick = () => {   // against the computer, take back to the person's own turn
    const s = app.state || {};
    const vsComputer = s.engine && s.engine.opponent !== "person" && s.human_color !== "both";
    const n = (s.moves || []).length;
    command("takeback", { plies: vsComputer && s.turn === s.human_color && n >= 2 ? 2 : 1 });
  };
  $("#btn-hint").onclick = () => command("hint");
  const side = () => { const hc = pick(app.state, "human_color"); const t = pick(app.state, "turn");
    return hc === "white" || hc === "black" ? hc : (t || "white"); };
  $("#btn-resign").onclick = () => command("resign", { color: side() });
  const other = (c) => (c === "white" ? "black" : "white");
  const answerer = () => (app.drawOfferBy ? other(app.drawOfferBy) : side());
  $("#btn-offer-draw").onclick = () => { app.drawOfferBy = side(); command("offer_draw", { color: side() }); };
  $("#btn-accept-draw").onclick = () => command("accept_draw", { color: answerer() });
  $("#btn-decline-draw").onclick = () => command("decline_draw", { color: answerer() });
  $("#btn-claim-draw").onclick = () => command("claim_draw", { color: pick(app.state, "turn") || side() });
  $("#teaching").onchange = (e) => command("set_teaching", { on: e.target.checked });
  for (const b of document.querySelectorAll("#missed-capture button"))
    b.onclick = () => command("missed_capture_choice", { choice: b.dataset.choice });
  $("#ng-variant").onchange = (e) => { e.target.dataset.userSet = "1"; };
  $("#new-game").onsubmit = (e) => {
    e.preventDefault();
    const level = parseInt($("#ng-level").value, 10);
    command("new_game", {
      variant: $("#ng-variant").value, human_color: $("#ng-color").value, opponent: $("#ng-opponent").value,
      level: Number.isFinite(level) ? level : 3, time_control: $("#ng-time").value.trim() || null,
      fen: $("#ng-fen").value.trim() || null,
    });
    $("#result").hidden = true;
  };
  $("#setup-fen").onsubmit = (e) => { e.preventDefault(); command("setup_position", { fen: $("#setup-fen-text").value.trim() }); };
  $("#edit-mode").onchange = (e) => setEditMode(e.target.checked);
  $("#btn-edit-clear").onclick = () => { if (!app.edit) { $("#edit-mode").checked = true; } app.edit = new Map(); render(); };
  $("#btn-edit-apply").onclick = () => {
    if (!app.edit) return;
    const pieces = [...app.edit].map(([k, p]) => { const [row, col] = k.split(",").map(Number); return { row, col, ...p }; });
    send({ type: "setup", pieces, turn: $("#edit-turn").value });
    $("#edit-mode").checked = false; setEditMode(false);
  };
  $("#btn-arrange").onclick = arrange;
  $("#btn-flip").onclick = () => { app.flipped = !app.flipped; render(); };
  for (const t of document.querySelectorAll("button.tab")) t.onclick = () => showTab(t.dataset.tab);
  $("#v-first").onclick = () => viewerGo(0);
  $("#v-prev").onclick = () => viewerGo((app.viewer?.ply ?? 0) - 1);
  $("#v-next").onclick = () => viewerGo((app.viewer?.ply ?? 0) + 1);
  $("#v-last").onclick = () => viewerGo(Infinity);
  document.addEventListener("keydown", (e) => {
    if ($("#library").hidden || !app.viewer) return;
    if (e.key === "ArrowLeft") viewerGo(app.viewer.ply - 1);
    if (e.key === "ArrowRight") viewerGo(app.viewer.ply + 1);
  });
  if (TOKEN) $("#download-all").href = "/api/games.pdn?token=" + encodeURIComponent(TOKEN);
}

// ---------------------------------------------------------------- library
function showTab(name) {
  for (const t of document.querySelectorAll("button.tab")) t.classList.toggle("active", t.dataset.tab === name);
  $("#live").hidden = name !== "live";
  $("#library").hidden = name !== "library";
  if (name === "library") loadGames();
}
const q = () => (TOKEN ? "?token=" + encodeURIComponent(TOKEN) : "");
async function loadGames() {
  const tbody = $("#games");
  const res = await fetch("/api/games" + q());
  const data = await res.json();
  tbody.textContent = "";
  const games = data.games || [];
  $("#games-empty").hidden = games.length > 0;
  for (const g of games) {
    const tr = document.createElement("tr");
    tr.className = "game"; tr.dataset.id = g.id;
    for (const v of [g.date, g.variant, g.white, g.black, g.result, Math.ceil(g.plies / 2)]) {
      const td = document.createElement("td"); td.textContent = v; tr.appendChild(td);
    }
    const td = document.createElement("td");
    const a = document.createElement("a");
    a.href = `/api/games/${encodeURIComponent(g.id)}.pdn${q()}`; a.textContent = "PDN"; a.download = "";
    a.className = "download"; a.onclick = (e) => e.stopPropagation();
    td.appendChild(a); tr.appendChild(td);
    tr.onclick = () => openGame(g.id);
    tbody.appendChild(tr);
  }
}
async function openGame(id) {
  const res = await fetch(`/api/games/${encodeURIComponent(id)}${q()}`);
  const data = await res.json();
  $("#viewer").hidden = false;
  const sm = data.summary || {};
  $("#viewer-title").textContent = `${sm.white || "?"} – ${sm.black || "?"}  ${sm.result || ""}  (${sm.variant || ""}, ${sm.date || ""})`;
  $("#viewer-error").hidden = !data.error;
  $("#viewer-error").textContent = data.error || "";
  if (!data.frames) { app.viewer = null; return; }
  app.viewer = { data, ply: 0 };
  const ol = $("#viewer-moves");
  ol.textContent = "";
  data.frames.slice(1).forEach((f, i) => {
    const li = document.createElement("li"); li.textContent = f.text; li.onclick = () => viewerGo(i + 1); ol.appendChild(li);
  });
  viewerGo(0);
}
function viewerGo(ply) {
  const v = app.viewer;
  if (!v) return;
  v.ply = Math.max(0, Math.min(ply, v.data.frames.length - 1));
  const f = v.data.frames[v.ply];
  renderBoard($("#viewer-board"), v.data.rows, v.data.cols, {}, { pieces: f.pieces, last: f.from ? { from: f.from, to: f.to } : null });
  $("#v-ply").textContent = `${v.ply} / ${v.data.frames.length - 1}`;
  $("#v-ply").dataset.ply = v.ply;
  [...$("#viewer-moves").children].forEach((li, i) => li.classList.toggle("current", i + 1 === v.ply));
}

bindControls();
connect();
