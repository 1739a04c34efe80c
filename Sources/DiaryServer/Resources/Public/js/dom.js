// The page's building blocks: elements from data, icons, marked search words and the
// toast (the dialogs are dialogs.js). Strings always become text nodes, never markup, so an
// entry titled `<img src=x onerror=alert(1)>` shows as those characters.

export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value == null || value === false) continue;
    if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
    else if (key === 'class') el.className = value;
    else el.setAttribute(key, value === true ? '' : value);
  }
  el.append(...children.flat().filter((c) => c != null && c !== false));
  return el;
}

// Icons are drawn in the page (24×24 outlines, styled in app.css), so they take the
// text colour in both themes and cost no request; they are decoration, the button
// carries the name.
export const ICONS = { // (modules loaded later add their own)
  back: 'M15 5l-7 7 7 7',
  forward: 'M9 5l7 7-7 7',
  calendar: 'M4 6h16v14H4zM4 10h16M8 3v4M16 3v4',
  new: 'M12 20h9M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4z',
  more: 'M3 12a2 2 0 1 0 4 0a2 2 0 1 0-4 0M10 12a2 2 0 1 0 4 0a2 2 0 1 0-4 0M17 12a2 2 0 1 0 4 0a2 2 0 1 0-4 0',
  search: 'M4 11a7 7 0 1 0 14 0a7 7 0 1 0-14 0M20 20l-4-4',
  trash: 'M3 6h18M8 6V4h8v2M19 6l-1 14H6L5 6M10 11v6M14 11v6',
  account: 'M8.5 7.5a3.5 3.5 0 1 0 7 0a3.5 3.5 0 1 0-7 0M5 20a7 7 0 0 1 14 0',
  star: 'M12 3l2.7 5.6 6.1.9-4.4 4.3 1 6.1L12 17l-5.4 2.9 1-6.1-4.4-4.3 6.1-.9z',
  // A clock: words kept in this browser, waiting to be sent.
  waiting: 'M3 12a9 9 0 1 0 18 0a9 9 0 1 0-18 0M12 7v5l3 2',
};

export function icon(name) {
  const svg = (tag, attributes) => {
    const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
    for (const [key, value] of Object.entries(attributes)) el.setAttribute(key, value);
    return el;
  };
  const drawing = svg('svg', { class: `icon icon-${name}`, viewBox: '0 0 24 24', 'aria-hidden': 'true' });
  drawing.append(svg('path', { d: ICONS[name] }));
  return drawing;
}

export function iconButton(name, label, props = {}) {
  return h('button', { type: 'button', class: 'icon-button', 'aria-label': label, ...props }, icon(name));
}

export function iconLink(name, label, href) {
  return h('a', { class: 'icon-button', href, 'aria-label': label }, icon(name));
}

const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const cjk = /[\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

// Text with the query's words wrapped in <mark>, matched as the server's
// search matches them: Korean (and other CJK) text anywhere, inside words;
// other words where a word begins ("seren" marks "serenity").
export function highlight(text, query) {
  const words = (query.match(/[\p{L}\p{N}]+/gu) ?? []).sort((a, b) => b.length - a.length);
  const out = document.createDocumentFragment();
  if (!words.length) return out.append(text), out;
  const patterns = words.map((w) => (cjk.test(w) ? '' : '(?<![\\p{L}\\p{N}])') + escapeRegExp(w));
  const re = new RegExp(patterns.join('|'), 'giu');
  let last = 0;
  for (const m of text.matchAll(re)) {
    out.append(text.slice(last, m.index), h('mark', {}, m[0]));
    last = m.index + m[0].length;
  }
  out.append(text.slice(last));
  return out;
}

let toastTimer = null;

/** Takes the message at the bottom away before its time. */
export function hideToast() {
  const box = document.getElementById('toast');
  clearTimeout(toastTimer);
  box.hidden = true;
  box.replaceChildren();
}

/** A short message at the bottom, with an optional action such as Undo. */
export function toast(message, { action, onAction, duration = 5000 } = {}) {
  const box = document.getElementById('toast');
  clearTimeout(toastTimer);
  box.replaceChildren(h('span', {}, message));
  if (action) {
    box.append(h('button', { type: 'button', onclick: () => (hideToast(), onAction()) }, action));
  }
  box.hidden = false;
  toastTimer = setTimeout(hideToast, duration);
}
