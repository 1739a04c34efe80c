// When the server has a version the writer has not seen (a 409), both
// versions are shown and the writer keeps theirs or takes the other.

import { ask } from './dialogs.js';
import { h } from './dom.js';
import { lang } from './i18n.js';
import * as sending from './sending.js';

const words = {
  en: {
    title: 'This entry was changed somewhere else',
    question: 'Which version do you want to keep?',
    yours: 'Yours',
    theirs: 'The other version',
    keepMine: 'Keep mine',
    useTheirs: 'Use theirs',
  },
  ko: {
    title: '다른 곳에서 이 일기를 고쳤어요',
    question: '어느 쪽을 남길까요?',
    yours: '내 글',
    theirs: '다른 곳의 글',
    keepMine: '내 글 남기기',
    useTheirs: '다른 곳의 글로 바꾸기',
  },
};
const w = words[lang] ?? words.en;

const queue = [];
let showing = false;

/** Shows a conflict the sender met (sending.js), after any already on screen. */
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
  const choice = await ask('conflict', w.title,
    h('div', {},
      h('p', {}, w.question),
      h('div', { class: 'versions' }, version(w.yours, mine), version(w.theirs, theirs))),
    [
      { value: 'mine', label: w.keepMine },
      { value: 'theirs', label: w.useTheirs },
    ]);
  if (choice === 'mine') await sending.keepMine(id, theirs);
  else if (choice === 'theirs') sending.useTheirs(id, theirs);
  else sending.postpone(id);
  next();
}
