// A row of the diary: an entry's day at its side, its title, when it was written with the
// weather, its first lines (or, for a search result, the words found), its tags and photo; and
// what the writer does to it from there: star it, share it, delete it (swipe on touch screens,
// the row's menu with a mouse or keyboard). The list, the browse views and the search draw their
// entries with it; what sharing and deleting do is entryActions.js, loaded when first used.
// A row knows nothing of the list it is in: an entry it deleted is told on autosave's events
// ('removed'), and whoever keeps rows forgets it there. Rows under a header for each month are
// here too (grouped): a module of their own would weigh a response's headers, a quarter of a
// kilobyte of a first visit, for half as much code.

import * as api from './api.js';
import * as autosave from './autosave.js';
import { h, highlight, icon, iconButton, toast } from './dom.js';
import { formatAs, formatDate, localDay, nearDay, t, weatherSummary, weatherWords } from './i18n.js';
import { refresh } from './router.js';

/** Share and Delete (entryActions.js): loaded the first time a row's are used. */
const entryActions = () => import('./entryActions.js');

/**
 * The row of `entry`. `context`: {query, the words to mark; offline, or an entry not on the
 * server yet (entry.local): the row only opens its entry; swipe, whose close() runs before an
 * action}. `snippet`: a search result's words, shown instead of the first lines.
 */
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
    li.remove(); // a search result; a row of the journal goes with the rest (list.js)
    autosave.emit('removed', { id: entry.id });
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

/** Says that the row's words wait in this browser to be sent (the outbox). */
function waitingMark() {
  return h('span', { class: 'waiting' }, icon('waiting'), t.waiting);
}

// -- Months: the rows under a header for each month, newest first, as the list and the browse
// views show them; the month is the writer's, in the zone each entry was written in.

let groups = 0; // for the month headers' ids

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
