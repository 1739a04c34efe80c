// The list: newest first, search, infinite scroll (the trash pages the same way),
// and each row's Share and Delete (swipe on touch screens, the row's menu with a
// mouse or keyboard).

import * as api from './api.js';
import { deleteEntry, shareEntry } from './actions.js';
import * as autosave from './autosave.js';
import { chooseAction, h, highlight, icon, iconButton, iconLink, toast } from './dom.js';
import { formatDate, t } from './i18n.js';
import { refresh } from './router.js';
import { weatherIcon } from './weather.js';

const SEARCH_DELAY_MS = 250;

// The entries the list last showed, and whose they are: back to the list while the connection
// is down, they show again instead of an error. Kept in memory only, for this page session.
let last = { user: null, entries: [] };

// What the writer saved since then shows in those rows instead of what was fetched before.
const update = (e) => {
  const { id, entry } = e.detail;
  last.entries = last.entries.map((old) => (old.id === id ? edited(old, entry) : old));
};
autosave.events.addEventListener('saved', update);
autosave.events.addEventListener('replaced', update);
autosave.events.addEventListener('trashed', (e) => {
  last.entries = last.entries.filter((old) => old.id !== e.detail.id);
});

/**
 * The list; `offline`: the server has not answered yet, so only this browser's drafts show.
 * `user`: the name of who is logged in, said in the account's menu.
 */
export function showList(root, { offline = false, user = null } = {}) {
  const entries = h('ul', { class: 'entries', 'aria-label': t.appName });
  const results = h('ul', { class: 'entries', 'aria-label': t.search, hidden: true });
  const notice = h('div', { class: 'notice', hidden: true });
  const searchField = h('input', {
    type: 'search', class: 'search-field', 'aria-label': t.search,
    placeholder: t.searchPlaceholder, autocomplete: 'off', enterkeyhint: 'search',
    // The server's limit is 256 characters; 256 UTF-16 units never pass it.
    maxlength: 256,
  });
  const main = h('main', { class: 'column' },
    // Searching needs the server.
    h('form', { class: 'search', role: 'search', hidden: offline, onsubmit: (e) => e.preventDefault() },
      icon('search'), searchField),
    notice, entries, results);
  root.append(header(offline, user), main);

  const swipe = enableSwipe(main);
  const context = { swipe, query: '' };
  let stopPaging = () => {};

  if (offline) {
    // What was written here and not sent yet comes first, and opens in the editor as usual;
    // the rest of the diary comes with the server.
    entries.append(...kept());
    entries.after(notice);
    notice.replaceChildren(h('p', {}, t.listOffline));
    if (autosave.drafts.othersWaiting()) notice.append(h('p', {}, t.keptForWriter));
    notice.hidden = false;
  } else {
    // Let a save started as the writer left the editor land first, so the
    // list shows what they just wrote.
    autosave.settled().then(() => {
      if (!main.isConnected) return;
      stopPaging = paged(entries, {
        fetchPage: async (cursor) => {
          const page = await api.listEntries(cursor);
          last = { user, entries: cursor ? [...last.entries, ...page.entries] : page.entries };
          return page;
        },
        renderRow: (entry) => row(entry, context),
        onFirst: (page) => page.entries.length || showEmpty(notice),
        onError: () => showLast(entries, user, context) || showError(notice),
      });
    });
  }

  let searchTimer = null;
  let searchSerial = 0;
  searchField.addEventListener('input', () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(async () => {
      const query = searchField.value.trim();
      const serial = ++searchSerial;
      context.query = query;
      if (!query) {
        results.hidden = true;
        entries.hidden = false;
        return;
      }
      try {
        const found = await api.search(query);
        if (serial !== searchSerial) return; // a newer search is under way
        results.replaceChildren(...found.results.map((r) => row(r.entry, context, r.snippet)));
        if (!found.results.length) results.append(h('li', { class: 'notice' }, t.noResults));
        entries.hidden = true;
        results.hidden = false;
      } catch (error) {
        // A refused or stopped search (too many words, too slow) says why, in the server's words.
        const said = error instanceof api.ApiError && error.code && error.status !== 401;
        if (serial === searchSerial) toast(said ? error.message : t.loadFailed);
      }
    }, SEARCH_DELAY_MS);
  });

  return () => {
    stopPaging();
    clearTimeout(searchTimer);
  };
}

// Offline there is no trash to open and no one to log out: both live on the server.
function header(offline, user) {
  // The account's menu (and logging out) loads when first opened.
  const account = () => import('./account.js').then((m) => m.showAccount(user), () => toast(t.loadFailed));
  return h('header', { class: 'bar' },
    h('div', { class: 'bar-inner' },
      h('h1', { class: 'app-name' }, t.appName),
      offline ? null : iconButton('account', t.account, { 'aria-haspopup': 'dialog', onclick: account }),
      offline ? null : iconLink('trash', t.trash, '#/trash'),
      iconLink('new', t.newEntry, '#/new')));
}

function row(entry, context, snippet) {
  const title = entry.title.trim();
  const mark = (text) => (context.query ? highlight(text, context.query) : text);
  const li = h('li', { class: 'row' });
  const share = async () => {
    context.swipe.close();
    try {
      await shareEntry(await api.getEntry(entry.id));
    } catch {
      toast(t.loadFailed);
    }
  };
  const removed = () => {
    li.remove();
    last.entries = last.entries.filter((e) => e.id !== entry.id);
    if (!document.querySelector('.entries .row')) refresh(); // the last one: show the empty diary
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

function rowLink(entry, mark, snippet) {
  const title = entry.title.trim();
  return h('a', { class: 'row-link', href: `#/entry/${entry.id}` },
    h('span', { class: title ? 'row-title' : 'row-title untitled' }, title ? mark(title) : t.untitled),
    h('span', { class: 'row-meta' },
      h('time', { datetime: entry.createdAt }, formatDate(entry.createdAt)),
      weatherIcon(entry.weather),
      snippet == null ? h('span', { class: 'row-excerpt' }, entry.excerpt) : null),
    // A search result shows its snippet whole, so the marked words are seen.
    snippet == null ? null : h('span', { class: 'row-snippet' }, mark(snippet)));
}

/** Rows for the drafts kept in this browser, newest first; only the link, as Share and Delete need the server. */
function kept() {
  const { drafts } = autosave;
  return drafts.ids().map((id) => drafts.get(id))
    .filter((draft) => !drafts.isBlank(draft.title, draft.body))
    .sort((a, b) => b.created.localeCompare(a.created))
    .map(({ id, title, body, created }) => {
      const entry = { id, title, createdAt: created, excerpt: excerptOf(body) };
      return h('li', { class: 'row' }, h('div', { class: 'row-main' }, rowLink(entry, (text) => text)));
    });
}

/** A row's entry with a newer title and body, as the server would list it. */
function edited(entry, { title, body }) {
  return { ...entry, title, excerpt: excerptOf(body) };
}

/** The first line of the body that is not blank, at most 200 characters, as the server's Excerpt. */
function excerptOf(body) {
  const line = body.split(/[\r\n]/).map((l) => l.trimStart()).find(Boolean) ?? '';
  return [...line].slice(0, 200).join('').trimEnd();
}

function showEmpty(notice) {
  const button = h('button', { type: 'button', class: 'button' }, t.loadSample);
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      await api.loadSample();
    } catch (error) {
      if (error.code !== 'not_empty') return toast(t.loadFailed), (button.disabled = false);
    }
    refresh();
  });
  notice.replaceChildren(h('p', {}, t.empty), button);
  notice.hidden = false;
}

/**
 * The rows the list showed last, if they are this writer's, under a note that they may be old.
 * An edit still waiting in this browser (not sent yet) shows as written.
 */
function showLast(entries, user, context) {
  if (last.user !== user || !last.entries.length) return false;
  entries.before(h('p', { class: 'offline-note stale-note', role: 'status' },
    h('span', {}, t.listStale),
    h('button', { type: 'button', onclick: refresh }, t.tryAgain)));
  entries.append(...last.entries.map((entry) => {
    const draft = autosave.drafts.get(entry.id);
    return row(draft ? edited(entry, draft) : entry, context);
  }));
  return true;
}

function showError(notice) {
  notice.replaceChildren(
    h('p', {}, t.loadFailed),
    h('button', { type: 'button', class: 'button', onclick: refresh }, t.tryAgain));
  notice.hidden = false;
}

// -- Infinite scroll --------------------------------------------------------------------------
// Loads the next page when the end of a list comes near.

/**
 * fetchPage(cursor) -> {entries, nextCursor}; renderRow(entry) -> <li>.
 * onFirst(page) runs after the first page (for the empty state), onError(error) if the first
 * page fails. A later page that fails is said at the end of the list, where it would have come,
 * with a way to try again; the rows shown stay.
 */
export function paged(list, { fetchPage, renderRow, onFirst, onError }) {
  let cursor = null;
  let first = true;
  let loading = false;
  let done = false;
  const sentinel = h('div', { class: 'sentinel', 'aria-hidden': 'true' });
  const retry = () => {
    done = false;
    more();
  };
  const failed = h('li', {},
    h('p', { class: 'offline-note stale-note', role: 'status' },
      h('span', {}, t.moreFailed),
      h('button', { type: 'button', onclick: retry }, t.tryAgain)));
  list.after(sentinel);
  const observer = new IntersectionObserver(
    (seen) => seen.some((s) => s.isIntersecting) && more(),
    { rootMargin: '0px 0px 600px 0px' },
  );

  async function more() {
    // Held: its writer is logging out, or has (the next login draws the list again).
    if (loading || done || autosave.isHeld()) return;
    loading = true;
    try {
      const page = await fetchPage(cursor);
      const rows = page.entries.map(renderRow);
      // Focus on Try again moves on to the first row that came, not to the top of the page.
      const refocus = failed.contains(document.activeElement);
      failed.remove();
      list.append(...rows);
      if (refocus) rows[0]?.querySelector('a, button')?.focus();
      cursor = page.nextCursor;
      done = !cursor;
      if (first) onFirst?.(page);
      first = false;
    } catch (error) {
      done = true; // the error view or the note offers to try again
      if (first) onError?.(error);
      else list.append(failed);
    } finally {
      loading = false;
    }
    // Observing again reports the sentinel afresh if it is still in view.
    observer.unobserve(sentinel);
    if (!done) observer.observe(sentinel);
  }

  observer.observe(sentinel);
  return () => observer.disconnect();
}

// -- Swipe ------------------------------------------------------------------------------------
// Swipe a row left on a touch screen to reveal its Share and Delete buttons, as in the iOS
// app. Mouse and keyboard use the row's menu instead.

function enableSwipe(list) {
  let drag = null;
  let openRow = null;
  let suppressClickUntil = 0;

  const actionsWidth = (row) => row.querySelector('.row-actions').offsetWidth;
  const setOffset = (row, px) => row.querySelector('.row-main').style.setProperty('--dx', `${px}px`);

  function close(row) {
    row.classList.remove('open');
    setOffset(row, 0);
    if (openRow === row) openRow = null;
  }

  function open(row) {
    if (openRow && openRow !== row) close(openRow);
    row.classList.add('open');
    setOffset(row, -actionsWidth(row));
    openRow = row;
  }

  list.addEventListener('pointerdown', (e) => {
    if (e.pointerType === 'mouse') return;
    const row = e.target.closest('.row');
    if (openRow && openRow !== row) close(openRow);
    if (!row || e.target.closest('.row-actions')) return;
    const start = row.classList.contains('open') ? -actionsWidth(row) : 0;
    drag = { row, id: e.pointerId, x: e.clientX, y: e.clientY, start, offset: start, swiping: false };
  });

  list.addEventListener('pointermove', (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    const dx = e.clientX - drag.x;
    const dy = e.clientY - drag.y;
    if (!drag.swiping) {
      if (Math.abs(dx) < 8 && Math.abs(dy) < 8) return;
      if (Math.abs(dy) > Math.abs(dx)) return void (drag = null); // a scroll, not a swipe
      drag.swiping = true;
      drag.row.classList.add('dragging');
    }
    drag.offset = Math.min(0, Math.max(-actionsWidth(drag.row), drag.start + dx));
    setOffset(drag.row, drag.offset);
  });

  function end(e) {
    if (!drag || e.pointerId !== drag.id) return;
    const { row, swiping, offset, start } = drag;
    drag = null;
    row.classList.remove('dragging');
    if (swiping) {
      suppressClickUntil = performance.now() + 500; // the lift is not a tap on the link
      if (offset < -actionsWidth(row) / 3) open(row);
      else close(row);
    } else if (start && e.type === 'pointerup') {
      suppressClickUntil = performance.now() + 500; // a tap on an open row closes it
      close(row);
    }
  }
  list.addEventListener('pointerup', end);
  list.addEventListener('pointercancel', end);

  list.addEventListener('click', (e) => {
    if (performance.now() < suppressClickUntil && !e.target.closest('.row-actions')) {
      e.preventDefault();
      e.stopPropagation();
    }
  }, true);

  return { close: () => openRow && close(openRow) };
}
