// Building DOM from data. Memory text is user (and agent) controlled, so it
// only ever reaches the page as text nodes: nothing here parses HTML.

/**
 * Create an element. `props` sets attributes (strings), `dataset` entries,
 * event handlers (`on*` functions) and `text` (textContent). Children are
 * nodes or strings; strings become text nodes.
 */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "text") node.textContent = String(value);
    else if (name.startsWith("on") && typeof value === "function") {
      node.addEventListener(name.slice(2).toLowerCase(), value);
    } else if (value === true) node.setAttribute(name, "");
    else node.setAttribute(name, String(value));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace all children of `node`. */
export function replaceChildren(node, ...children) {
  node.replaceChildren();
  append(node, children);
}

/**
 * Show `text` in `node`, which holds only text. A check rewrites a dozen of
 * these on every pause in typing, and most say the same as before: an
 * unchanged text is left alone, and a changed one replaces the characters
 * of the text node already there instead of the node itself.
 */
export function showText(node, text) {
  const only = node.firstChild;
  if (only !== null && only === node.lastChild && only.nodeType === Node.TEXT_NODE) {
    if (only.data !== text) only.data = text;
  } else {
    node.textContent = text;
  }
}

/** Look up the one element with this data-testid (they double as the page's hooks). */
export function byTestId(id, root = document) {
  // The page's own elements are found once: a selector over the whole
  // document walks the editor's lines too, and every check updates a dozen
  // of them. A node that left the page is looked up again.
  const known = root === document ? found.get(id) : undefined;
  if (known?.isConnected) return known;
  const node = root.querySelector(`[data-testid="${id}"]`);
  if (!node) throw new Error(`the page has no [data-testid="${id}"]`);
  if (root === document) found.set(id, node);
  return node;
}

/** The elements `byTestId` found in the document, by test id. */
const found = new Map();

const numberFormat = new Intl.NumberFormat("en-US");
/** 18000 -> "18,000". */
export function formatNumber(n) {
  return numberFormat.format(n);
}

/** +12 / −3 / ±0, for size deltas. */
export function formatDelta(n) {
  if (n > 0) return `+${formatNumber(n)}`;
  if (n < 0) return `−${formatNumber(-n)}`;
  return "±0";
}

/** A local, readable time for an ISO timestamp; the ISO text if it does not parse. */
export function formatTime(iso) {
  if (!iso) return "unknown time";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, {
    year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit",
  });
}
