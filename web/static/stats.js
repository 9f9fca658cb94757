// The Statistics tab: the game library's figures (/api/stats) as tables with their CSV downloads, and two kinds
// of plot drawn here as SVG, no chart library: each player's results over time, each variant's rating history.

import { _, N_ } from "./i18n.js";

const $ = (sel) => document.querySelector(sel);
const SVG = "http://www.w3.org/2000/svg";
const SERIES = 8;   // the plot colors s0..s7 and the results' (win, draw, loss) are in style.css: no inline style
const MAX_PLAYERS = 8;   // plots for the players with the most games

const TABLES = {
  variants: { title: N_("By variant"), cols: [["variant", N_("Variant")], ["games", N_("Games")], ["white_wins", N_("White won")],
    ["white_pct", "%"], ["black_wins", N_("Black won")], ["black_pct", "%"], ["draws", N_("Draws")], ["draw_pct", "%"],
    ["average_moves", N_("Average moves")]] },
  players: { title: N_("By player"), cols: [["player", N_("Player")], ["variant", N_("Variant")], ["games", N_("Games")],
    ["wins", N_("Won")], ["draws", N_("Drawn")], ["losses", N_("Lost")], ["win_pct", N_("Won %")], ["score_pct", N_("Score %")]] },
  levels: { title: N_("Against the engine's levels"), cols: [["level", N_("Level")], ["games", N_("Games")], ["wins", N_("Won")],
    ["draws", N_("Drawn")], ["losses", N_("Lost")], ["score_pct", N_("Score %")]] },
  openings: { title: N_("Most common openings (first three moves)"), cols: [["variant", N_("Variant")],
    ["opening", N_("Opening")], ["games", N_("Games")], ["white_pct", N_("White %")], ["black_pct", N_("Black %")],
    ["draw_pct", N_("Draw %")]] },
};

const FINISHED = N_("of the finished games (an unfinished one has no result yet)");
const HINTS = { games: N_("the games saved; in brackets the finished ones, when not all are"), white_pct: FINISHED,
  black_pct: FINISHED, draw_pct: FINISHED, win_pct: FINISHED, score_pct: FINISHED };

/** ctx: {query() -> "?token=..." or ""} */
export function openStats(ctx) {
  async function load() {
    const res = await fetch("/api/stats" + ctx.query());
    const data = await res.json();
    const root = $("#stats-body");
    root.textContent = "";
    const problems = $("#stats-problems");
    problems.textContent = "";
    for (const p of data.problems || []) problems.appendChild(el("li", {}, p));
    $("#stats-problems-panel").hidden = !(data.problems || []).length;
    $("#stats-empty").hidden = (data.variants || []).length > 0;
    for (const [name, spec] of Object.entries(TABLES)) {
      const rows = data[name] || [];
      if (!rows.length) continue;
      const panel = el("div", { class: "panel", id: `stats-${name}` });
      const h = el("h2", {}, _(spec.title) + " ");
      const a = el("a", { href: `/api/stats/${name}.csv${ctx.query()}`, download: `dboard-${name}.csv`,
        class: "download" }, "CSV");
      h.appendChild(a);
      panel.appendChild(h);
      panel.appendChild(table(spec.cols, rows));
      root.appendChild(panel);
    }
    const plots = $("#stats-plots");
    plots.textContent = "";
    const players = Object.entries(data.timeline || {}).sort((a, b) => b[1].length - a[1].length)
      .slice(0, MAX_PLAYERS);
    for (const [player, points] of players) plots.appendChild(resultsPlot(player, points));
    for (const [variant, lines] of Object.entries(data.ratings || {})) plots.appendChild(ratingPlot(variant, lines));
  }
  return { load };
}

function el(tag, attrs = {}, text = null) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== null) e.textContent = text;
  return e;
}

function svgEl(tag, attrs = {}, text = null) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== null) e.textContent = text;
  return e;
}

function table(cols, rows) {
  const wrap = el("div", { class: "table-scroll" });
  const t = el("table", { class: "games stats" });
  const head = el("tr");
  for (const [k, title] of cols) head.appendChild(el("th", { "data-col": k, title: _(HINTS[k] || title) }, _(title)));
  t.appendChild(el("thead")).appendChild(head);
  const body = t.appendChild(el("tbody"));
  for (const row of rows) {
    const tr = el("tr");
    for (const [k] of cols) tr.appendChild(el("td", { "data-col": k }, cellText(k, row)));
    body.appendChild(tr);
  }
  wrap.appendChild(t);
  return wrap;
}

/** A cell as `dboard stats` counts it: the games with the finished ones, which the percentages are of. */
function cellText(col, row) {
  if (col === "games" && row.finished != null && row.finished !== row.games)
    return `${row.games} (${row.finished} finished)`;
  const v = row[col];
  if (typeof v === "number" && (col.endsWith("_pct") || col === "average_moves")) return v.toFixed(1);   // 100.0
  return String(v ?? "");
}

// A plot frame: width W, height H, the data area inside the margins, y ticks and the x axis' two end labels.
const W = 460, H = 200, M = { left: 44, right: 12, top: 12, bottom: 28 };

function frame(title, cls, yTicks, yOf, xLabels) {
  const figure = el("figure", { class: `panel plot ${cls}` });
  figure.appendChild(el("figcaption", {}, title));
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": title });
  for (const v of yTicks) {
    const y = yOf(v);
    svg.appendChild(svgEl("line", { x1: M.left, x2: W - M.right, y1: y, y2: y, class: "grid" }));
    svg.appendChild(svgEl("text", { x: M.left - 6, y: y + 4, "text-anchor": "end", class: "tick" }, String(v)));
  }
  svg.appendChild(svgEl("text", { x: M.left, y: H - 8, class: "tick" }, xLabels[0]));
  svg.appendChild(svgEl("text", { x: W - M.right, y: H - 8, "text-anchor": "end", class: "tick" }, xLabels[1]));
  figure.appendChild(svg);
  return [figure, svg];
}

const xScale = (lo, hi) => (v) => M.left + (hi > lo ? (v - lo) / (hi - lo) : 0.5) * (W - M.left - M.right);
const yScale = (lo, hi) => (v) => H - M.bottom - (hi > lo ? (v - lo) / (hi - lo) : 0.5) * (H - M.top - M.bottom);

/** A player's running score (%) game after game, each game a dot colored by its result. */
function resultsPlot(player, points) {
  const xOf = xScale(1, points.length), yOf = yScale(0, 100);
  const [figure, svg] = frame(_("{player}: results over time (score %)", { player }), "results", [0, 50, 100], yOf,
    [points[0].date.split(" ")[0], points[points.length - 1].date.split(" ")[0]]);
  figure.dataset.player = player;
  const xy = points.map((p, i) => [xOf(i + 1), yOf(p.score_pct)]);
  svg.appendChild(svgEl("polyline", { points: xy.map((p) => p.join(",")).join(" "), class: "line s0" }));
  points.forEach((p, i) => {
    const dot = svgEl("circle", { cx: xy[i][0], cy: xy[i][1], r: 4, class: `dot ${p.result}` });
    dot.appendChild(svgEl("title", {}, _("{date} {variant}: {result} (score {score}%)", { date: p.date, variant: p.variant, result: p.result, score: p.score_pct })));
    svg.appendChild(dot);
  });
  return figure;
}

/** The ratings of every player of a variant, one line each, after every rated game. */
function ratingPlot(variant, lines) {
  const all = lines.flatMap((l) => l.points);
  const times = all.map((p) => p.played), ratings = all.map((p) => p.rating);
  const lo = Math.floor((Math.min(...ratings) - 50) / 100) * 100, hi = Math.ceil((Math.max(...ratings) + 50) / 100) * 100;
  const xOf = xScale(Math.min(...times), Math.max(...times)), yOf = yScale(lo, hi);
  const day = (t) => new Date(t * 1000).toISOString().slice(0, 10).replaceAll("-", ".");   // as PDN dates
  const step = (hi - lo) / 4;
  const ticks = [0, 1, 2, 3, 4].map((i) => Math.round(lo + i * step));
  const [figure, svg] = frame(_("{variant}: rating history", { variant }), "ratings", ticks, yOf,
    [day(Math.min(...times)), day(Math.max(...times))]);
  figure.dataset.variant = variant;
  lines.forEach((line, n) => {
    const color = `s${n % SERIES}`;
    const xy = line.points.map((p) => [xOf(p.played), yOf(p.rating)]);
    const g = svgEl("g", { class: `series ${color}`, "data-player": line.player });
    g.appendChild(svgEl("polyline", { points: xy.map((p) => p.join(",")).join(" "), class: "line" }));
    line.points.forEach((p, i) => {
      const dot = svgEl("circle", { cx: xy[i][0], cy: xy[i][1], r: 3, class: "dot" });
      dot.appendChild(svgEl("title", {}, `${line.player} ${day(p.played)}: ${p.rating} ±${p.rd} (${p.opponent})`));
      g.appendChild(dot);
    });
    svg.appendChild(g);
    figure.appendChild(el("span", { class: `legend ${color}`, "data-player": line.player }, `● ${line.player}`));
  });
  return figure;
}
