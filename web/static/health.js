// Board health on the page: the board's link, sensors and wires found at fault (Mask), masked squares
// (Unmask), moves the board cannot show (Confirm), and the board's self-test. Rendered from the state's
// board_link, board_health and board_test: app.js calls initHealth once and renderHealth after each render.

import { _, _n } from "./i18n.js";

const $ = (sel) => document.querySelector(sel);
let command = () => {};
let currentState = () => null;

function button(text, onClick, cls = "") {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  if (cls) b.className = cls;
  b.addEventListener("click", onClick);
  return b;
}

function item(text, ...buttons) {
  const li = document.createElement("li");
  const span = document.createElement("span");
  span.textContent = text;
  li.append(span, ...buttons);
  return li;
}

function send(kind, fields) { command(kind, fields); }

function renderLink(link, connected) {
  const pill = $("#board-link");
  if (link && link.state === "not responding") pill.textContent = _("board not responding");
  else pill.textContent = _("board disconnected");
  pill.title = link && link.reason ? link.reason : _("moves made meanwhile are read when it is back");
  const line = $("#health-link");
  line.hidden = !link || connected;
  line.textContent = link ? (link.reason ? _("The board on {port} is {state}: {reason}.", link) : _("The board on {port} is {state}.", link)) : "";
}

function renderFaults(health) {
  const list = $("#health-faults");
  list.replaceChildren();
  const masked = new Set((health.masked || []).map((c) => c.join(",")));
  for (const fault of health.faults || []) {
    const open = (fault.mask || []).filter((c) => !masked.has(c.join(",")));
    const mask = open.length ? [button("Mask", () => send("mask_squares", { cells: open, masked: true }),
      "mask")] : [];
    list.append(item(fault.text, ...mask));
  }
  const names = health.masked_names || [];
  $("#health-masked").hidden = names.length === 0;
  $("#health-masked-names").textContent = names.join(" ");
}

function renderUnseen(health) {
  const box = $("#health-unseen");
  box.replaceChildren();
  for (const move of health.unseen || [])
    box.append(button(_("Confirm {move}", { move }), () => send("confirm_move", { text: move }), "confirm-move"));
}

function renderTest(test) {
  const running = !!(test && test.running);
  $("#btn-board-test").hidden = running;
  $("#board-test-running").hidden = !running;
  $("#board-test-prompt").textContent = running ? test.prompt + (test.detail ? " " + _("Now: {detail}.", test) : "") : "";
  $("#board-test-answer").hidden = !(running && (test.asks || test.phase === "leds"));
  const report = $("#board-test-report");
  report.replaceChildren();
  if (test && test.report) {
    const found = test.report.lines.length;
    const untested = (test.report.untested || []).length;
    const head = (test.report.finished ? _("Board test finished:") : _("Board test stopped early:")) + " "
      + _n("{n} fault found", "{n} faults found", found)
      + (untested ? ", " + _n("{n} square not tested", "{n} squares not tested", untested) : "") + ".";
    report.append(item(head));
    for (const line of test.report.lines) report.append(item(line));
    if (test.report.untested_line) report.append(item(test.report.untested_line));
  }
}

export function renderHealth(s) {
  const health = s.board_health || {};
  const test = s.board_test || {};
  const problems = (health.faults || []).length + (s.board_connected === false ? 1 : 0);
  const badge = $("#health-badge");
  badge.hidden = problems === 0;
  badge.textContent = _n("board: {n} problem", "board: {n} problems", problems);
  renderLink(s.board_link, s.board_connected !== false);
  renderFaults(health);
  renderUnseen(health);
  renderTest(test);
  $("#health-ok").hidden = problems > 0 || (health.unseen || []).length > 0;
}

export function initHealth(sendCommand, getState) {
  command = sendCommand;
  currentState = getState;
  $("#btn-unmask").addEventListener("click", () => {
    const cells = (currentState() || {}).board_health?.masked || [];
    if (cells.length) send("mask_squares", { cells, masked: false });
  });
  $("#confirm-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = $("#confirm-text").value.trim();
    if (text) send("confirm_move", { text });
    $("#confirm-text").value = "";
  });
  $("#btn-board-test").addEventListener("click", () => send("board_test", { action: "start" }));
  $("#btn-board-test-next").addEventListener("click", () => send("board_test", { action: "answer", text: "" }));
  $("#btn-board-test-stop").addEventListener("click", () => send("board_test", { action: "stop" }));
  $("#board-test-answer").addEventListener("submit", (ev) => {
    ev.preventDefault();
    send("board_test", { action: "answer", text: $("#board-test-text").value.trim() });
    $("#board-test-text").value = "";
  });
}
