// A new release of the app waits (notices.js found it): a small notice says so, and the page
// reloads into the new version only when the writer asks, never by itself, since they may be
// in the middle of a sentence. (What they typed is kept in the browser and sent after the
// reload, as on any reload: autosave.js.)

import { h } from './dom.js';
import { t } from './i18n.js';

// The notice's styles come with it (a first visit needs none of them).
await new Promise((resolve) => document.head.append(h('link', { rel: 'stylesheet', href: 'update.css', onload: resolve, onerror: resolve })));

let note = null;
let asking = false; // this page asked the new worker to take over: its arrival reloads the page
let placing = false; // the note follows the screens as they are drawn

/** This page asked the new release's worker to take over. */
export const asked = () => asking;

/** The notice; its button hands over to `worker` (null: one that has taken over already). */
export function offer(worker) {
  note?.remove();
  const button = h('button', { type: 'button' }, t.updateReload);
  button.addEventListener('click', () => {
    button.disabled = true;
    if (!worker || worker.state === 'activated') return void location.reload();
    asking = true;
    worker.postMessage('take over');
  });
  note = h('div', { class: 'update-note', role: 'status' }, h('span', {}, t.updateReady), button);
  place();
  if (!placing) {
    placing = true;
    new MutationObserver(place).observe(document.getElementById('app'), { childList: true, subtree: true });
  }
}

/**
 * The notice, under the header bar of whatever screen is drawn (each screen draws its own bar:
 * the note follows it), or among the page's notices when there is no bar (the login form).
 */
function place() {
  const bar = document.querySelector('#app .bar');
  const home = bar ?? document.getElementById('notices');
  if (bar ? note.previousElementSibling !== bar : note.parentNode !== home) {
    if (bar) bar.after(note);
    else home.append(note);
  }
}
