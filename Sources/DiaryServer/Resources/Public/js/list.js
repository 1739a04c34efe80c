// The list: the diary as a journal, newest first, under a header for each month; a search
// whose words are in the address (#/search?q=…); the next rows as the writer scrolls; each row's
// Share and Delete (swipe on touch screens, the row's menu with a mouse or keyboard).
// Back from an entry the list is as the writer left it: the same rows, scrolled as they were.

import * as api from './api.js';
import { changes, deleteEntry, shareEntry } from './actions.js';
import * as autosave from './autosave.js';
import { chooseAction, h, highlight, icon, iconButton, iconLink, toast } from './dom.js';
import { formatAs, formatDate, localDay, nearDay, t } from './i18n.js';
import { paged } from './paging.js';
import { go, navigation, refresh, showingList } from './router.js';
import { weatherIcon } from './weather.js';

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
changes.addEventListener('trashed', (e) => forgetEntry(e.detail.id)); // deleted in the editor beside

function forgetEntry(id) {
  last.entries = last.entries.filter((old) => old.id !== id);
  if (lastSearch) lastSearch.results = lastSearch.results.filter((r) => r.entry.id !== id);
  for (const view of views) view.removed(id);
}

/**
 * The list; `offline`: the server has not answered yet, so only this browser's drafts show.
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
    // The server's limit is 256 characters; 256 UTF-16 units never pass it.
    maxlength: 256,
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
    append = grouped(journal, context);
    notice.hidden = true;
    stopPaging();
    stopPaging = paged(journal, {
      scroller: observedScroller,
      fetchPage: async (cursor) => {
        const page = await api.listEntries(cursor);
        const entries = cursor ? [...last.entries, ...page.entries] : page.entries;
        // A later page may land after the writer left for an entry: the scroll they left at stays.
        last = { user, entries, cursor: page.nextCursor, scroll: cursor ? last.scroll : 0, fresh: true };
        return page;
      },
      append: (entries) => append(entries),
      onFirst: (page) => page.entries.length || showEmpty(notice),
      onError: () => showLast(journal, user, append) || showError(notice),
    });
  };

  // The rows kept from the last visit, as they were; the next page where they ended.
  const restore = () => {
    append(last.entries.map(withDraft));
    stopPaging = paged(journal, {
      scroller: observedScroller,
      resume: last.cursor,
      fetchPage: async (cursor) => {
        const page = await api.listEntries(cursor);
        last.entries = [...last.entries, ...page.entries];
        last.cursor = page.nextCursor;
        return page;
      },
      append: (entries) => append(entries),
    });
  };

  const view = {
    changed(id) {
      const old = journal.querySelector(`.row[data-id="${id}"]`);
      const entry = last.entries.find((e) => e.id === id);
      if (old && entry) old.replaceWith(row(withDraft(entry), context));
      else if (!old && entry && last.entries[0] === entry && !offline) {
        // A new entry: the rows are drawn again with it first, the scroll kept.
        const scroll = scroller.scrollTop;
        journal.replaceChildren();
        notice.hidden = true;
        append = grouped(journal, context);
        append(last.entries.map(withDraft));
        scroller.scrollTop = scroll;
      }
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
  // offline, the drafts kept in this browser; else the edits that wait, in their rows.
  const keptAgain = () => {
    if (!offline) return void autosave.drafts.ids().forEach((id) => view.changed(id));
    journal.replaceChildren();
    append = grouped(journal, context);
    append(kept());
  };
  addEventListener('hashchange', keptAgain);

  if (offline) {
    // What was written here and not sent yet comes first, and opens in the editor as usual;
    // the rest of the diary comes with the server.
    append(kept());
    journal.after(notice);
    notice.replaceChildren(h('p', {}, t.listOffline));
    if (autosave.drafts.othersWaiting()) notice.append(h('p', {}, t.keptForWriter));
    notice.hidden = false;
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
function grouped(journal, context) {
  let month = null;
  let list = null;
  return (entries) => entries.map((entry) => {
    const { month: its } = localDay(entry.createdAt);
    if (its !== month) {
      month = its;
      const id = `month-${its}-${++groups}`;
      list = h('ul', { class: 'entries', 'aria-labelledby': id });
      journal.append(h('section', { class: 'month-group' },
        h('h2', { class: 'month', id }, formatAs('month', entry.createdAt)), list));
    }
    const li = row(entry, context);
    list.append(li);
    return li;
  });
}
let groups = 0; // for the month headers' ids

function row(entry, context, snippet) {
  const title = entry.title.trim();
  const mark = (text) => (context.query ? highlight(text, context.query) : text);
  const li = h('li', { class: 'row', 'data-id': entry.id });
  // Offline, a row only opens its entry: Share and Delete need the server.
  if (context.offline) return li.append(h('div', { class: 'row-main' }, rowLink(entry, mark, snippet))), li;
  const share = async () => {
    context.swipe.close();
    try {
      await shareEntry(await api.getEntry(entry.id));
    } catch {
      toast(t.loadFailed);
    }
  };
  const removed = () => {
    li.remove(); // a search result; a row of the journal goes with the rest (forgetEntry)
    forgetEntry(entry.id);
  };
  const remove = () => deleteEntry(entry.id, { onDeleted: removed, onRestored: refresh });
  li.append(
    h('div', { class: 'row-actions' },
      h('button', { type: 'button', class: 'swipe-share', onclick: share }, t.share),
      h('button', { type: 'button', class: 'swipe-delete', onclick: remove }, t.delete)),
    h('div', { class: 'row-main' },
      rowLink(entry, mark, snippet),
      iconButton('more', t.moreFor(title || t.untitled), {
        class: 'icon-button row-more', 'aria-haspopup': 'dialog',
        onclick: async () => {
          const choice = await chooseAction(t.actionsFor(title || t.untitled), [
            { value: 'share', label: t.share },
            { value: 'delete', label: t.delete, danger: true },
          ]);
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
  const at = entry.createdAt;
  const near = nearDay(at);
  const when = near ?? (snippet == null ? null : formatDate(at));
  return h('a', { class: 'row-link', href: `#/entry/${entry.id}` },
    h('span', { class: 'row-day', 'aria-hidden': 'true' },
      h('span', { class: 'row-date' }, formatAs('day', at)),
      h('span', { class: 'row-weekday' }, formatAs('weekday', at))),
    h('span', { class: 'row-text' },
      h('span', { class: title ? 'row-title' : 'row-title untitled' }, title ? mark(title) : t.untitled),
      h('span', { class: 'row-meta' },
        h('time', { datetime: at },
          when ? h('span', { class: near ? 'row-when row-near' : 'row-when' }, when)
            : h('span', { class: 'visually-hidden' }, `${formatDate(at)}, `),
          h('span', { class: 'row-time' }, formatAs('time', at))),
        weatherIcon(entry.weather)),
      // A search result shows its snippet, so the marked words are seen.
      snippet == null
        ? h('span', { class: 'row-excerpt' }, entry.excerpt)
        : h('span', { class: 'row-snippet' }, mark(snippet))));
}

/** The drafts kept in this browser, newest first, as the list's entries. */
function kept() {
  const { drafts } = autosave;
  return drafts.ids().map((id) => drafts.get(id))
    .filter((draft) => !drafts.isBlank(draft.title, draft.body))
    .sort((a, b) => b.created.localeCompare(a.created))
    .map(({ id, title, body, created }) => ({ id, title, createdAt: created, excerpt: excerptOf(body) }));
}

/** A kept row's entry as written here, when an edit still waits in this browser (not sent yet). */
function withDraft(entry) {
  const draft = autosave.drafts.get(entry.id);
  return draft ? edited(entry, draft) : entry;
}

/** A row's entry with a newer title and body, as the server would list it. */
function edited(entry, { title, body, weather }) {
  return { ...entry, title, excerpt: excerptOf(body), weather: weather ?? entry.weather };
}

/** An entry as the list's page gives it: its body cut to the excerpt. */
function summary({ id, title, body, createdAt, weather, version }) {
  return { id, title, createdAt, weather, version, excerpt: excerptOf(body) };
}

/** The first line of the body that is not blank, at most 200 characters, as the server's Excerpt. */
function excerptOf(body) {
  const line = body.split(/[\r\n]/).map((l) => l.trimStart()).find(Boolean) ?? '';
  return [...line].slice(0, 200).join('').trimEnd();
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
  journal.before(h('p', { class: 'offline-note stale-note', role: 'status' },
    h('span', {}, t.listStale),
    h('button', { type: 'button', onclick: () => refresh() }, t.tryAgain)));
  append(last.entries.map(withDraft));
  return true;
}

function showError(notice) {
  notice.replaceChildren(
    h('p', {}, t.loadFailed),
    h('button', { type: 'button', class: 'button', onclick: () => refresh() }, t.tryAgain));
  notice.hidden = false;
}
