// The Rules tab: a variant's rules page (docs/rules, served as HTML by /api/rules/<id>) with its start position
// drawn on a board under "Set-up", a list of its sections, and links "#rules/<variant>/<section>" that a
// refusal in teaching mode uses to show the rule that refused the move.

import { _, language } from "./i18n.js";
import { BoardView, key } from "./board.js";

const $ = (sel) => document.querySelector(sel);
const PREFIX = "rules-";   // heading ids: the page's anchors with this prefix (web/rules_page.py)

/** The panel's link for a refusal's section "docs/rules/english.md#capturing" (null when there is none). */
export function ruleHref(section) {
  const m = /([\w-]+)\.md#([\w-]+)$/.exec(section || "");
  return m ? `#rules/${m[1]}/${m[2]}` : null;
}

/** ctx: {variants() -> the hello's variant list, current() -> the game's variant id, query(), showTab(name)} */
export function openRules(ctx) {
  let shown = null;   // the variant id on the page
  const select = $("#rules-variant");

  function fillVariants() {
    const list = ctx.variants();
    if (select.options.length === list.length) return;
    select.textContent = "";
    for (const v of list) select.appendChild(new Option(v.name, v.id));
  }

  async function show(variant, section) {
    fillVariants();
    variant = variant || shown || ctx.current() || "international";
    const page = $("#rules-page");
    if (variant !== shown) {
      const res = await fetch(`/api/rules/${encodeURIComponent(variant)}${ctx.query()}${ctx.query() ? "&" : "?"}lang=${language()}`);
      const data = await res.json();
      $("#rules-error").hidden = res.ok;
      $("#rules-error").textContent = res.ok ? "" : data.error || _("no rules page for {variant}", { variant });
      if (!res.ok) return;
      page.innerHTML = data.html;   // escaped by the server (web/rules_page.py), from the project's own docs
      drawSetup(page, data);
      toc(data);
      shown = data.id;
      select.value = data.id;
      page.dataset.variant = data.id;
    }
    for (const h of page.querySelectorAll(".target")) h.classList.remove("target");
    const head = section && document.getElementById(PREFIX + section);
    if (head) {
      head.classList.add("target");
      head.scrollIntoView({ block: "start" });
    } else {
      window.scrollTo(0, 0);
    }
  }

  function drawSetup(page, data) {
    const head = document.getElementById(`${PREFIX}set-up`);
    if (!head) return;
    const el = document.createElement("div");
    el.className = "board rules-board";
    el.id = "rules-board";
    el.setAttribute("aria-label", _("start position"));
    let last = head.nextElementSibling;   // after the section's first paragraph
    if (!last || last.tagName !== "P") last = head;
    last.after(el);
    const variant = ctx.variants().find((v) => v.id === data.id) || {};
    const names = new Map((variant.squares || []).map(([r, c, n]) => [key(r, c), String(n)]));
    new BoardView(el).render({ rows: data.rows, cols: data.cols, flip: false, names, occ: null, leds: null,
      pieces: new Map(data.start.map((p) => [key(p.row, p.col), { color: p.color, king: !!p.king }])),
      last: null, view: null, selected: null, dests: null, marks: null });
  }

  function toc(data) {
    const nav = $("#rules-toc");
    nav.textContent = "";
    for (const h of $("#rules-page").querySelectorAll("h2")) {
      const a = document.createElement("a");
      a.href = `#rules/${data.id}/${h.id.slice(PREFIX.length)}`;
      a.textContent = h.textContent;
      nav.appendChild(a);
    }
  }

  function route() {   // "#rules", "#rules/<variant>", "#rules/<variant>/<section>"
    const m = /^#rules(?:\/([\w-]+))?(?:\/([\w-]+))?$/.exec(location.hash);
    if (!m) return false;
    ctx.showTab("rules");
    show(m[1], m[2]);
    return true;
  }

  /** Go to a "#rules/..." link (again, when it is the address already). */
  function open(href) {
    if (location.hash === href) route(); else location.hash = href;
  }

  select.onchange = () => open(`#rules/${select.value}`);
  window.addEventListener("hashchange", route);
  return { show, route, open };
}
