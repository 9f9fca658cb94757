// The page's words in the reader's language: the server's gettext catalogue (/i18n.json), chosen on the page
// (remembered), else the browser's Accept-Language, else the board's. _("text {x}", {x}) and
// _n("one {n}", "{n} many", n) translate what the scripts write; translatePage() what the HTML says.

const STORE = "dboard-language";
const ATTRIBUTES = ["title", "placeholder", "aria-label", "alt"];
const SKIP = new Set(["SCRIPT", "STYLE", "CODE", "KBD", "SAMP", "PRE"]);
const words = { language: "en", messages: {}, plural: [], languages: [] };

/** Load the chosen catalogue before the page draws anything. */
export async function loadLanguage(tokenQuery) {
  const chosen = localStorage.getItem(STORE) || "";
  const sep = tokenQuery ? "&" : "?";
  try {
    const res = await fetch(`/i18n.json${tokenQuery}${sep}lang=${encodeURIComponent(chosen)}`);
    if (res.ok) Object.assign(words, await res.json());
  } catch { /* the page stays English */ }
  document.documentElement.lang = words.language;
  return words.language;
}

/** Marks a text for the catalogue where it is written; `_()` translates it where it is shown. */
export const N_ = (msgid) => msgid;

export const language = () => words.language;
export const languages = () => words.languages;

/** Remember `code` as this browser's choice and show the page in it. */
export function chooseLanguage(code) {
  localStorage.setItem(STORE, code);
  location.reload();
}

const fill = (text, values) => (values ? text.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m)) : text);

/** `msgid` in the reader's language, its {placeholders} filled from `values`. */
export function _(msgid, values) {
  const text = words.messages[msgid];
  return fill(typeof text === "string" && text ? text : msgid, values);
}

/** The form of a counted text for `n` (the language's plural rule, from the server), {n} filled in. */
export function _n(singular, plural, n, values) {
  const forms = words.messages[singular];
  const at = n < 200 ? n : (n % 100) + 100;
  const index = words.plural.length ? words.plural[Math.max(0, Math.trunc(at))] : (n === 1 ? 0 : 1);
  const text = Array.isArray(forms) && forms[index] ? forms[index] : (n === 1 ? singular : plural);
  return fill(text, { n, ...values });
}

/** Translate the page's own texts (text between tags, and titles, placeholders, labels) under `root`. */
export function translatePage(root = document.body) {
  if (words.language === "en") return;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT, {
    acceptNode: (node) => {
      if (node.nodeType === Node.ELEMENT_NODE) {
        if (SKIP.has(node.tagName) || node.getAttribute("translate") === "no") return NodeFilter.FILTER_REJECT;
        return NodeFilter.FILTER_SKIP;
      }
      return NodeFilter.FILTER_ACCEPT;
    },
  });
  const texts = [];
  while (walker.nextNode()) texts.push(walker.currentNode);
  for (const node of texts) {
    const text = node.nodeValue.replace(/\s+/g, " ").trim();
    if (text && text in words.messages) {
      const lead = node.nodeValue.match(/^\s*/)[0], tail = node.nodeValue.match(/\s*$/)[0];
      node.nodeValue = lead + _(text) + tail;
    }
  }
  for (const el of root.querySelectorAll(ATTRIBUTES.map((a) => `[${a}]`).join(","))) {
    if (el.closest("[translate=no]")) continue;
    for (const a of ATTRIBUTES) {
      const text = (el.getAttribute(a) || "").replace(/\s+/g, " ").trim();
      if (text && text in words.messages) el.setAttribute(a, _(text));
    }
  }
  document.title = _(document.title);
}
