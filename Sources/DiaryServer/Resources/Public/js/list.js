// The list: the diary as a journal, newest first, under a header for each month; a search
// whose words are in the address (#/search?q=…); the next rows as the writer scrolls.
// Back from an entry the list is as the writer left it: the same rows, scrolled as they were.
// On this day's earlier years come first (drawOnThisDay, below: a module of its own weighed a
// kilobyte of a first visit, half of it the request's headers). The rows themselves, with their
// Share and Delete, and their months are rows.js's; the infinite scroll is paging.js's
// (the browse views and the trash use them too).

import * as api from './api.js';
import * as autosave from './autosave.js';
import * as device from './device.js';
import { h, icon, iconButton, iconLink, toast } from './dom.js';
import { localDay, t } from './i18n.js';
import { paged } from './paging.js';
import { go, navigation, refresh, showingList } from './router.js';
import { grouped, row } from './rows.js';

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
// Gone from the diary: emptied by its writer, or deleted from a row or from the editor.
autosave.events.addEventListener('trashed', (e) => forgetEntry(e.detail.id));
autosave.events.addEventListener('removed', (e) => forgetEntry(e.detail.id));
// Sent: the row on show no longer says it waits.
autosave.events.addEventListener('saved', (e) => {
  for (const mark of document.querySelectorAll(`.row[data-id="${e.detail.id}"] .waiting`)) mark.remove();
});

/** The entry is gone from the diary (in the trash): from the rows kept and on show too. */
function forgetEntry(id) {
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
  const list = drawList(root, offline, user);
  swipeOnTouch(list);
  const view = watchEntries(list);
  const stopMarking = markOpenRow(list.main);
  const stopWaiting = showWaitingBeside(list, view);
  showFirstRows(list, query);
  const stopSearch = searchAsTyped(list, query);
  const stopShortcut = composeShortcut();

  return () => {
    // Where the writer was, for the way back.
    if (list.context.query && lastSearch) lastSearch.scroll = list.scroller.scrollTop;
    else if (!offline && last.user === user) last.scroll = list.scroller.scrollTop;
    views.delete(view);
    list.barSize.disconnect();
    stopMarking();
    stopWaiting();
    stopShortcut();
    list.stopPaging();
    stopSearch();
  };
}

/**
 * Draws the list's bar, search field, journal (the rows under their months), search results and
 * notice into `root`. Returns them, with what the list's parts share: the rows' context, the
 * function that adds rows (`append`) and the one that stops paging (`stopPaging`).
 */
function drawList(root, offline, user) {
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
  // The month headers stick under the bar, whatever its height (it grows with a save message).
  const barSize = new ResizeObserver(() => main.style.setProperty('--bar-height', `${bar.offsetHeight}px`));
  barSize.observe(bar);
  const context = { swipe: { close() {} }, query: '', offline };
  return {
    offline, user, main, journal, results, notice, searchField, barSize, context,
    // The list scrolls in its own pane beside an entry on a wide screen, else with the page.
    scroller: root.closest('.pane-list') ?? document.scrollingElement,
    observedScroller: root.closest('.pane-list'),
    append: grouped(journal, context),
    stopPaging: () => {},
  };
}

// Only a touch screen swipes (a mouse uses the row's menu): the module comes when there is one.
// Offline rows have nothing to reveal: Share and Delete need the server.
function swipeOnTouch({ offline, main, context }) {
  if (!offline && matchMedia('(any-pointer: coarse)').matches) {
    import('./swipe.js').then((m) => main.isConnected && (context.swipe = m.enableSwipe(main)), () => {});
  }
}

/** The rows go: the next ones come under new month headers. */
function clearRows(list) {
  list.journal.replaceChildren();
  list.notice.hidden = true;
  list.append = grouped(list.journal, list.context);
}

/** What the list shows first: the device's rows offline, the rows kept from the last visit, or the first page. */
function showFirstRows(list, query) {
  const { offline, user, journal, notice, main, scroller } = list;
  if (offline) {
    journal.after(notice);
    showKept(list);
  } else if (last.fresh && last.user === user && last.entries.length) {
    restoreLast(list);
    if (!query) scroller.scrollTop = last.scroll;
  } else {
    // Let a save started as the writer left the editor land first, so the
    // list shows what they just wrote.
    autosave.settled().then(() => main.isConnected && loadFirstPage(list));
  }
}

/** Fetches the list from its first page (the kept rows are out of date, or there are none). */
function loadFirstPage(list) {
  const { user, journal, notice, main } = list;
  main.querySelector('.stale-note')?.remove();
  clearRows(list);
  list.stopPaging();
  // New entries still waiting to be sent are not on the server yet: they come first.
  const drafted = list.append(kept(true));
  const shown = new Set(drafted.map((li) => li.dataset.id));
  list.stopPaging = paged(journal, {
    scroller: list.observedScroller,
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
    append: (entries) => list.append(entries.map(withDraft)),
    onFirst: (page) => {
      if (page.entries.length && page.onThisDay) showMemories(list, { years: page.onThisDay.years, all: !page.onThisDay.earlier });
      return page.entries.length || drafted.length || showEmpty(notice);
    },
    onError: () => showLast(journal, user, list.append) || showError(notice),
  });
}

/**
 * Offline: what was written here and not sent yet comes first, and opens in the editor as
 * usual; then the entries kept on this device; the rest of the diary comes with the server.
 */
function showKept(list) {
  return autosave.ready.then(() => {
    if (!list.main.isConnected) return;
    clearRows(list);
    list.stopPaging();
    const drafted = list.append(kept());
    const shown = new Set(drafted.map((li) => li.dataset.id));
    list.stopPaging = paged(list.journal, {
      scroller: list.observedScroller,
      fetchPage: async (cursor) => {
        const page = await device.keptPage(cursor);
        return { ...page, entries: page.entries.filter((entry) => !shown.has(entry.id)) };
      },
      append: (entries) => list.append(entries.map(withDraft)),
      // Sending is held until the server answers; reading the device's copy is not.
      evenHeld: true,
      onFirst: (page) => {
        if (page.entries.length) return;
        list.notice.replaceChildren(h('p', {}, t.listOffline));
        if (autosave.drafts.othersWaiting()) list.notice.append(h('p', {}, t.keptForWriter));
        list.notice.hidden = false;
      },
    });
  });
}

/** The kept rows drawn again (new entries waiting to be sent first), the scroll kept. */
function redraw(list) {
  const scroll = list.scroller.scrollTop;
  clearRows(list);
  list.append([...kept(true).filter((entry) => !last.entries.some((e) => e.id === entry.id)), ...last.entries.map(withDraft)]);
  list.scroller.scrollTop = scroll;
}

/**
 * What was written on this day in earlier years starts the list (drawOnThisDay): the nearest
 * few years, and the rest when the writer asks (a diary of 20 years would otherwise push
 * today's entries a screen down, and weigh a third of the first visit).
 */
function showMemories(list, found) {
  onThisDay = found;
  const { years, all } = found;
  if (!years.length) return;
  const more = all ? null : () => askOnThisDay().then((a) => list.main.isConnected && showMemories(list, { years: a.years, all: true }));
  drawOnThisDay(list.journal, years, (entry) => row(entry, list.context), more);
}

/** The rows kept from the last visit, as they were; the next page where they ended. */
function restoreLast(list) {
  redraw(list);
  showMemories(list, onThisDay);
  list.stopPaging = paged(list.journal, {
    scroller: list.observedScroller,
    resume: last.cursor,
    fetchPage: async (cursor) => {
      const page = await device.listEntries(cursor, list.user);
      last.entries = [...last.entries, ...page.entries];
      last.cursor = page.nextCursor;
      return page;
    },
    append: (entries) => list.append(entries.map(withDraft)),
  });
}

/** The list on show, changed in place as its entries change (`views`); returns it. */
function watchEntries(list) {
  const { journal, context, offline } = list;
  const view = {
    changed(id) {
      const old = journal.querySelector(`.row[data-id="${id}"]`);
      const entry = last.entries.find((e) => e.id === id);
      if (old && entry) old.replaceWith(row(withDraft(entry), context));
      // A new entry: the rows are drawn again with it first.
      else if (!old && entry && last.entries[0] === entry && !offline) redraw(list);
    },
    removed(id) {
      journal.querySelector(`.row[data-id="${id}"]`)?.remove();
      for (const month of journal.querySelectorAll('.month-group')) if (!month.querySelector('.row')) month.remove();
      // The last one: the empty diary shows (or the next page, if there is one).
      if (!journal.querySelector('.row') && !offline) loadFirstPage(list);
    },
  };
  views.add(view);
  return view;
}

/** Beside an entry (a wide screen), its row is marked as the one open. Returns what stops it. */
function markOpenRow(main) {
  const markOpen = () => {
    for (const link of main.querySelectorAll('.row-link')) {
      if (link.getAttribute('href') === location.hash) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
  };
  const marking = new MutationObserver(markOpen);
  marking.observe(main, { childList: true, subtree: true });
  addEventListener('hashchange', markOpen);
  return () => {
    marking.disconnect();
    removeEventListener('hashchange', markOpen);
  };
}

/**
 * Beside the editor (a wide screen), the list shows what was written there and not sent yet:
 * offline, the drafts kept in this browser; else the edits that wait, in their rows, and the
 * new entries that wait first. Returns what stops it.
 */
function showWaitingBeside(list, view) {
  const keptAgain = () => {
    if (list.offline) return showKept(list);
    const shown = (id) => list.journal.querySelector(`.row[data-id="${id}"]`);
    if (last.user === list.user && kept(true).some((entry) => !shown(entry.id))) redraw(list);
    else for (const id of autosave.drafts.waiting().keys()) view.changed(id);
  };
  addEventListener('hashchange', keptAgain);
  return () => removeEventListener('hashchange', keptAgain);
}

/**
 * The search: its words go to the server a moment after the writer stops typing, and its
 * results take the journal's place; a search in the address (a reload, or Back from one of its
 * results) shows again, from memory when it was the last one, scrolled as it was. Returns what
 * stops it.
 */
function searchAsTyped(list, query) {
  const { offline, journal, results, searchField, scroller, context } = list;
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
  if (query && !offline) {
    searchField.value = query;
    if (lastSearch?.query === query) {
      showResults(lastSearch.results, query);
      scroller.scrollTop = lastSearch.scroll;
    } else {
      search(query);
    }
  }
  return () => clearTimeout(searchTimer);
}

/** A new entry from the keyboard, on a computer: the compose button's shortcut. Returns what stops it. */
function composeShortcut() {
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
  return () => document.removeEventListener('keydown', onKey);
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

