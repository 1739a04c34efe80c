// The list: the diary as a journal, newest first, under a header for each month; a search
// whose words are in the address (#/search?q=…); the next rows as the writer scrolls; each row's
// Share and Delete (swipe on touch screens, the row's menu with a mouse or keyboard).
// Back from an entry the list is as the writer left it: the same rows, scrolled as they were.
// On this day's earlier years come first (drawOnThisDay, below: a module of its own weighed a
// kilobyte of a first visit, half of it the request's headers). The infinite scroll that the
// trash uses too is here (below). What the writer does to an entry
// from a row (share it, or delete it with a question first and Undo after) is entryActions.js,
// loaded when first used.

import * as api from './api.js';
import * as autosave from './autosave.js';
import * as device from './device.js';
import { h, highlight, icon, iconButton, iconLink, toast } from './dom.js';
import { formatAs, formatDate, localDay, nearDay, t, weatherSummary, weatherWords } from './i18n.js';
import { go, navigation, refresh, showingList } from './router.js';

const SEARCH_DELAY_MS = 250;
const COMPOSE_KEY = 'n'; // the keyboard shortcut for a new entry

// What the list last showed, and whose it is: its rows, where its next page starts and how far
// it was scrolled. Back from an entry the list draws these rows again, scrolled as they were,
// instead of fetching the first page again; while the connection is down they show under a
// note. Kept in memory only, for this page session. `fresh` is false once the diary changed
// under them (the router's refresh: an Undo, a login): then the list fetches its first page.
let last = { user: null, entries: [], cursor: null, scroll: 0, fresh: false };
// The last search: its words, what it found, and how far its results were scrolled.
let lastSearch = null;
const views = new Set(); // the lists on show, to change in place as entries change

navigation.addEventListener('refresh', () => {
  last.fresh = false;
  lastSearch = null;
});

// What the writer saved shows in the rows at once, in the list kept and in the one on show
// (beside the editor on a wide screen); a new entry comes first, as the newest.
const update = (e) => {
  const { id, entry } = e.detail;
  const known = last.entries.some((old) => old.id === id);
  if (known) last.entries = last.entries.map((old) => (old.id === id ? edited(old, entry) : old));
  else if (last.fresh && entry.createdAt) last.entries = [summary(entry), ...last.entries];
  if (lastSearch) lastSearch.results = lastSearch.results.map((r) => (r.entry.id === id ? { ...r, entry: edited(r.entry, entry) } : r));
  for (const view of views) view.changed(id);
};
autosave.events.addEventListener('saved', update);
autosave.events.addEventListener('replaced', update);
autosave.events.addEventListener('trashed', (e) => forgetEntry(e.detail.id));
// Sent: the row on show no longer says it waits.
autosave.events.addEventListener('saved', (e) => {
  for (const mark of document.querySelectorAll(`.row[data-id="${e.detail.id}"] .waiting`)) mark.remove();
});

/** Share and Delete (entryActions.js): loaded the first time a row's are used. */
const entryActions = () => import('./entryActions.js');

/** The entry is gone from the diary (in the trash): from the rows kept and on show too. */
export function forgetEntry(id) {
  last.entries = last.entries.filter((old) => old.id !== id);
  if (lastSearch) lastSearch.results = lastSearch.results.filter((r) => r.entry.id !== id);
  for (const view of views) view.removed(id);
}

/**
 * The list; `offline`: the server has not answered yet, so this browser's drafts show, then the
 * entries kept on this device (device.js).
 * `user`: the name of who is logged in, said in the account's menu. `query`: the words of the
 * search to show (from the address).
 */
export function showList(root, { offline = false, user = null, query = '' } = {}) {
  const journal = h('div', { class: 'journal' });
  const results = h('ul', { class: 'entries results', 'aria-label': t.search, hidden: true });
  const notice = h('div', { class: 'notice', hidden: true });
  const searchField = h('input', {
    type: 'search', class: 'search-field', 'aria-label': t.search,
    placeholder: t.searchPlaceholder, autocomplete: 'off', enterkeyhint: 'search',
    // The server's limit, in characters (code points): as many UTF-16 units never pass it.
    maxlength: api.limits.searchLength,
  });
  // Beside an entry (a wide screen) the entry's page is the main landmark.
  const main = h(root.closest('.split') ? 'div' : 'main', { class: 'column list-screen' },
    // Searching needs the server.
    h('form', { class: 'search', role: 'search', hidden: offline, onsubmit: (e) => e.preventDefault() },
      icon('search'), searchField),
    notice, journal, results);
  const bar = header(offline, user);
  root.append(bar, main);
  // The list scrolls in its own pane beside an entry on a wide screen, else with the page.
  const scroller = root.closest('.pane-list') ?? document.scrollingElement;
  const observedScroller = root.closest('.pane-list');
  // The month headers stick under the bar, whatever its height (it grows with a save message).
  const barSize = new ResizeObserver(() => main.style.setProperty('--bar-height', `${bar.offsetHeight}px`));
  barSize.observe(bar);

  const context = { swipe: { close() {} }, query: '', offline };
  // Only a touch screen swipes (a mouse uses the row's menu): the module comes when there is one.
  // Offline rows have nothing to reveal: Share and Delete need the server.
  if (!offline && matchMedia('(any-pointer: coarse)').matches) {
    import('./swipe.js').then((m) => main.isConnected && (context.swipe = m.enableSwipe(main)), () => {});
  }
  let stopPaging = () => {};
  let append = grouped(journal, context);

  // Fetches the list from its first page (the kept rows are out of date, or there are none).
  const load = () => {
    journal.replaceChildren();
    main.querySelector('.stale-note')?.remove();
    append = grouped(journal, context);
    notice.hidden = true;
    stopPaging();
    // New entries still waiting to be sent are not on the server yet: they come first.
    const drafted = append(kept(true));
    const shown = new Set(drafted.map((li) => li.dataset.id));
    stopPaging = paged(journal, {
      scroller: observedScroller,
      fetchPage: async (cursor) => {
        // Offline, the device's copy (device.js), under the note that it may be old.
        // The first page brings on this day with it (onThisDay).
        const page = await device.listEntries(cursor, user, undefined, cursor ? '' : onThisDayQuery());
        if (page.kept && !cursor && main.isConnected) staleNote(journal);
        const entries = cursor ? [...last.entries, ...page.entries] : page.entries;
        // A later page may land after the writer left for an entry: the scroll they left at stays.
        last = { user, entries, cursor: page.nextCursor, scroll: cursor ? last.scroll : 0, fresh: !page.kept };
        return { ...page, entries: page.entries.filter((entry) => !shown.has(entry.id)) };
      },
      append: (entries) => append(entries.map(withDraft)),
      onFirst: (page) => {
        if (page.entries.length && page.onThisDay) memories({ years: page.onThisDay.years, all: !page.onThisDay.earlier });
        return page.entries.length || drafted.length || showEmpty(notice);
      },
      onError: () => showLast(journal, user, append) || showError(notice),
    });
  };

  // Offline: what was written here and not sent yet comes first, and opens in the editor as
  // usual; then the entries kept on this device; the rest of the diary comes with the server.
  const showKept = () => autosave.ready.then(() => {
    if (!main.isConnected) return;
    journal.replaceChildren();
    append = grouped(journal, context);
    notice.hidden = true;
    stopPaging();
    const drafted = append(kept());
    const shown = new Set(drafted.map((li) => li.dataset.id));
    stopPaging = paged(journal, {
      scroller: observedScroller,
      fetchPage: async (cursor) => {
        const page = await device.keptPage(cursor);
        return { ...page, entries: page.entries.filter((entry) => !shown.has(entry.id)) };
      },
      append: (entries) => append(entries.map(withDraft)),
      // Sending is held until the server answers; reading the device's copy is not.
      evenHeld: true,
      onFirst: (page) => {
        if (page.entries.length) return;
        notice.replaceChildren(h('p', {}, t.listOffline));
        if (autosave.drafts.othersWaiting()) notice.append(h('p', {}, t.keptForWriter));
        notice.hidden = false;
      },
    });
  });

  // The kept rows drawn again (new entries waiting to be sent first), the scroll kept.
  const redraw = () => {
    const scroll = scroller.scrollTop;
    journal.replaceChildren();
    notice.hidden = true;
    append = grouped(journal, context);
    append([...kept(true).filter((entry) => !last.entries.some((e) => e.id === entry.id)), ...last.entries.map(withDraft)]);
    scroller.scrollTop = scroll;
  };

  // What was written on this day in earlier years starts the list (drawOnThisDay): the nearest
  // few years, and the rest when the writer asks (a diary of 20 years would otherwise push
  // today's entries a screen down, and weigh a third of the first visit).
  const memories = (found) => {
    onThisDay = found;
    const { years, all } = found;
    if (!years.length) return;
    const more = all ? null : () => askOnThisDay().then((a) => main.isConnected && memories({ years: a.years, all: true }));
    drawOnThisDay(journal, years, (entry) => row(entry, context), more);
  };

  // The rows kept from the last visit, as they were; the next page where they ended.
  const restore = () => {
    redraw();
    memories(onThisDay);
    stopPaging = paged(journal, {
      scroller: observedScroller,
      resume: last.cursor,
      fetchPage: async (cursor) => {
        const page = await device.listEntries(cursor, user);
        last.entries = [...last.entries, ...page.entries];
        last.cursor = page.nextCursor;
        return page;
      },
      append: (entries) => append(entries.map(withDraft)),
    });
  };

  const view = {
    changed(id) {
      const old = journal.querySelector(`.row[data-id="${id}"]`);
      const entry = last.entries.find((e) => e.id === id);
      if (old && entry) old.replaceWith(row(withDraft(entry), context));
      // A new entry: the rows are drawn again with it first.
      else if (!old && entry && last.entries[0] === entry && !offline) redraw();
    },
    removed(id) {
      journal.querySelector(`.row[data-id="${id}"]`)?.remove();
      for (const month of journal.querySelectorAll('.month-group')) if (!month.querySelector('.row')) month.remove();
      // The last one: the empty diary shows (or the next page, if there is one).
      if (!journal.querySelector('.row') && !offline) load();
    },
  };
  views.add(view);

  // Beside an entry (a wide screen), its row is marked as the one open.
  const markOpen = () => {
    for (const link of main.querySelectorAll('.row-link')) {
      if (link.getAttribute('href') === location.hash) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
  };
  const marking = new MutationObserver(markOpen);
  marking.observe(main, { childList: true, subtree: true });
  addEventListener('hashchange', markOpen);
  // Beside the editor (a wide screen), the list shows what was written there and not sent yet:
  // offline, the drafts kept in this browser; else the edits that wait, in their rows, and the
  // new entries that wait first.
  const keptAgain = () => {
    if (offline) return showKept();
    const shown = (id) => journal.querySelector(`.row[data-id="${id}"]`);
    if (last.user === user && kept(true).some((entry) => !shown(entry.id))) redraw();
    else for (const id of autosave.drafts.waiting().keys()) view.changed(id);
  };
  addEventListener('hashchange', keptAgain);

  if (offline) {
    journal.after(notice);
    showKept();
  } else if (last.fresh && last.user === user && last.entries.length) {
    restore();
    if (!query) scroller.scrollTop = last.scroll;
  } else {
    // Let a save started as the writer left the editor land first, so the
    // list shows what they just wrote.
    autosave.settled().then(() => main.isConnected && load());
  }

  let searchTimer = null;
  let searchSerial = 0;
  const showResults = (found, words) => {
    context.query = words;
    results.replaceChildren(...found.map((r) => row(r.entry, context, r.snippet)));
    if (!found.length) results.append(h('li', { class: 'notice' }, t.noResults));
    journal.hidden = true;
    results.hidden = false;
  };
  const search = async (words) => {
    const serial = ++searchSerial;
    context.query = words;
    showingList(words ? `#/search?q=${encodeURIComponent(words)}` : '#/');
    if (!words) {
      lastSearch = null;
      results.hidden = true;
      journal.hidden = false;
      return;
    }
    try {
      const found = await api.search(words);
      if (serial !== searchSerial) return; // a newer search is under way
      lastSearch = { query: words, results: found.results, scroll: 0 };
      showResults(found.results, words);
    } catch (error) {
      // A refused or stopped search (too many words, too slow) says why, in the server's words.
      const said = error instanceof api.ApiError && error.code && error.status !== 401;
      if (serial === searchSerial) toast(said ? error.message : t.loadFailed);
    }
  };
  searchField.addEventListener('input', () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => search(searchField.value.trim()), SEARCH_DELAY_MS);
  });
  // A search in the address (a reload, or Back from one of its results): shown again, from
  // memory when it was the last one, scrolled as it was.
  if (query && !offline) {
    searchField.value = query;
    if (lastSearch?.query === query) {
      showResults(lastSearch.results, query);
      scroller.scrollTop = lastSearch.scroll;
    } else {
      search(query);
    }
  }

  // A new entry from the keyboard, on a computer: the compose button's shortcut.
  const onKey = (e) => {
    const n = e.key === COMPOSE_KEY || e.key === COMPOSE_KEY.toUpperCase()
      || (e.code === 'KeyN' && !/^[a-z]$/i.test(e.key)); // a Korean keyboard types ㅜ there
    if (!n || e.ctrlKey || e.metaKey || e.altKey || e.isComposing || e.repeat) return;
    // Not while typing, nor behind a dialog.
    if (e.target.closest?.('input, textarea, select, [contenteditable]') || document.querySelector('dialog[open]')) return;
    e.preventDefault();
    go('#/new');
  };
  document.addEventListener('keydown', onKey);

  return () => {
    // Where the writer was, for the way back.
    if (context.query && lastSearch) lastSearch.scroll = scroller.scrollTop;
    else if (!offline && last.user === user) last.scroll = scroller.scrollTop;
    views.delete(view);
    barSize.disconnect();
    marking.disconnect();
    removeEventListener('hashchange', markOpen);
    removeEventListener('hashchange', keptAgain);
    document.removeEventListener('keydown', onKey);
    stopPaging();
    clearTimeout(searchTimer);
  };
}

// Offline there is no trash to open and no one to log out: both live on the server.
function header(offline, user) {
  // The account's menu (and logging out) loads when first opened.
  const account = () => import('./account.js').then((m) => m.showAccount(user), () => toast(t.loadFailed));
  const key = COMPOSE_KEY.toUpperCase();
  return h('header', { class: 'bar' },
    h('div', { class: 'bar-inner' },
      h('h1', { class: 'app-name' }, t.appName),
      offline ? null : iconButton('account', t.account, { 'aria-haspopup': 'dialog', onclick: account }),
      offline ? null : iconLink('calendar', t.calendar, '#/calendar'),
      offline ? null : iconLink('trash', t.trash, '#/trash'),
      // On a phone a round button at the bottom corner, in reach of the thumb; on a computer
      // a button in the bar, with a shortcut.
      h('a', {
        class: 'compose', href: '#/new', 'aria-label': t.newEntry,
        title: t.shortcut(t.newEntry, key), 'aria-keyshortcuts': COMPOSE_KEY,
      }, icon('new'), h('span', { class: 'compose-label', 'aria-hidden': 'true' }, t.newEntry))));
}

/**
 * Puts rows into `journal` under a header for each month, newest first, continuing the last
 * month as the next page comes. Returns the function that adds rows (and returns them).
 */
export function grouped(journal, context) {
  let month = null;
  let list = null;
  return (entries) => entries.map((entry) => {
    const { month: its } = localDay(entry.createdAt, entry.timeZone);
    if (its !== month) {
      month = its;
      const id = `month-${its}-${++groups}`;
      list = h('ul', { class: 'entries', 'aria-labelledby': id });
      journal.append(h('section', { class: 'month-group' },
        h('h2', { class: 'month', id }, formatAs('month', entry.createdAt, entry.timeZone)), list));
    }
    const li = row(entry, context);
    list.append(li);
    return li;
  });
}
let groups = 0; // for the month headers' ids
let onThisDay = { years: [], all: true }; // the earlier years' entries of this day, as last asked
const FEW_YEARS = 3; // on this day shows the nearest years with entries, the rest when asked

/**
 * On this day: what was written on today's date in earlier years, at the top of the list: the
 * newest entry of each year under its "1 year ago", and a link to all of that day; the nearest
 * years first, and a button for the earlier ones. Puts `years` before `journal`, each entry
 * drawn by `row` (the list's own rows); `more`, when given, fetches and draws the earlier years
 * (a button under the nearest ones).
 */
function drawOnThisDay(journal, years, row, more) {
  const today = localDay(new Date()).day; // YYYY-MM-DD
  const dayIn = (yearsAgo) => `${String(Number(today.slice(0, 4)) - yearsAgo).padStart(4, '0')}${today.slice(4)}`;
  journal.parentNode?.querySelector('.on-this-day')?.remove();
  journal.before(h('section', { class: 'on-this-day', 'aria-labelledby': 'on-this-day' },
    h('h2', { class: 'month', id: 'on-this-day' }, t.onThisDay),
    ...years.map((year) => h('section', {},
      h('div', { class: 'years-ago' }, h('h3', {}, t.yearsAgo(year.yearsAgo)),
        h('a', { href: `#/browse?from=${dayIn(year.yearsAgo)}&to=${dayIn(year.yearsAgo)}`, class: 'years-ago-all', 'aria-label': t.allOfIt(year.yearsAgo) }, t.allOfThatDay)),
      h('ul', { class: 'entries' }, ...year.entries.map(row)))),
    more && h('button', {
      type: 'button',
      class: 'years-earlier',
      onclick: ({ currentTarget: button }) => {
        button.disabled = true;
        more().catch(() => { button.disabled = false; });
      },
    }, t.earlierYears)));
}

const zone = () => encodeURIComponent(Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');

/** The newest entry of each earlier year on today's date, the writer's day (Earlier years). */
function askOnThisDay() {
  return api.get(`on-this-day?date=${localDay(new Date()).day}&timeZone=${zone()}&perYear=1`);
}

/**
 * The same for the nearest few years, asked with the list's first page: one answer, on this day
 * and the rows together (a request less, and their words compressed together, 0.4 KB of a
 * first visit on a diary of many years).
 */
function onThisDayQuery() {
  return `&onThisDay=${localDay(new Date()).day}&timeZone=${zone()}&onThisDayYears=${FEW_YEARS}`;
}

export function row(entry, context, snippet) {
  const title = entry.title.trim();
  const mark = (text) => (context.query ? highlight(text, context.query) : text);
  const li = h('li', { class: 'row', 'data-id': entry.id });
  // Offline, or for an entry not on the server yet, a row only opens its entry: Share and
  // Delete need the server.
  if (context.offline || entry.local) return li.append(h('div', { class: 'row-main' }, rowLink(entry, mark, snippet))), li;
  const share = async () => {
    context.swipe.close();
    try {
      const [actions, found] = await Promise.all([entryActions(), api.getEntry(entry.id)]);
      await actions.shareEntry(found);
    } catch {
      toast(t.loadFailed);
    }
  };
  const removed = () => {
    li.remove(); // a search result; a row of the journal goes with the rest (forgetEntry)
    forgetEntry(entry.id);
  };
  const remove = () => entryActions().then((m) => m.deleteEntry(entry.id, { onDeleted: removed, onRestored: refresh }),
    () => toast(t.loadFailed));
  // Starred (or not) as the entry's next version; the row is drawn again with it.
  const star = async () => {
    context.swipe.close();
    const starred = { starred: !entry.starred };
    const patch = (version) => api.patchEntry(entry.id, version, starred);
    try {
      // Changed elsewhere since the row was drawn: the star is set on what is there now.
      const changed = autosave.announce(await patch(autosave.version(entry.id) ?? entry.version)
        .catch((error) => (error.status === 409 && error.current ? patch(error.current.version) : Promise.reject(error))));
      if (li.isConnected) li.replaceWith(row({ ...entry, starred: changed.starred, version: changed.version }, context, snippet));
    } catch {
      toast(t.loadFailed);
    }
  };
  const starLabel = entry.starred ? t.unstar : t.star;
  li.append(
    h('div', { class: 'row-actions' },
      h('button', { type: 'button', class: 'swipe-star', onclick: star }, starLabel),
      h('button', { type: 'button', class: 'swipe-share', onclick: share }, t.share),
      h('button', { type: 'button', class: 'swipe-delete', onclick: remove }, t.delete)),
    h('div', { class: 'row-main' },
      rowLink(entry, mark, snippet),
      iconButton('more', t.moreFor(title || t.untitled), {
        class: 'icon-button row-more', 'aria-haspopup': 'dialog',
        onclick: async () => {
          const dialogs = await import('./dialogs.js').catch(() => null);
          if (!dialogs) return void toast(t.loadFailed);
          const choice = await dialogs.chooseAction(t.actionsFor(title || t.untitled), [
            { value: 'star', label: starLabel },
            { value: 'share', label: t.share },
            { value: 'delete', label: t.delete, danger: true },
          ]);
          if (choice === 'star') star();
          if (choice === 'share') share();
          if (choice === 'delete') remove();
        },
      })));
  return li;
}

/**
 * A row: the day and weekday at its side; the title; when (today, yesterday, or for a search
 * result, which has no month header, the date) and the time of day, with the weather; then the
 * first lines of the text. A screen reader hears the date in full.
 */
function rowLink(entry, mark, snippet) {
  const title = entry.title.trim();
  const { createdAt: at, timeZone: zone } = entry; // its moment, in its writer's zone (i18n.js)
  const near = nearDay(at, zone);
  const when = near ?? (snippet == null ? null : formatDate(at, zone));
  return h('a', { class: 'row-link', href: `#/entry/${entry.id}` },
    h('span', { class: 'row-day', 'aria-hidden': 'true' },
      h('span', { class: 'row-date' }, formatAs('day', at, zone)),
      h('span', { class: 'row-weekday' }, formatAs('weekday', at, zone))),
    h('span', { class: 'row-text' },
      h('span', { class: title ? 'row-title' : 'row-title untitled' }, title ? mark(title) : t.untitled),
      h('span', { class: 'row-meta' },
        h('time', { datetime: at },
          when ? h('span', { class: near ? 'row-when row-near' : 'row-when' }, when)
            : h('span', { class: 'visually-hidden' }, `${formatDate(at, zone)}, `),
          h('span', { class: 'row-time' }, formatAs('time', at, zone))),
        weatherIcon(entry.weather),
        entry.starred ? h('span', { class: 'row-star', role: 'img', 'aria-label': t.starred }, '★') : null,
        entry.waiting ? waitingMark() : null),
      // A search result shows its snippet, so the marked words are seen.
      snippet == null
        ? h('span', { class: 'row-excerpt' }, entry.excerpt)
        : h('span', { class: 'row-snippet' }, mark(snippet)),
      entry.tags?.length ? tagChips(entry.tags) : null),
    entry.photo ? h('img', { class: 'row-photo', src: `api/v1/photos/${entry.photo}/thumbnail`, alt: '', loading: 'lazy', width: 64, height: 64 }) : null);
}

/**
 * The weather's icon (they ship with the app, icons/weather/<icon>.svg), named by `alt` (a row's
 * says the weather in words; the editor's has them beside it) and a tooltip.
 */
export function weatherIcon(weather, alt) {
  if (!weather?.icon) return null;
  return h('img', {
    class: 'weather', src: `icons/weather/${encodeURIComponent(weather.icon)}.svg`, width: 18, height: 18,
    alt: alt ?? weatherWords(weather), title: weatherSummary(weather),
  });
}

/** An entry's tags as small chips, read out as "Tags: travel, food". */
export function tagChips(tags) {
  return h('span', { class: 'tags' }, h('span', { class: 'visually-hidden' }, `${t.tags}: `),
    ...tags.flatMap((tag, i) => [i ? h('span', { class: 'visually-hidden' }, ', ') : null, h('span', { class: 'tag' }, tag)]));
}

/**
 * The drafts kept in this browser (`onlyNew`: of entries not on the server yet), newest first,
 * as the list's entries, marked as waiting to be sent.
 */
function kept(onlyNew = false) {
  return [...autosave.drafts.waiting().values()]
    .filter((draft) => !onlyNew || draft.base == null)
    .sort((a, b) => b.created.localeCompare(a.created))
    .map(({ id, title, body, created, weather, photos }) => ({
      id, title, createdAt: created, weather, excerpt: device.excerptOf(body), waiting: true, local: onlyNew,
      photo: photos?.[0]?.id,
    }));
}

/** The row's entry as its writer left it: words not sent yet show, marked as waiting. */
function withDraft(entry) {
  const draft = autosave.drafts.waiting().get(entry.id);
  return draft ? { ...edited(entry, draft), waiting: true } : entry;
}

/** Says that the row's words wait in this browser to be sent (the outbox). */
function waitingMark() {
  return h('span', { class: 'waiting' }, icon('waiting'), t.waiting);
}

/** A row's entry with a newer title and body, as the server would list it. */
function edited(entry, { title, body, weather, tags, starred, version, photos }) {
  return { ...entry, title, excerpt: device.excerptOf(body), weather: weather ?? entry.weather,
    photo: photos ? photos[0]?.id : entry.photo,
    tags: tags ?? entry.tags, starred: starred ?? entry.starred, version: version ?? entry.version };
}

/** An entry as the list's page gives it: its body cut to the excerpt. */
function summary({ id, title, body, createdAt, timeZone, weather, version, tags, starred, photos }) {
  return { id, title, createdAt, timeZone, weather, version, tags, starred, excerpt: device.excerptOf(body), photo: photos?.[0]?.id };
}

/** The empty diary invites its first entry; the sample diary is there to look around first. */
function showEmpty(notice) {
  const sample = h('button', { type: 'button', class: 'link-button' }, t.loadSample);
  sample.addEventListener('click', async () => {
    sample.disabled = true;
    try {
      await api.loadSample();
    } catch (error) {
      if (error.code !== 'not_empty') return toast(t.loadFailed), (sample.disabled = false);
    }
    refresh();
  });
  notice.replaceChildren(
    h('p', { class: 'empty-title' }, t.empty),
    h('p', {}, t.emptyInvite),
    h('a', { class: 'button primary', href: '#/new' }, icon('new'), t.writeFirst),
    h('p', { class: 'empty-sample' }, t.orSample, ' ', sample));
  notice.classList.add('empty');
  notice.hidden = false;
}

/**
 * The rows the list showed last, if they are this writer's, under a note that they may be old.
 * An edit still waiting in this browser (not sent yet) shows as written.
 */
function showLast(journal, user, append) {
  if (last.user !== user || !last.entries.length) return false;
  staleNote(journal);
  append(last.entries.map(withDraft));
  return true;
}

function staleNote(journal) {
  journal.before(h('p', { class: 'offline-note stale-note', role: 'status' },
    h('span', {}, t.listStale),
    h('button', { type: 'button', onclick: () => refresh() }, t.tryAgain)));
}

function showError(notice) {
  notice.replaceChildren(
    h('p', {}, t.loadFailed),
    h('button', { type: 'button', class: 'button', onclick: () => refresh() }, t.tryAgain));
  notice.hidden = false;
}

// -- Infinite scroll, for the list and the trash: the next page loads when the end of the rows
// comes near.

/**
 * fetchPage(cursor) -> {entries, nextCursor}; append(entries) puts their rows after `end`'s
 * last one and returns them. onFirst(page) runs after the first page (for the empty state),
 * onError(error) if the first page fails. A later page that fails is said at the end of the
 * rows, where it would have come, with a way to try again; the rows shown stay.
 * `scroller`: the element that scrolls the rows (null: the page). `resume`: the cursor of the
 * next page, for rows put back as they were (the first page is not fetched again). `evenHeld`:
 * pages come while sending is held too (the device's copy, offline at start).
 * Returns a function that stops it.
 */
export function paged(end, { fetchPage, append, onFirst, onError, scroller = null, resume, evenHeld = false }) {
  let cursor = resume ?? null;
  let first = resume === undefined;
  let loading = false;
  let done = resume === null;
  const sentinel = h('div', { class: 'sentinel', 'aria-hidden': 'true' });
  const retry = () => {
    done = false;
    more();
  };
  const failed = h('p', { class: 'offline-note stale-note', role: 'status' },
    h('span', {}, t.moreFailed),
    h('button', { type: 'button', onclick: retry }, t.tryAgain));
  end.after(sentinel);
  const observer = new IntersectionObserver(
    (seen) => seen.some((s) => s.isIntersecting) && more(),
    { root: scroller, rootMargin: '0px 0px 600px 0px' },
  );

  async function more() {
    // Held: its writer is logging out, or has (the next login draws the list again).
    if (loading || done || (autosave.isHeld() && !evenHeld)) return;
    loading = true;
    try {
      const page = await fetchPage(cursor);
      // Focus on Try again moves on to the first row that came, not to the top of the page.
      const refocus = failed.contains(document.activeElement);
      failed.remove();
      const rows = append(page.entries);
      if (refocus) rows[0]?.querySelector('a, button')?.focus();
      cursor = page.nextCursor;
      done = !cursor;
      if (first) onFirst?.(page);
      first = false;
    } catch (error) {
      done = true; // the error view or the note offers to try again
      if (first) onError?.(error);
      else sentinel.before(failed);
    } finally {
      loading = false;
    }
    // Observing again reports the sentinel afresh if it is still in view.
    observer.unobserve(sentinel);
    if (!done) observer.observe(sentinel);
  }

  if (!done) observer.observe(sentinel);
  return () => {
    observer.disconnect();
    sentinel.remove(); // the list may page again from its start, with a sentinel of its own
    failed.remove();
  };
}
