// The diary by its days and tags: a month's calendar, a year at a glance (a heatmap drawn here
// as SVG, the months, the streaks), the tags (to open, rename or merge), and the entries a
// filter lets through (a tag, the starred ones, a day or a span of days, with words to search).
// Loaded when first needed: it needs the server anyway.

import * as api from './api.js';
import { ask } from './dialogs.js';
import { h, icon, iconLink, toast } from './dom.js';
import { formatAs, formatDate, lang, t } from './i18n.js';
import { paged } from './paging.js';
import { back, go } from './router.js';
import { grouped, row } from './rows.js';

const words = {
  en: {
    calendar: 'Calendar',
    views: 'Browse the diary',
    all: 'All entries',
    year: 'Year',
    tags: 'Tags',
    starred: 'Starred',
    previousMonth: 'Previous month',
    nextMonth: 'Next month',
    previousYear: 'Previous year',
    nextYear: 'Next year',
    entriesOn: (n, day) => `${day}: ${n === 1 ? '1 entry' : `${n} entries`}`,
    nothingOn: (day) => `${day}: nothing written`,
    summary: (entries, words, days) => `${entries.toLocaleString('en')} ${entries === 1 ? 'entry' : 'entries'}, ${words.toLocaleString('en')} ${words === 1 ? 'word' : 'words'}, ${days} ${days === 1 ? 'day' : 'days'} written`,
    longest: 'Longest streak',
    current: 'Current streak',
    streak: (n) => (n === 1 ? '1 day' : `${n} days`),
    none: 'none yet',
    heatmap: (year) => `Days written in ${year}`,
    months: 'Entries by month',
    monthRow: (month, n, w) => `${month}: ${n} ${n === 1 ? 'entry' : 'entries'}, ${w} ${w === 1 ? 'word' : 'words'}`,
    noTags: 'No tags yet. Add one from an entry, under its date.',
    rename: 'Rename',
    renameTag: (tag) => `Rename the tag ${tag}`,
    renameHelp: 'Give a name this tag already has elsewhere to merge the two.',
    newName: 'New name',
    renamed: (n) => `Renamed on ${n === 1 ? '1 entry' : `${n} entries`}.`,
    count: (n) => (n === 1 ? '1 entry' : `${n} entries`),
    nothing: 'Nothing here.',
    searchHere: 'Search these entries',
    fromDay: 'From',
    toDay: 'To',
    showDays: 'Show',
    dates: 'Between two days',
    removeFilter: (what) => `Show all, not only ${what}`,
  },
  ko: {
    calendar: '달력',
    views: '일기 둘러보기',
    all: '모든 일기',
    year: '한 해',
    tags: '태그',
    starred: '즐겨찾기',
    previousMonth: '이전 달',
    nextMonth: '다음 달',
    previousYear: '이전 해',
    nextYear: '다음 해',
    entriesOn: (n, day) => `${day}: 일기 ${n}편`,
    nothingOn: (day) => `${day}: 쓴 일기 없음`,
    summary: (entries, words, days) => `일기 ${entries.toLocaleString('ko')}편, ${words.toLocaleString('ko')}단어, ${days}일 씀`,
    longest: '가장 긴 연속 기록',
    current: '지금 연속 기록',
    streak: (n) => `${n}일`,
    none: '아직 없음',
    heatmap: (year) => `${year}년에 일기를 쓴 날`,
    months: '달마다 쓴 일기',
    monthRow: (month, n, w) => `${month}: 일기 ${n}편, ${w}단어`,
    noTags: '아직 태그가 없어요. 일기의 날짜 아래에서 붙일 수 있어요.',
    rename: '이름 바꾸기',
    renameTag: (tag) => `태그 ${tag}의 이름 바꾸기`,
    renameHelp: '다른 태그의 이름을 주면 두 태그가 하나로 합쳐져요.',
    newName: '새 이름',
    renamed: (n) => `일기 ${n}편의 태그를 바꿨어요.`,
    count: (n) => `${n}편`,
    nothing: '해당하는 일기가 없어요.',
    searchHere: '이 일기들에서 찾기',
    fromDay: '시작',
    toDay: '끝',
    showDays: '보기',
    dates: '기간',
    removeFilter: (what) => `${what} 말고 모두 보기`,
  },
};
const w = words[lang] ?? words.en;

// The views' styles come with them, before anything is drawn.
await new Promise((resolve) => document.head.append(h('link', { rel: 'stylesheet', href: 'browse.css', onload: resolve, onerror: resolve })));
const zone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
const pad = (n) => String(n).padStart(2, '0');
const today = () => { const d = new Date(); return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`; };
// A day's noon, so that formatting it in the browser's zone never moves it to another day.
const noon = (day) => new Date(`${day}T12:00:00`);
/** `text` when it is a day (YYYY-MM-DD, one there is), else null: an address may say anything. */
const aDay = (text) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text ?? '') || text < '0001') return null;
  const d = noon(text);
  return `${String(d.getFullYear()).padStart(4, '0')}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}` === text ? text : null;
};
/** The month `by` months after `year`-`month`, "YYYY-MM"; null outside years 1 to 9999. */
const monthAfter = (year, month, by) => {
  const total = year * 12 + month - 1 + by;
  const y = Math.floor(total / 12);
  return y >= 1 && y <= 9999 ? `${String(y).padStart(4, '0')}-${pad((total % 12) + 1)}` : null;
};
/** A date of year `year` (years before 100 too: Date would take them for 19xx). */
const dateOf = (year, month, day) => { const d = new Date(2000, 0, 1, 12); d.setFullYear(year, month, day); return d; };
/** A link that takes the place of the address on show: stepping through months adds no history. */
const stepLink = (name, label, hash) => {
  if (!hash) return h('span', { class: 'icon-button', 'aria-hidden': 'true' });
  const link = iconLink(name, label, hash);
  link.addEventListener('click', (e) => {
    e.preventDefault();
    go(hash, { replace: true });
  });
  return link;
};
const monthName = (month) => formatAs('month', noon(`${month}-15`));

/** A screen's bar (the back arrow, the title) and the tabs that go between the four views. */
function screen(root, title, tab, ...content) {
  const backLink = iconLink('back', t.back, '#/');
  backLink.addEventListener('click', (e) => {
    e.preventDefault();
    back();
  });
  const tabs = [['calendar', '#/calendar', w.calendar], ['year', '#/year', w.year], ['tags', '#/tags', w.tags],
    ['starred', '#/browse?starred=true', w.starred]];
  root.append(
    h('header', { class: 'bar' }, h('div', { class: 'bar-inner' }, backLink, h('h1', {}, title))),
    h('main', { class: 'column browse' },
      h('nav', { class: 'tabs', 'aria-label': w.views },
        ...tabs.map(([name, href, label]) => h('a', { href, class: 'tab', 'aria-current': name === tab ? 'page' : null }, label))),
      ...content));
}

function failed(into) {
  into.replaceChildren(h('p', { class: 'notice' }, t.loadFailed));
}

// -- The calendar -------------------------------------------------------------------------------

/** `#/calendar/2024-05`: the month's days, those written marked and opening their entries. */
export function showCalendar(root, month) {
  month ??= today().slice(0, 7);
  const [year, m] = month.split('-').map(Number);
  if (m < 1 || m > 12 || year < 1) return void go('#/calendar', { replace: true });
  const step = (by) => monthAfter(year, m, by);
  const grid = h('div', { class: 'month-grid', role: 'table', 'aria-label': monthName(month) });
  const total = h('p', { class: 'browse-total' });
  const yearLink = (by, label) => {
    const hash = step(12 * by) && `#/calendar/${step(12 * by)}`;
    if (!hash) return h('span');
    const link = h('a', { href: hash, class: 'year-step', 'aria-label': label }, by < 0 ? `« ${year - 1}` : `${year + 1} »`);
    link.addEventListener('click', (e) => {
      e.preventDefault();
      go(hash, { replace: true });
    });
    return link;
  };
  screen(root, w.calendar, 'calendar',
    h('div', { class: 'browse-nav' },
      stepLink('back', w.previousMonth, step(-1) && `#/calendar/${step(-1)}`),
      h('h2', {}, monthName(month)),
      stepLink('forward', w.nextMonth, step(1) && `#/calendar/${step(1)}`)),
    h('div', { class: 'year-steps' }, yearLink(-1, w.previousYear),
      h('a', { href: `#/year/${year}`, class: 'year-step', 'aria-label': `${w.year}: ${year}` }, String(year)), yearLink(1, w.nextYear)),
    grid, total);
  api.get(`calendar?month=${month}&timeZone=${encodeURIComponent(zone())}`).then((answer) => {
    const days = new Map(answer.days.map((d) => [d.date, d]));
    const first = dateOf(year, m - 1, 1);
    const weekdays = [...Array(7)].map((_, i) => formatAs('weekday', new Date(2023, 0, 1 + i, 12))); // Sunday first
    const rows = [h('div', { role: 'row', class: 'week' }, ...weekdays.map((d) => h('span', { role: 'columnheader', class: 'weekday' }, d)))];
    let week = h('div', { role: 'row', class: 'week' }, ...[...Array(first.getDay())].map(() => h('span', { role: 'cell' })));
    for (let d = 1; d <= dateOf(year, m, 0).getDate(); d++) {
      const day = `${month}-${pad(d)}`;
      const found = days.get(day);
      const label = found ? w.entriesOn(found.entries, formatDate(noon(day))) : w.nothingOn(formatDate(noon(day)));
      week.append(h('span', { role: 'cell', class: day === today() ? 'day today' : 'day', 'aria-current': day === today() ? 'date' : null },
        found ? h('a', { href: `#/browse?from=${day}&to=${day}`, class: 'day-written', 'aria-label': label }, String(d))
          : h('span', {}, h('span', { 'aria-hidden': 'true' }, String(d)), h('span', { class: 'visually-hidden' }, label))));
      if (week.children.length === 7) rows.push(week), (week = h('div', { role: 'row', class: 'week' }));
    }
    if (week.children.length) rows.push(week);
    grid.replaceChildren(...rows);
    const entries = answer.days.reduce((n, d) => n + d.entries, 0);
    total.textContent = w.summary(entries, answer.days.reduce((n, d) => n + d.words, 0), answer.days.length);
  }, () => failed(grid));
}

// -- The year -----------------------------------------------------------------------------------

/** `#/year/2024`: a heatmap of the days written, the months, the streaks. */
export function showYear(root, year) {
  year = Number(year ?? new Date().getFullYear());
  if (!(year >= 1 && year <= 9999)) return void go('#/year', { replace: true });
  const body = h('div', { class: 'year-body' });
  screen(root, w.year, 'year',
    h('div', { class: 'browse-nav' },
      stepLink('back', w.previousYear, year > 1 && `#/year/${String(year - 1).padStart(4, '0')}`),
      h('h2', {}, String(year)),
      stepLink('forward', w.nextYear, year < 9999 && `#/year/${String(year + 1).padStart(4, '0')}`)),
    body);
  api.get(`year?year=${String(year).padStart(4, '0')}&timeZone=${encodeURIComponent(zone())}`).then((glance) => {
    const streak = (name, s) => h('div', { class: 'streak' }, h('dt', {}, name),
      h('dd', {}, s ? `${w.streak(s.days)} · ${formatDate(noon(s.from))}${s.days > 1 ? ` – ${formatDate(noon(s.through))}` : ''}` : w.none));
    body.replaceChildren(
      h('p', { class: 'browse-total' }, w.summary(glance.entries, glance.words, glance.daysWritten)),
      heatmap(glance),
      h('dl', { class: 'streaks' }, streak(w.longest, glance.longestStreak), streak(w.current, glance.currentStreak)),
      monthBars(glance));
  }, () => failed(body));
}

const SVG = 'http://www.w3.org/2000/svg';
function svg(tag, attributes, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) el.setAttribute(key, value);
  el.append(...children);
  return el;
}

/**
 * A column a week, Sunday at the top, like a contribution graph; each day says its count. On a
 * narrow screen the year is drawn in two rows, January to June over July to December, so that
 * its squares and the months' names stay big enough to read (one row of 53 weeks on a phone drew
 * them 6 and 4 pixels high).
 */
function heatmap(glance) {
  const counts = new Map(glance.days.map((d) => [d.date, d.entries]));
  const rows = matchMedia('(max-width: 40rem)').matches ? 2 : 1;
  const cell = 11;
  const head = 16; // the months' names, over each row of weeks
  const band = head + 7 * cell + 8;
  const weeks = rows === 2 ? 27 : 54; // the most a half year or a year spans
  const picture = svg('svg', { class: 'heatmap', viewBox: `0 0 ${weeks * cell} ${rows * band - 8}`, role: 'img', 'aria-label': w.heatmap(glance.year) });
  picture.append(svg('title', {}, w.heatmap(glance.year)));
  // Noon of each day of the year (years before 100 too: dateOf), counted from its row's first day.
  for (const d = dateOf(glance.year, 0, 1); d.getFullYear() === glance.year; d.setDate(d.getDate() + 1)) {
    const row = rows === 2 && d.getMonth() >= 6 ? 1 : 0;
    const first = dateOf(glance.year, 6 * row, 1);
    const column = Math.floor((Math.round((d - first) / 86400000) + first.getDay()) / 7);
    const day = `${String(d.getFullYear()).padStart(4, '0')}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
    const n = counts.get(day) ?? 0;
    const x = column * cell;
    picture.append(svg('rect', { x, y: row * band + head + d.getDay() * cell, width: cell - 2, height: cell - 2, rx: 2, class: `level-${Math.min(n, 4)}` },
      svg('title', {}, n ? w.entriesOn(n, formatDate(d)) : w.nothingOn(formatDate(d)))));
    if (d.getDate() === 1) picture.append(svg('text', { x, y: row * band + 11, class: 'heatmap-month' }, formatAs('month', d).replace(/\s*\d{4}\s*(년)?\s*/, '').slice(0, 3)));
  }
  return picture;
}

/** A bar's filled part, `percent` wide (set through the CSSOM: the content policy forbids style attributes). */
function fill(percent) {
  const bar = h('span', { class: 'bar-fill' });
  bar.style.width = `${percent}%`;
  return bar;
}

/** Each month's entries as a bar, with its words. */
function monthBars(glance) {
  const most = Math.max(1, ...glance.months.map((m) => m.entries));
  return h('section', { class: 'month-bars' }, h('h2', {}, w.months),
    h('ul', {}, ...glance.months.map((m) => {
      const name = new Intl.DateTimeFormat(lang, { month: 'long' }).format(noon(`${m.month}-15`));
      return h('li', {},
        h('a', { href: `#/calendar/${m.month}`, class: 'month-name', 'aria-label': w.monthRow(name, m.entries, m.words) }, name),
        h('span', { class: 'bar-track', 'aria-hidden': 'true' }, fill((100 * m.entries) / most)),
        h('span', { class: 'month-count', 'aria-hidden': 'true' }, String(m.entries)));
    })));
}

// -- Tags ---------------------------------------------------------------------------------------

/** `#/tags`: every tag with its count, opening its entries; renamed (or merged) in one step. */
export function showTags(root) {
  const list = h('ul', { class: 'tag-list', 'aria-label': w.tags });
  screen(root, w.tags, 'tags', list);
  const load = () => api.listTags().then(({ tags }) => {
    if (!tags.length) return void list.replaceChildren(h('li', { class: 'notice' }, w.noTags));
    list.replaceChildren(...tags.map(({ tag, count }) => h('li', { class: 'tag-row' },
      h('a', { href: `#/browse?tag=${encodeURIComponent(tag)}`, class: 'tag-link' },
        h('span', { class: 'tag' }, tag), h('span', { class: 'tag-count' }, w.count(count))),
      h('button', { type: 'button', class: 'button', 'aria-label': w.renameTag(tag), onclick: () => rename(tag) }, w.rename))));
  }, () => failed(list));
  const rename = async (tag) => {
    const field = h('input', { type: 'text', value: tag, 'aria-label': w.newName, class: 'dialog-field' });
    const answer = ask('rename', w.renameTag(tag), h('div', {}, field, h('p', { class: 'dialog-help' }, w.renameHelp)), [
      { value: 'rename', label: w.rename },
      { value: '', label: t.cancel },
    ]);
    if ((await answer) !== 'rename' || !field.value.trim() || field.value === tag) return;
    try {
      const done = await api.post('tags/rename', { from: tag, to: field.value });
      toast(w.renamed(done.entries));
      load();
    } catch (error) {
      toast(error.status ? error.message : t.loadFailed);
    }
  };
  load();
}

// -- The entries a filter lets through --------------------------------------------------------------

/**
 * `#/browse?tag=travel&starred=true&from=2024-05-01&to=2024-05-31&q=sea`: the list narrowed (each
 * tag, the star, the days from and to, both included), searched when there are words. The
 * filter lives in the address, so it can be bookmarked and Back keeps it.
 */
export function showBrowse(root, query) {
  const params = new URLSearchParams(query);
  const tags = params.getAll('tag');
  const starred = params.get('starred') === 'true';
  const from = aDay(params.get('from'));
  const to = aDay(params.get('to'));
  const q = params.get('q') ?? '';
  const filter = new URLSearchParams();
  for (const tag of tags) filter.append('tag', tag);
  if (starred) filter.set('starred', 'true');
  // Days of the writer's clock, sent as moments: from its first, until the next day's first.
  const moment = (day, after = 0) => { const d = noon(day); d.setHours(0, 0, 0, 0); d.setDate(d.getDate() + after); return d.toISOString(); };
  if (from) filter.set('from', moment(from));
  if (to) filter.set('until', moment(to, 1));

  const without = (name, value) => {
    const rest = new URLSearchParams(params);
    rest.delete(name);
    if (value != null) for (const other of params.getAll(name)) if (other !== value) rest.append(name, other);
    if (name === 'from') rest.delete('to');
    return rest.toString() ? `#/browse?${rest}` : '#/';
  };
  const days = from && to && from === to ? formatDate(noon(from)) : [from, to].filter(Boolean).map((d) => formatDate(noon(d))).join(' – ');
  const chips = [
    ...tags.map((tag) => [`#${tag}`, without('tag', tag)]),
    starred ? [`★ ${w.starred}`, without('starred')] : null,
    days ? [days, without('from')] : null,
  ].filter(Boolean);
  const title = chips.map(([label]) => label).join(' · ') || w.all;
  const field = h('input', { type: 'search', class: 'search-field', 'aria-label': w.searchHere, placeholder: w.searchHere, value: q, maxlength: api.limits.searchLength, enterkeyhint: 'search' });
  const form = h('form', { class: 'search', role: 'search', onsubmit: (e) => {
    e.preventDefault();
    const next = new URLSearchParams(params);
    if (field.value.trim()) next.set('q', field.value.trim()); else next.delete('q');
    go(`#/browse?${next}`, { replace: true });
  } }, icon('search'), field);
  // A span of days, chosen with the browser's own date pickers; shown when asked for.
  const dayField = (value, label) => h('label', { class: 'day-field' }, label, h('input', { type: 'date', value: value ?? '', min: '0001-01-01', max: '9999-12-31' }));
  const fromField = dayField(from, w.fromDay);
  const toField = dayField(to, w.toDay);
  const range = h('form', { class: 'date-range', 'aria-label': w.dates, onsubmit: (e) => {
    e.preventDefault();
    const next = new URLSearchParams(params);
    for (const [name, label] of [['from', fromField], ['to', toField]]) {
      const value = label.querySelector('input').value;
      if (value) next.set(name, value); else next.delete(name);
    }
    go(next.toString() ? `#/browse?${next}` : '#/');
  } }, fromField, toField, h('button', { class: 'button' }, w.showDays));
  const journal = h('div', { class: 'journal' });
  const results = h('ul', { class: 'entries results', 'aria-label': w.searchHere });
  const notice = h('div', { class: 'notice', hidden: true });
  screen(root, title, starred && !tags.length && !days ? 'starred' : null,
    h('ul', { class: 'filters', 'aria-label': title },
      ...chips.map(([label, href]) => h('li', {}, h('a', { href, class: 'filter-chip', 'aria-label': w.removeFilter(label) }, label, h('span', { 'aria-hidden': 'true' }, ' ×'))))),
    range, form, notice, q ? results : journal);
  const context = { swipe: { close() {} }, query: q, offline: false };
  const nothing = () => { notice.replaceChildren(h('p', {}, w.nothing)); notice.hidden = false; };

  if (q) {
    filter.set('q', q);
    filter.set('limit', '50');
    api.get(`search?${filter}`).then((found) => {
      results.replaceChildren(...found.results.map((r) => row(r.entry, context, r.snippet)));
      if (!found.results.length) nothing();
    }, (error) => toast(error.status ? error.message : t.loadFailed));
    return;
  }
  const append = grouped(journal, context);
  return paged(journal, {
    fetchPage: (cursor) => api.get(`entries?${filter}&limit=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
    append,
    onFirst: (page) => page.entries.length || nothing(),
    onError: (error) => { notice.replaceChildren(h('p', {}, error.status ? error.message : t.loadFailed)); notice.hidden = false; },
  });
}
