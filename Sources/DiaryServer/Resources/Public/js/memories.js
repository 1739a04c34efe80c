// On this day: what was written on today's date in earlier years, at the top of the list, each
// year under its "1 year ago". Loaded only when there is some (list.js asks the server first).

import { h } from './dom.js';
import { lang } from './i18n.js';

const words = {
  en: { onThisDay: 'On this day', yearsAgo: (n) => (n === 1 ? '1 year ago' : `${n} years ago`) },
  ko: { onThisDay: '오늘의 추억', yearsAgo: (n) => `${n}년 전` },
};
const w = words[lang] ?? words.en;

/** Puts `years` before `journal`, each entry drawn by `row` (the list's own rows). */
export function drawOnThisDay(journal, years, row) {
  journal.parentNode?.querySelector('.on-this-day')?.remove();
  journal.before(h('section', { class: 'on-this-day', 'aria-labelledby': 'on-this-day' },
    h('h2', { class: 'month', id: 'on-this-day' }, w.onThisDay),
    ...years.map((year) => h('section', {},
      h('h3', { class: 'years-ago' }, w.yearsAgo(year.yearsAgo)),
      h('ul', { class: 'entries' }, ...year.entries.map(row))))));
}
