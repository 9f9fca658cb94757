// draughts-board page: renders the controller's state pushed over /ws and sends commands back. The live board
// is the virtual board (moves made on it by clicks or drags) or the mirror of a real one; the move list shows
// earlier positions on request while the game goes on.

import { BoardView, cellOf, fenPieces, key, moveBetween, physicalSquares } from "./board.js";
import { bindBroadcast, renderBroadcast } from "./broadcast.js";
import { initHealth, renderHealth } from "./health.js";
import { BoardInput } from "./input.js";
import { renderLegend } from "./legend.js";
import { bindLessons } from "./lessons.js";
import { openLibrary } from "./library.js";
import { moveRows, other, plyLabel, renderMoveTable, sideName } from "./moves.js";
import { openRules, ruleHref } from "./rules.js";
import { MoveSound } from "./sound.js";
import { openStats } from "./stats.js";
import { STATES, top } from "/states.js";
import { _, _n, chooseLanguage, languages, language, loadLanguage, translatePage } from "./i18n.js";

const TOKEN = new URLSearchParams(location.search).get("token") || "";
const $ = (sel) => document.querySelector(sel);
const tokenQuery = () => (TOKEN ? "?token=" + encodeURIComponent(TOKEN) : "");
await loadLanguage(tokenQuery());
translatePage();

const app = {
  ws: null, hello: null, state: null, nextId: 1,
  view: null,          // the ply whose position the board shows instead of the game's (null: the game now)
  flipped: false,
  localOcc: null,      // the virtual board's occupancy as clicked in hand mode, until the next state
  pending: null,       // a move played from the page, drawn made until the controller commits it
  animatedPly: 0,      // the ply already animated when the page played it
  edit: null,          // Map "r,c" -> {color, king} while a position is edited by hand
  engine: null, drawNote: "", shownHistory: false,
};
const board = new BoardView($("#board"));
const sound = new MoveSound();
const input = new BoardInput($("#board"), {
  mode: boardMode, paths: playPaths, play: playPath, raw: handClick, edit: cycleEdit,
  say: (text) => addMessage(text, "info"), changed: render,
});

// ---------------------------------------------------------------- connection
function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws${tokenQuery()}${TOKEN ? "&" : "?"}lang=${language()}`);
  app.ws = ws;
  ws.onopen = () => setConn(true);
  ws.onclose = () => { setConn(false); setTimeout(connect, 1000); };
  ws.onmessage = (ev) => { try { onMessage(JSON.parse(ev.data)); } catch (e) { console.error(e); } };
}
function setConn(up) {
  const el = $("#conn");
  el.textContent = up ? _("live") : _("disconnected");
  el.className = "pill " + (up ? "conn-up" : "conn-down");
  el.dataset.state = up ? "up" : "down";
}
function send(msg) {
  msg.id = app.nextId++;
  if (TOKEN) msg.token = TOKEN;
  if (!app.ws || app.ws.readyState !== WebSocket.OPEN) { addMessage(_("Not connected to the board."), "error"); return; }
  app.ws.send(JSON.stringify(msg));
}
function command(kind, fields = {}) { send({ type: "command", command: { kind, ...fields } }); }

function onMessage(msg) {
  switch (msg.type) {
    case "hello": app.hello = msg; fillVariants(msg.variants || []); if (msg.state) setState(msg.state); rulesTab.route(); break;
    case "state": setState(msg.state); break;
    case "event": onEvent(msg.kind, msg.data || {}); break;
    case "error":
      addMessage(msg.message, msg.error === "forbidden" ? "error forbidden" : "error");
      if (app.pending) { app.pending = null; render(); }
      break;
    case "reply":   // what became of a command (a refusal is also said as a message; a failure only here)
      if (msg.outcome === "failed") addMessage(_("{command} failed: {reason}", { command: msg.command, reason: msg.reason }), "error");
      if (msg.outcome !== "done" && app.pending) { app.pending = null; render(); }
      break;
    default: break;
  }
}

function onEvent(kind, data) {   // controller events (controller/events.py); a state follows every visible change
  switch (kind) {
    case "refusal":   // the rule that refused it links to its section on the Rules tab
      addMessage(data.rule ? _("Refused: {message} ({rule})", data) : _("Refused: {message}", data), "refusal", ruleHref(data.section));
      break;
    case "engine": app.engine = data; renderEngine(); break;
    case "asked":   // a tap on the board asked what is on a square, or for the position
      announce(data.text);
      break;
    case "move":   // the live region says every move, for a screen reader
      announce(_("{side} played {move}", { side: sideName(data.by), move: data.text }));
      break;
    case "game_over":   // a game ended by a command may not be followed by a state
      if (app.state) setState({ ...app.state, result: data, state: STATES.GAME_OVER });
      break;
    case "message":
      addMessage(data.text, data.level || "info");
      if (data.topic === "draw") {
        app.drawNote = data.text;
        renderDraw();
      }
      break;
    case "hint":   // a new LED frame, not always followed by a state
      if (app.state && Array.isArray(data.frame)) { app.state = { ...app.state, leds: data.frame }; render(); }
      break;
    default: break;
  }
}

function addMessage(text, cls = "info", rule = null) {
  if (!text) return;
  const li = document.createElement("li");
  li.className = cls;
  li.textContent = text;
  if (rule) {
    const a = li.appendChild(document.createElement("a"));
    a.href = rule;
    a.className = "rule-link";
    a.textContent = " " + _("see the rule");
    a.onclick = (e) => { e.preventDefault(); rulesTab.open(rule); };
  }
  const ul = $("#messages");
  ul.prepend(li);
  while (ul.children.length > 50) ul.lastChild.remove();
}

// ---------------------------------------------------------------- state
function setState(s) {
  if (!s) return;
  const prev = app.state;
  app.state = s;
  app.localOcc = null;
  const n = s.moves.length;
  const before = prev && prev.variant === s.variant ? prev.moves.length : -1;
  if (before !== n || (prev && prev.fen !== s.fen)) { input.clear(); if (n !== before) app.drawNote = ""; }
  if (app.view !== null && (app.view > n || !prev || prev.start_fen !== s.start_fen)) app.view = null;
  settlePending(s);
  render();
  lessons.render(s);
  if (before >= 0 && n === before + 1 && s.last_move) {   // one new ply: its sound and (unless played here) its slide
    const last = s.last_move;
    sound.play(last.captures.length > 0);
    if (app.view === null && app.animatedPly !== n) {
      const was = piecesMap(prev.pieces);
      board.animate(last.from, last.to, last.captures.map((c) => ({ cell: c, piece: was.get(key(...c)) })));
    }
  }
}

function settlePending(s) {   // a move played here is drawn made until the controller commits or drops it
  const p = app.pending;
  if (!p) return;
  const moving = [STATES.PERSON_LIFTED, STATES.PERSON_CAPTURING, STATES.PERSON_SETTLING].includes(s.state);
  if (moving) p.started = true;
  const dropped = !moving && (p.started || ![STATES.PERSON_IDLE, STATES.COMPUTER_SHOWING].includes(s.state));
  if (s.moves.length !== p.ply || dropped || Date.now() - p.at > 10_000) app.pending = null;
}

const piecesMap = (list) => new Map((list || []).map((p) => [key(p.row, p.col), { color: p.color, king: !!p.king }]));
const occupancySet = (s) => (s.occupancy ? new Set(s.occupancy.map(([r, c]) => key(r, c))) : null);
const variantOf = (s) => ((app.hello && app.hello.variants) || []).find((v) => v.id === s.variant);
const firstMover = (s) => s.first || (variantOf(s) || {}).first || "white";
const isVirtual = () => !!(app.hello && app.hello.virtual);
const humanSide = (s, color) => s.engine?.opponent === "person" || s.human_color === "both" || s.human_color === color;
const fenAt = (s, ply) => (ply === 0 ? s.start_fen : s.moves[ply - 1].fen);

// ---------------------------------------------------------------- rendering
function render() {
  const s = app.state;
  if (!s) return;
  $("#variant-name").textContent = s.variant_name || s.variant;
  $("#turn").textContent = s.turn ? _("{side} to move", { side: sideName(s.turn) }) : "";
  $("#turn").dataset.turn = s.turn || "";
  $("#machine").textContent = (app.hello && app.hello.state_labels || {})[s.state] || s.state || "";   // "person: lifted"
  $("#machine").dataset.state = s.state || "";
  $("#virtual-note").hidden = !isVirtual();
  $("#btn-arrange").hidden = !isVirtual();
  $("#type-move-entry").hidden = !isVirtual();   // a real board's moves are made with its pieces
  if (!$("#ng-variant").dataset.userSet && s.variant) { $("#ng-variant").value = s.variant; renderOptions(); }
  presetForm(s);
  if (document.activeElement !== $("#teaching")) $("#teaching").checked = !!s.teaching;
  renderBroadcast(s.broadcast);
  $("#auto-computer-label").hidden = s.auto_computer === null || s.auto_computer === undefined;
  if (document.activeElement !== $("#auto-computer")) $("#auto-computer").checked = !!s.auto_computer;
  $("#alert").hidden = !s.alert;           // the refusal or warning standing now, gone once resolved
  $("#alert").textContent = s.alert ? s.alert.text : "";
  $("#alert").dataset.level = s.alert ? s.alert.level : "";
  board.render(app.view === null ? liveModel(s) : historyModel(s, app.view));
  renderMoves(s);
  renderClocks(s);
  renderResult(s.result);
  if (!(s.engine && s.engine.thinking)) app.engine = null;
  renderEngine();
  renderRating(s.rating);
  if (!app.shownHistory && Array.isArray(s.messages)) {   // earlier messages, once; later ones come as events
    app.shownHistory = true;
    for (const m of s.messages) addMessage(m.text, m.level || "info", ruleHref(m.section));
  }
  $("#board-link").hidden = s.board_connected !== false;   // a serial board's cable is out
  $("#btn-claim-draw").disabled = !s.claimable_draw;
  $("#btn-claim-draw").title = s.claimable_draw ? _("claim the draw: {why}", { why: s.claimable_draw }) : _("the rules allow no draw claim now");
  $("#missed-capture").hidden = s.state !== STATES.PERSON_MISSED_CAPTURE;
  $("#start-question").hidden = !s.question;   // the start position set up early: new game or takeback?
  if (s.question) $("#btn-start-takeback").textContent = _n("Take back {n} ply", "Take back {n} plies", s.question.plies);
  const policy = (variantOf(s) || {}).missed_capture_policy || "";
  for (const b of document.querySelectorAll("#missed-capture button"))
    b.hidden = !(b.dataset.choice === "retract" || policy.endsWith(b.dataset.choice));
  const playing = !s.result && s.state !== STATES.SETUP;
  $("#btn-resign").disabled = !playing;
  $("#btn-hint").disabled = !!s.result;   // a game over has no move to hint nor to take back
  $("#btn-takeback").disabled = !!s.result || !s.moves.length;
  if (!playing) $("#resign-confirm").hidden = true;
  renderDraw();
  renderHealth(s);   // health.js: the board's link, faults, masked squares, moves to confirm, board test
}

/** The new-game form shows the game's own settings (a resumed level-5 game: level 5) until the person edits
 a field. */
function presetForm(s) {
  const game = { "#ng-level": s.engine && s.engine.level, "#ng-color": s.human_color };
  for (const [sel, value] of Object.entries(game)) {
    const field = $(sel);
    if (value == null || field.dataset.userSet || document.activeElement === field) continue;
    if (field.tagName !== "SELECT" || [...field.options].some((o) => o.value === String(value)))
      field.value = String(value);
  }
}

function boardShape(s) {
  const squares = physicalSquares(variantOf(s), s.orientation);
  const turned = s.orientation === "white-far";
  const lines = ((variantOf(s) || {}).lines || []).map(([r1, c1, r2, c2]) => (turned
    ? [s.rows - 1 - r1, s.cols - 1 - c1, s.rows - 1 - r2, s.cols - 1 - c2] : [r1, c1, r2, c2]));
  return { rows: s.rows, cols: s.cols, flip: app.flipped !== turned, lines,
    squares, names: new Map(squares.map(([r, c, n]) => [key(r, c), String(n)])) };
}

function liveModel(s) {
  let pieces = app.edit || piecesMap(s.pieces);
  let occ = app.edit ? null : app.localOcc || occupancySet(s);
  let last = s.last_move;
  const p = app.pending;
  if (p) {
    pieces = moved(pieces, p.from, p.to, p.captures);
    occ = null;
    last = p;
  }
  const sel = input.selection;
  if (sel && sel.landings.length) { pieces = moved(pieces, cellOf(sel.origin), cellOf(input.standing()), []); occ = null; }
  return { ...boardShape(s), pieces, occ, last, view: null,
    leds: app.edit ? null : new Map((s.leds || []).map((l) => [key(l.row, l.col), l])),
    selected: input.standing(), dests: input.dests(), marks: fixMarks(s) };
}

function historyModel(s, ply) {
  const shape = boardShape(s);
  const pieces = fenPieces(fenAt(s, ply), shape.squares);
  const last = ply > 0 ? moveBetween(fenPieces(fenAt(s, ply - 1), shape.squares), pieces, s.moves[ply - 1].by) : null;
  return { ...shape, pieces, occ: null, leds: null, last, view: ply, selected: null, dests: null, marks: null };
}

function moved(pieces, from, to, captures) {
  const out = new Map(pieces);
  const piece = out.get(key(...from));
  out.delete(key(...from));
  for (const c of captures) out.delete(key(...c));
  const removal = key(...from) === key(...to) && captures.some((c) => key(...c) === key(...from));
  if (piece && !removal) out.set(key(...to), piece);   // a removal (Konane's opening) puts nothing down
  return out;
}

function fixMarks(s) {   // squares to empty and to fill so the board matches the game (the controller says how)
  if (![STATES.OUT_OF_SYNC, STATES.SETUP].includes(s.state) || app.edit) return null;
  const want = piecesMap(s.pieces);
  const occ = occupancySet(s) || new Set();
  return new Set([...[...occ].filter((k) => !want.has(k)), ...[...want.keys()].filter((k) => !occ.has(k))]);
}

function renderMoves(s) {
  const rows = moveRows(s.moves, firstMover(s));
  renderMoveTable($("#moves"), rows, { first: firstMover(s), current: app.view ?? s.moves.length,
    follow: app.view === null, onPick: viewPly });
  $("#history-bar").hidden = app.view === null;
  if (app.view !== null) {
    const ahead = s.moves.length - app.view;
    $("#history-text").textContent = (app.view === 0 ? _("Start position") : _("After {move}", { move: plyLabel(rows, app.view) }))
      + " — " + _n("the game is {n} ply further.", "the game is {n} plies further.", ahead);
  }
  const n = s.moves.length, at = app.view ?? n;
  $("#h-first").disabled = $("#h-prev").disabled = at === 0;
  $("#h-next").disabled = $("#h-last").disabled = app.view === null;
}

function viewPly(ply) {   // show the position after ``ply`` (the game's own when ply is the last one)
  const s = app.state;
  if (!s) return;
  const n = s.moves.length;
  app.view = ply >= n ? null : Math.max(0, ply);
  input.clear();
  render();
}

function fmtClock(v) {
  const t = Math.max(0, Math.round(v));
  return `${Math.floor(t / 60)}:${String(t % 60).padStart(2, "0")}`;
}
function renderClocks(s) {
  const clocks = s.clocks || {};
  for (const side of ["white", "black"]) {
    const el = $(`#clock-${side}`);
    const v = clocks[side];
    el.textContent = v == null ? "" : `${sideName(side)}: ${fmtClock(v)}`;
    el.classList.toggle("running", (clocks.running || s.turn) === side && v != null);
  }
}
function renderResult(r) {
  const el = $("#result");
  el.hidden = !r;
  el.dataset.result = r ? r.result : "";
  el.textContent = r ? _("Game over: {result}", r) + (r.reason ? " — " + r.reason : "") : "";
}
function renderRating(r) {   // the person's Glicko-2 rating in this variant (games against the engine)
  const el = $("#rating");
  el.hidden = !r;
  el.textContent = r ? _("{player}: {variant} rating {rating} (RD {rd})", { player: r.player, variant: r.variant, rating: Math.round(r.rating), rd: Math.round(r.rd) }) : "";
}
function renderEngine() {
  const st = (app.state && app.state.engine) || {};
  const e = app.engine;
  const lines = [];
  if (st.opponent && st.opponent !== "person") lines.push(_("{opponent} level {level}", { opponent: st.opponent, level: st.level ?? "?" }));
  if (st.thinking) lines.push(_("thinking…"));
  if (e && (e.depth != null || e.pv)) {
    const pv = Array.isArray(e.pv) ? e.pv.join(" ") : (e.pv || "");
    lines.push(_("depth {depth}  score {score}", { depth: e.depth ?? "?", score: e.score ?? "?" }), pv);
  }
  if (st.move) lines.push(_("plays {move}", { move: st.move }));
  const el = $("#engine");
  el.textContent = lines.length ? lines.join("\n") : _("idle");
  el.classList.toggle("muted", !st.thinking && !st.move);
  el.dataset.thinking = st.thinking ? "1" : "0";
}

function renderDraw() {   // Accept/Decline only for an offer this page may answer; the answer when it comes
  const s = app.state;
  if (!s) return;
  const offer = s.result ? null : s.draw_offer;
  const answerer = offer ? other(offer) : null;
  const canAnswer = !!offer && humanSide(s, answerer);
  $("#btn-accept-draw").hidden = $("#btn-decline-draw").hidden = !canAnswer;
  $("#btn-offer-draw").disabled = !!offer || !!s.result || s.state === STATES.SETUP;
  $("#draw-status").textContent = offer
    ? (canAnswer ? _("{side} offers a draw: {other}, accept or decline?", { side: sideName(offer), other: sideName(answerer) })
      : _("{side} offers a draw — waiting for the answer.", { side: sideName(offer) }))
    : app.drawNote;
}

// ---------------------------------------------------------------- the virtual board
function boardMode() {
  if (!app.state) return "none";
  if (app.view !== null) return "view";
  if (app.edit) return "edit";
  if (!isVirtual()) return "none";
  if ($("#hand-mode").checked) return "hand";
  if (app.pending) return "play";
  const s = app.state;
  return s.state === STATES.PERSON_IDLE || top(s.state) === STATES.COMPUTER ? "play" : "hand";
}

function playPaths() {   // the moves the page may make now: the person's, or the computer's chosen one
  const s = app.state;
  if (!s || app.pending) return [];
  const paths = s.legal_paths || [];
  if (s.state === STATES.PERSON_IDLE && humanSide(s, s.turn)) return paths;
  if (s.state === STATES.COMPUTER_SHOWING && s.engine && s.engine.move) return paths.filter((p) => p.text === s.engine.move);
  return [];
}

function playPath(path, dragged) {   // the hand's actions for one legal move: lift, put down, take off
  const s = app.state;
  const from = path.path[0], to = path.path[path.path.length - 1];
  const was = piecesMap(s.pieces);
  app.pending = { ply: s.moves.length, from, to, captures: path.captures, at: Date.now(), started: false };
  command("lift", { row: from[0], col: from[1] });
  const removal = key(...from) === key(...to) && path.captures.some((c) => key(...c) === key(...from));
  if (removal) { render(); return; }   // Konane's opening: the piece is taken off, nothing lands
  command("place", { row: to[0], col: to[1] });
  for (const [r, c] of path.captures) command("lift", { row: r, col: c });
  render();
  app.animatedPly = s.moves.length + 1;
  if (!dragged) board.animate(from, to, path.captures.map((c) => ({ cell: c, piece: was.get(key(...c)) })));
}

function handClick(r, c, cell) {   // one piece lifted or put down, as a hand on a real board
  const k = key(r, c);
  if (!cell.classList.contains("play") && cell.dataset.occupied !== "1") return;
  const occ = app.localOcc || occupancySet(app.state) || new Set();
  if (occ.has(k)) { command("lift", { row: r, col: c }); occ.delete(k); } else { command("place", { row: r, col: c }); occ.add(k); }
  app.localOcc = occ;
  render();
  cell.dataset.pending = "1";
}

function arrange() {   // make the virtual board's occupancy equal the game's pieces
  const s = app.state;
  if (!s) return;
  const want = piecesMap(s.pieces);
  const occ = occupancySet(s) || new Set();
  for (const k of occ) if (!want.has(k)) { const [row, col] = cellOf(k); command("lift", { row, col }); }
  for (const k of want.keys()) if (!occ.has(k)) { const [row, col] = cellOf(k); command("place", { row, col }); }
}

const EDIT_CYCLE = [null, { color: "white", king: false }, { color: "white", king: true },
  { color: "black", king: false }, { color: "black", king: true }];
function cycleEdit(r, c) {
  const k = key(r, c);
  if (!boardShape(app.state).names.has(k)) return;
  const cur = app.edit.get(k);
  const idx = cur ? EDIT_CYCLE.findIndex((e) => e && e.color === cur.color && e.king === cur.king) : 0;
  const next = EDIT_CYCLE[(idx + 1) % EDIT_CYCLE.length];
  if (next) app.edit.set(k, next); else app.edit.delete(k);
  render();
}
function setEditMode(on) {
  app.edit = on ? piecesMap(app.state.pieces) : null;
  app.view = null;
  input.clear();
  render();
}

// ---------------------------------------------------------------- copying
async function copyText(text, what) {
  let ok = false;
  try {
    if (navigator.clipboard && window.isSecureContext) { await navigator.clipboard.writeText(text); ok = true; }
  } catch { ok = false; }
  if (!ok) {   // plain http to a Pi is not a secure context: the older way still copies
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    try { ok = document.execCommand("copy"); } catch { ok = false; }
    area.remove();
  }
  const note = $("#copy-note");
  note.textContent = ok ? _("{what} copied", { what }) : `${what}: ${text}`;
  clearTimeout(copyText.timer);
  if (ok) copyText.timer = setTimeout(() => { note.textContent = ""; }, 3000);
}
async function copyPdn() {
  const res = await fetch("/api/current.pdn" + tokenQuery());
  if (!res.ok) { addMessage(_("Copy PDN: the server answered {status}.", { status: res.status }), "error"); return; }
  copyText(await res.text(), "PDN");
}

// ---------------------------------------------------------------- controls
function fillVariants(list) {   // grouped by board size, so the names need no size and fit the field
  const sel = $("#ng-variant");
  if (sel.options.length) return;
  const groups = new Map();
  for (const v of list) {
    const size = `${v.cols}×${v.rows}`;
    if (!groups.has(size)) { const g = document.createElement("optgroup"); g.label = _("{size} board", { size }); groups.set(size, g); }
    const o = document.createElement("option");
    o.value = v.id;
    o.textContent = v.name || v.id;
    groups.get(size).appendChild(o);
  }
  for (const size of [...groups.keys()].sort((a, b) => parseInt(a) - parseInt(b))) sel.appendChild(groups.get(size));
  if (app.state) sel.value = app.state.variant || sel.value;
  renderOptions();
}

// The new-game form's variant options: the chosen variant's own, each preset to its default (or, for the
// variant of the game in progress, to the value that game is played with).
function renderOptions() {
  const box = $("#ng-options");
  const id = $("#ng-variant").value;
  const variant = ((app.hello && app.hello.variants) || []).find((v) => v.id === id);
  if (!variant) { box.hidden = true; return; }   // the variant list has not come yet
  if (box.dataset.variant === id) return;
  box.dataset.variant = id;
  box.textContent = "";
  const current = app.state && app.state.variant === id ? app.state.variant_options || {} : {};
  const options = (variant && variant.options) || [];
  box.hidden = !options.length;
  if (!options.length) return;
  const legend = document.createElement("legend");
  legend.textContent = _("{variant}: rules", { variant: variant.name });
  box.appendChild(legend);
  for (const o of options) {
    const value = o.name in current ? current[o.name] : o.default;
    const label = document.createElement(o.kind === "list" ? "div" : "label");
    label.textContent = `${o.label} `;
    const input = optionInput(o, value);
    if (o.kind === "bool") label.className = "inline";
    if (o.kind === "list") label.className = "option-list";
    input.dataset.option = o.name;
    input.dataset.kind = o.kind;
    input.id = `ng-option-${o.name}`;
    label.appendChild(input);
    box.appendChild(label);
  }
}

/** The field of one option, offering only what it allows, in the server's words (o.labels): a checkbox,
 a select, a number, or for a list one checkbox a value (the variant's own order first). */
function optionInput(o, value) {
  const words = o.labels || {};
  let input;
  if (o.kind === "bool") {
    input = document.createElement("input");
    input.type = "checkbox";
    input.checked = !!value;
  } else if (o.kind === "color" || o.kind === "choice") {
    input = document.createElement("select");
    for (const c of Object.keys(words)) {
      const opt = document.createElement("option");
      opt.value = c;
      opt.textContent = words[c];
      input.appendChild(opt);
    }
    input.value = value;
  } else if (o.kind === "list") {
    input = document.createElement("span");
    input.className = "choices";
    const chosen = Array.isArray(value) ? value : [];
    for (const c of [...chosen, ...o.choices.filter((c) => !chosen.includes(c))]) {
      const item = input.appendChild(document.createElement("label"));
      item.className = "inline";
      const box = item.appendChild(document.createElement("input"));
      box.type = "checkbox";
      box.dataset.choice = c;
      box.checked = chosen.includes(c);
      item.appendChild(document.createTextNode(words[c] || c));
    }
  } else {
    input = document.createElement("input");
    input.type = "number";
    input.min = o.minimum ?? 1;
    if (o.maximum !== undefined) input.max = o.maximum;
    if (o.kind === "count_or_none") input.placeholder = _("no limit");
    input.value = value === null || value === undefined ? "" : String(value);
  }
  return input;
}

function optionValues() {   // the form's options as the command sends them (JSON values)
  const out = {};
  for (const input of document.querySelectorAll("#ng-options [data-option]")) {
    const kind = input.dataset.kind, text = (input.value || "").trim();
    out[input.dataset.option] = kind === "bool" ? input.checked
      : kind === "int" ? (/^\d+$/.test(text) ? Number(text) : text)
      : kind === "count_or_none" ? (text === "" ? null : /^\d+$/.test(text) ? Number(text) : text)
      : kind === "list" ? [...input.querySelectorAll("input[data-choice]:checked")].map((b) => b.dataset.choice)
      : input.value;
  }
  return out;
}

function side() {   // the side the person plays (with two people: the side to move)
  const s = app.state || {};
  return s.human_color === "white" || s.human_color === "black" ? s.human_color : s.turn || "white";
}

function bindControls() {
  $("#btn-takeback").onclick = () => {   // against the computer, take back to the person's own turn
    const s = app.state || {};
    const vsComputer = s.engine && s.engine.opponent !== "person" && s.human_color !== "both";
    const n = (s.moves || []).length;
    command("takeback", { plies: vsComputer && s.turn === s.human_color && n >= 2 ? 2 : 1 });
  };
  $("#btn-hint").onclick = () => command("hint");
  $("#btn-resign").onclick = () => {
    $("#resign-question").textContent = _("Resign the game for {side}?", { side: sideName(side()) });
    $("#resign-confirm").hidden = false;
  };
  $("#btn-resign-no").onclick = () => { $("#resign-confirm").hidden = true; };
  $("#btn-resign-yes").onclick = () => { $("#resign-confirm").hidden = true; command("resign", { color: side() }); };
  const answerer = () => other(app.state.draw_offer || other(side()));
  $("#btn-offer-draw").onclick = () => { app.drawNote = ""; command("offer_draw", { color: side() }); };
  $("#btn-accept-draw").onclick = () => command("accept_draw", { color: answerer() });
  $("#btn-decline-draw").onclick = () => command("decline_draw", { color: answerer() });
  $("#btn-claim-draw").onclick = () => command("claim_draw", { color: (app.state && app.state.turn) || side() });
  $("#teaching").onchange = (e) => command("set_teaching", { on: e.target.checked });
  $("#auto-computer").onchange = (e) => command("set_auto_computer", { on: e.target.checked });
  bindBroadcast(command);
  for (const b of document.querySelectorAll("#missed-capture button"))
    b.onclick = () => command("missed_capture_choice", { choice: b.dataset.choice });
  for (const b of document.querySelectorAll("#start-question button"))
    b.onclick = () => command("start_position_choice", { choice: b.dataset.choice });
  $("#ng-variant").onchange = (e) => { e.target.dataset.userSet = "1"; renderOptions(); };
  for (const sel of ["#ng-level", "#ng-color"]) $(sel).oninput = (e) => { e.target.dataset.userSet = "1"; };
  $("#new-game").onsubmit = (e) => {
    e.preventDefault();
    for (const sel of ["#ng-level", "#ng-color"]) delete $(sel).dataset.userSet;   // the new game's, from now
    const level = parseInt($("#ng-level").value, 10);
    command("new_game", {
      variant: $("#ng-variant").value, human_color: $("#ng-color").value, opponent: $("#ng-opponent").value,
      level: Number.isFinite(level) ? level : 3, time_control: $("#ng-time").value.trim() || null,
      fen: $("#ng-fen").value.trim() || null, variant_options: optionValues(),
    });
  };
  $("#setup-fen").onsubmit = (e) => { e.preventDefault(); command("setup_position", { fen: $("#setup-fen-text").value.trim() }); };
  $("#edit-mode").onchange = (e) => setEditMode(e.target.checked);
  $("#btn-edit-clear").onclick = () => { $("#edit-mode").checked = true; app.edit = new Map(); app.view = null; render(); };
  $("#btn-edit-apply").onclick = () => {
    if (!app.edit) return;
    const pieces = [...app.edit].map(([k, p]) => { const [row, col] = cellOf(k); return { row, col, ...p }; });
    send({ type: "setup", pieces, turn: $("#edit-turn").value });
    $("#edit-mode").checked = false;
    setEditMode(false);
  };
  $("#hand-mode").onchange = () => { input.clear(); render(); };
  $("#btn-arrange").onclick = arrange;
  $("#btn-flip").onclick = () => { app.flipped = !app.flipped; render(); };
  $("#btn-copy-fen").onclick = () => app.state && copyText(app.view === null ? app.state.fen : fenAt(app.state, app.view), "FEN");
  $("#btn-copy-pdn").onclick = copyPdn;
  $("#sound").checked = sound.on;
  $("#sound").onchange = (e) => sound.set(e.target.checked);
  document.addEventListener("pointerdown", () => sound.wake());
  $("#btn-live").onclick = () => viewPly(Infinity);
  const at = () => app.view ?? (app.state ? app.state.moves.length : 0);
  $("#h-first").onclick = () => viewPly(0);
  $("#h-prev").onclick = () => viewPly(at() - 1);
  $("#h-next").onclick = () => viewPly(at() + 1);
  $("#h-last").onclick = () => viewPly(Infinity);
  for (const t of document.querySelectorAll("button.tab")) t.onclick = () => showTab(t.dataset.tab);
  document.addEventListener("keydown", (e) => {   // ← → Home End step through the game, as on lidraughts
    if ($("#live").hidden || !app.state || e.target.closest("input, select, textarea")) return;
    const to = { ArrowLeft: at() - 1, ArrowRight: at() + 1, Home: 0, End: Infinity }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    viewPly(to);
  });
}

const library = openLibrary({ variants: () => (app.hello && app.hello.variants) || [], query: tokenQuery });
const lessons = bindLessons({ command, query: tokenQuery, showLive: () => showTab("live"),
  say: (text) => addMessage(text, "error") });
const stats = openStats({ query: tokenQuery });
const rulesTab = openRules({ variants: () => (app.hello && app.hello.variants) || [],
  current: () => app.state && app.state.variant, query: tokenQuery, showTab: (name) => showTab(name, false) });

function showTab(name, clicked = true) {
  for (const t of document.querySelectorAll("button.tab")) t.classList.toggle("active", t.dataset.tab === name);
  for (const tab of ["live", "library", "stats", "rules"]) $(`#${tab}`).hidden = name !== tab;
  if (name === "library") library.load();
  if (name === "stats") stats.load();
  if (clicked && name === "rules") rulesTab.show();
  if (name !== "rules" && location.hash) history.replaceState(null, "", location.pathname + location.search);
}

// ---------------------------------------------------------------- screen reader and keyboard
function announce(text) {   // the live region, and the board's voice here when asked for (espeak-ng on the board)
  $("#announce").textContent = text;
  if (!$("#speak").checked || !text) return;
  const q = `text=${encodeURIComponent(text)}&lang=${language()}` + (TOKEN ? `&token=${encodeURIComponent(TOKEN)}` : "");
  if (app.voice) app.voice.pause();
  app.voice = new Audio(`/api/speech.wav?${q}`);
  app.voice.play().catch(() => {});   // a browser that allows no sound before a click says nothing
}

async function readPosition(square = "") {   // the board's own words (controller/announcer.py position_of,
  // or piece_words for one square: what is on it and where it may go)
  const ask = square ? `&square=${encodeURIComponent(square)}` : "";
  const res = await fetch(`/api/position${tokenQuery()}${TOKEN ? "&" : "?"}lang=${language()}${ask}`);
  announce(await res.text());
}

function bindTyping() {   // a move typed as text is played as the page plays a clicked one
  $("#btn-read-position").onclick = () => readPosition();
  $("#speak").checked = localStorage.getItem("dboard-speak") === "1";
  $("#speak").onchange = (e) => localStorage.setItem("dboard-speak", e.target.checked ? "1" : "0");
  $("#type-move").onsubmit = (e) => {
    e.preventDefault();
    const text = $("#type-move-text").value.trim().replace(/\s+/g, "");
    if (/^[a-z]?\d+$/i.test(text)) {   // a square alone asks what is on it and where it may go
      readPosition(text);
      return;
    }
    const paths = playPaths();
    const path = paths.find((p) => p.text === text || p.text.replace(/[x:]/g, "-") === text.replace(/[x:]/g, "-"));
    if (!path) {
      const legal = paths.map((p) => p.text).join(", ");
      addMessage(legal ? _("{move} is not a legal move now; legal moves: {moves}", { move: text || "-", moves: legal })
        : _("No move can be typed now."), "error");
      announce($("#messages li").textContent);
      return;
    }
    $("#type-move-text").value = "";
    playPath(path);
  };
}

function bindLanguage() {   // the languages in their own names; the choice is remembered by this browser
  const sel = $("#language");
  for (const { code, name } of languages()) {
    const o = sel.appendChild(document.createElement("option"));
    o.value = code;
    o.textContent = name;
    o.lang = code;
  }
  sel.value = language();
  sel.onchange = () => chooseLanguage(sel.value);
}

bindLanguage();
bindTyping();
bindControls();
renderLegend();
initHealth(command, () => app.state);
connect();
