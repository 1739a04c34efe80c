// The trash: entries deleted from the list, to restore or delete for good.

import * as api from './api.js';
import { confirmAction, toast } from './dialog.js';
import { h, iconLink } from './dom.js';
import { formatDate, t } from './i18n.js';
import { paged } from './paged.js';
import { refresh } from './router.js';

export function showTrash(root) {
  const entries = h('ul', { class: 'entries', 'aria-label': t.trash });
  const notice = h('div', { class: 'notice', hidden: true });
  root.append(
    h('header', { class: 'bar' },
      h('div', { class: 'bar-inner' },
        iconLink('back', t.back, '#/'),
        h('h1', {}, t.trash))),
    h('main', { class: 'column' }, notice, entries));

  const empty = () => {
    notice.replaceChildren(h('p', {}, t.trashEmpty));
    notice.hidden = false;
  };
  const gone = (li) => {
    li.remove();
    if (!entries.children.length) empty();
  };

  return paged(entries, {
    fetchPage: (cursor) => api.listTrash(cursor),
    renderRow: (entry) => row(entry, gone),
    onFirst: (page) => page.entries.length || empty(),
    onError: () => {
      notice.replaceChildren(h('p', {}, t.loadFailed),
        h('button', { type: 'button', class: 'button', onclick: refresh }, t.tryAgain));
      notice.hidden = false;
    },
  });
}

function row(entry, gone) {
  const title = entry.title.trim() || t.untitled;
  const li = h('li', { class: 'row trash-row' });
  const act = async (work, message) => {
    try {
      await work();
      gone(li);
      toast(message);
    } catch (error) {
      toast(error.status ? error.message : t.loadFailed);
    }
  };
  li.append(
    h('div', { class: 'trash-text' },
      h('span', { class: entry.title.trim() ? 'row-title' : 'row-title untitled' }, title),
      h('span', { class: 'row-meta' },
        h('time', { datetime: entry.deletedAt }, t.deletedOn(formatDate(entry.deletedAt)))),
      h('span', { class: 'row-excerpt' }, entry.excerpt)),
    h('div', { class: 'trash-buttons' },
      h('button', {
        type: 'button', class: 'button', 'aria-label': `${t.restore}: ${title}`,
        onclick: () => act(() => api.restoreEntry(entry.id), t.restored),
      }, t.restore),
      h('button', {
        type: 'button', class: 'button danger', 'aria-label': `${t.deleteForGood}: ${title}`,
        onclick: async () => {
          if (await confirmAction(t.confirmDeleteForGood, t.deleteForGood)) {
            act(() => api.purgeEntry(entry.id), t.deletedForGood);
          }
        },
      }, t.deleteForGood)));
  return li;
}
