// Building DOM from data. Strings always become text nodes, never markup,
// so an entry titled `<img src=x onerror=alert(1)>` shows as those characters.

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

// Icons are SVG files drawn through CSS masks, so they take the text colour
// in both themes; they are decoration, the button carries the name.
export const icon = (name) => h('span', { class: `icon icon-${name}`, 'aria-hidden': 'true' });

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
