// The list: newest first, search, infinite scroll, and each row's Share and
// Delete (swipe on touch screens, the row's menu with a mouse or keyboard).

import * as api from './api.js';
import { deleteEntry } from './actions.js';
import * as autosave from './autosave.js';
import { chooseAction, toast } from './dialog.js';
import { h, highlight, icon, iconButton, iconLink } from './dom.js';
import { formatDate, t } from './i18n.js';
import { paged } from './paged.js';
import { refresh } from './router.js';
import { shareEntry } from './share.js';
import { enableSwipe } from './swipe.js';
import { weatherIcon } from './weather.js';

const SEARCH_DELAY_MS = 250;

export function showList(root) {
  const entries = h('ul', { class: 'entries', 'aria-label': t.appName });
  const results = h('ul', { class: 'entries', 'aria-label': t.search, hidden: true });
  const notice = h('div', { class: 'notice', hidden: true });
  const searchField = h('input', {
    type: 'search', class: 'search-field', 'aria-label': t.search,
    placeholder: t.searchPlaceholder, autocomplete: 'off', enterkeyhint: 'search',
  });
  const main = h('main', { class: 'column' },
    h('form', { class: 'search', role: 'search', onsubmit: (e) => e.preventDefault() },
      icon('search'), searchField),
    notice, entries, results);
  root.append(header(), main);

  const swipe = enableSwipe(main);
  const context = { swipe, query: '' };
  let stopPaging = () => {};

  // Let a save started as the writer left the editor land first, so the
  // list shows what they just wrote.
  autosave.settled().then(() => {
    if (!main.isConnected) return;
    stopPaging = paged(entries, {
      fetchPage: (cursor) => api.listEntries(cursor),
      renderRow: (entry) => row(entry, context),
      onFirst: (page) => page.entries.length || showEmpty(notice),
      onError: () => showError(notice),
    });
  });

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
      } catch {
        if (serial === searchSerial) toast(t.loadFailed);
      }
    }, SEARCH_DELAY_MS);
  });

  return () => {
    stopPaging();
    clearTimeout(searchTimer);
  };
}

function header() {
  return h('header', { class: 'bar' },
    h('div', { class: 'bar-inner' },
      h('h1', { class: 'app-name' }, t.appName),
      iconLink('trash', t.trash, '#/trash'),
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
    if (!document.querySelector('.entries .row')) refresh(); // the last one: show the empty diary
  };
  const remove = () => deleteEntry(entry.id, { onDeleted: removed, onRestored: refresh });
  li.append(
    h('div', { class: 'row-actions' },
      h('button', { type: 'button', class: 'swipe-share', onclick: share }, t.share),
      h('button', { type: 'button', class: 'swipe-delete', onclick: remove }, t.delete)),
    h('div', { class: 'row-main' },
      h('a', { class: 'row-link', href: `#/entry/${entry.id}` },
        h('span', { class: title ? 'row-title' : 'row-title untitled' }, title ? mark(title) : t.untitled),
        h('span', { class: 'row-meta' },
          h('time', { datetime: entry.createdAt }, formatDate(entry.createdAt)),
          weatherIcon(entry.weather),
          snippet == null ? h('span', { class: 'row-excerpt' }, entry.excerpt) : null),
        // A search result shows its snippet whole, so the marked words are seen.
        snippet == null ? null : h('span', { class: 'row-snippet' }, mark(snippet))),
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

function showError(notice) {
  notice.replaceChildren(
    h('p', {}, t.loadFailed),
    h('button', { type: 'button', class: 'button', onclick: refresh }, t.tryAgain));
  notice.hidden = false;
}
