// On this day: what was written on today's date in earlier years, at the top of the list: the
// newest entry of each year under its "1 year ago", and a link to all of that day; the nearest
// years first, and a button for the earlier ones. Loaded only when there is some (list.js asks
// the server first, for one entry a year).

import { h } from './dom.js';
import { lang, localDay } from './i18n.js';

const words = {
  en: {
    onThisDay: 'On this day',
    yearsAgo: (n) => (n === 1 ? '1 year ago' : `${n} years ago`),
    allOfIt: (n) => (n === 1 ? 'All of that day, 1 year ago' : `All of that day, ${n} years ago`),
    all: 'All of that day',
    earlier: 'Earlier years',
  },
  ko: {
    onThisDay: '오늘의 추억',
    yearsAgo: (n) => `${n}년 전`,
    allOfIt: (n) => `${n}년 전 그날의 일기 모두`,
    all: '그날의 일기 모두',
    earlier: '지난 해 더 보기',
  },
};
const w = words[lang] ?? words.en;

/**
 * Puts `years` before `journal`, each entry drawn by `row` (the list's own rows); `more`, when
 * given, fetches and draws the earlier years (a button under the nearest ones).
 */
export function drawOnThisDay(journal, years, row, more) {
  const today = localDay(new Date()).day; // YYYY-MM-DD
  const dayIn = (yearsAgo) => `${String(Number(today.slice(0, 4)) - yearsAgo).padStart(4, '0')}${today.slice(4)}`;
  journal.parentNode?.querySelector('.on-this-day')?.remove();
  journal.before(h('section', { class: 'on-this-day', 'aria-labelledby': 'on-this-day' },
    h('h2', { class: 'month', id: 'on-this-day' }, w.onThisDay),
    ...years.map((year) => h('section', {},
      h('div', { class: 'years-ago' }, h('h3', {}, w.yearsAgo(year.yearsAgo)),
        h('a', { href: `#/browse?from=${dayIn(year.yearsAgo)}&to=${dayIn(year.yearsAgo)}`, class: 'years-ago-all', 'aria-label': w.allOfIt(year.yearsAgo) }, w.all)),
      h('ul', { class: 'entries' }, ...year.entries.map(row)))),
    more && h('button', {
      type: 'button',
      class: 'years-earlier',
      onclick: ({ currentTarget: button }) => {
        button.disabled = true;
        more().catch(() => { button.disabled = false; });
      },
    }, w.earlier)));
}
