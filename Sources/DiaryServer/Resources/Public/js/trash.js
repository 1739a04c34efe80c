// The trash: entries deleted from the list, to restore or delete for good.

import * as api from './api.js';
import { confirmAction } from './dialogs.js';
import { h, iconLink, toast } from './dom.js';
import { formatDate, lang, t } from './i18n.js';
import { paged } from './paging.js';
import { back, refresh } from './router.js';
import { serverSettings } from './session.js';

// The trash's own words; those it shares with the other screens are in i18n.js.
const words = {
  en: {
    restored: 'Restored.',
    deleteForGood: 'Delete for good',
    confirmDeleteForGood: 'Delete this entry for good? This cannot be undone.',
    deletedForGood: 'Deleted for good.',
    trashEmpty: 'The trash is empty.',
    deletedOn: (date) => `Deleted ${date}`,
    emptyTrash: 'Empty the trash',
    confirmEmpty: 'Delete every entry in the trash for good? This cannot be undone.',
    emptied: (n) => (n === 1 ? '1 entry deleted for good.' : `${n} entries deleted for good.`),
    keptDays: (n) => (n === 1 ? 'Entries are deleted for good 1 day after they were moved here.'
      : `Entries are deleted for good ${n} days after they were moved here.`),
    keptForever: 'Entries stay here until you delete them or empty the trash.',
  },
  ko: {
    restored: '복원했어요.',
    deleteForGood: '영구 삭제',
    confirmDeleteForGood: '이 일기를 영구히 삭제하시겠어요? 되돌릴 수 없어요.',
    deletedForGood: '영구히 삭제했어요.',
    trashEmpty: '휴지통이 비어 있어요.',
    deletedOn: (date) => `${date} 삭제`,
    emptyTrash: '휴지통 비우기',
    confirmEmpty: '휴지통의 일기를 모두 영구히 삭제하시겠어요? 되돌릴 수 없어요.',
    emptied: (n) => `일기 ${n}편을 영구히 삭제했어요.`,
    keptDays: (n) => `휴지통의 일기는 옮긴 지 ${n}일이 지나면 영구히 삭제돼요.`,
    keptForever: '휴지통의 일기는 직접 삭제하거나 휴지통을 비울 때까지 남아 있어요.',
  },
};
const w = words[lang] ?? words.en;

export function showTrash(root) {
  const entries = h('ul', { class: 'entries', 'aria-label': t.trash });
  const notice = h('div', { class: 'notice', hidden: true });
  const backLink = iconLink('back', t.back, '#/');
  backLink.addEventListener('click', (e) => {
    e.preventDefault();
    back(); // back in history, as a phone's back button would
  });
  const empty = h('button', { type: 'button', class: 'button danger', hidden: true, onclick: async () => {
    if (!(await confirmAction(w.confirmEmpty, w.emptyTrash))) return;
    try {
      const { deleted } = await api.emptyTrash();
      entries.replaceChildren();
      showEmpty();
      toast(w.emptied(deleted));
    } catch (error) {
      toast(error.status ? error.message : t.loadFailed);
    }
  } }, w.emptyTrash);
  root.append(
    h('header', { class: 'bar' },
      h('div', { class: 'bar-inner' },
        backLink,
        h('h1', {}, t.trash),
        empty)),
    h('main', { class: 'column' }, serverSettings.trashDays === undefined ? null : h('p', { class: 'trash-note' }, serverSettings.trashDays ? w.keptDays(serverSettings.trashDays) : w.keptForever), notice, entries));

  const showEmpty = () => {
    notice.replaceChildren(h('p', {}, w.trashEmpty));
    notice.hidden = false;
    empty.hidden = true;
  };
  const gone = (li) => {
    li.remove();
    if (!entries.children.length) showEmpty();
  };

  return paged(entries, {
    fetchPage: (cursor) => api.listTrash(cursor),
    append: (found) => {
      const rows = found.map((entry) => row(entry, gone));
      entries.append(...rows);
      return rows;
    },
    onFirst: (page) => (page.entries.length ? (empty.hidden = false) : showEmpty()),
    onError: () => {
      notice.replaceChildren(h('p', {}, t.loadFailed),
        h('button', { type: 'button', class: 'button', onclick: () => refresh() }, t.tryAgain));
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
        h('time', { datetime: entry.deletedAt }, w.deletedOn(formatDate(entry.deletedAt)))),
      h('span', { class: 'row-excerpt' }, entry.excerpt)),
    h('div', { class: 'trash-buttons' },
      h('button', {
        type: 'button', class: 'button', 'aria-label': `${t.restore}: ${title}`,
        onclick: () => act(() => api.restoreEntry(entry.id), w.restored),
      }, t.restore),
      h('button', {
        type: 'button', class: 'button danger', 'aria-label': `${w.deleteForGood}: ${title}`,
        onclick: async () => {
          if (await confirmAction(w.confirmDeleteForGood, w.deleteForGood)) {
            act(() => api.purgeEntry(entry.id), w.deletedForGood);
          }
        },
      }, w.deleteForGood)));
  return li;
}
