// When the server has a version the writer has not seen (a 409), both
// versions are shown and the writer keeps theirs or takes the other.

import * as autosave from './autosave.js';
import { ask } from './dialog.js';
import { h } from './dom.js';
import { t } from './i18n.js';

const queue = [];
let showing = false;

/** Shows a conflict the autosave met, after any already on screen. */
export function showConflict(detail) {
  queue.push(detail);
  if (!showing) next();
}

async function next() {
  const conflict = queue.shift();
  if (!conflict) return void (showing = false);
  showing = true;
  const { id, mine, theirs } = conflict;
  const version = (label, text) =>
    h('section', { class: 'version', tabindex: '0', 'aria-label': label },
      h('h2', {}, label),
      h('p', { class: 'version-title' }, text.title),
      h('p', { class: 'version-body' }, text.body));
  const choice = await ask('conflict', t.conflictTitle,
    h('div', {},
      h('p', {}, t.conflictText),
      h('div', { class: 'versions' }, version(t.yours, mine), version(t.theirs, theirs))),
    [
      { value: 'mine', label: t.keepMine },
      { value: 'theirs', label: t.useTheirs },
    ]);
  if (choice === 'mine') await autosave.keepMine(id, theirs);
  else if (choice === 'theirs') autosave.useTheirs(id, theirs);
  else autosave.postpone(id);
  next();
}
