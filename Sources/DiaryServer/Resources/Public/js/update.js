// A new version of the app: the service worker (sw.js) keeps one release of the app's files,
// so the diary opens offline. When the server has a new release, the browser installs its
// worker beside the running one, where it waits. This module says so in a small notice, and
// reloads into the new version only when the writer asks: never by itself, since they may be
// in the middle of a sentence. (What they typed is kept in the browser and sent after the
// reload, as on any reload: autosave.js.)

import { h } from './dom.js';
import { t } from './i18n.js';

const KEEP_THE_REST_MS = 3000;

let note = null;
let asked = false; // this page asked the new worker to take over: its arrival reloads the page
let placing = false; // the note follows the screens as they are drawn

/** Registers the worker and watches for the next release. */
export function watchForUpdates() {
  const workers = navigator.serviceWorker;
  if (!workers) return; // not offered (an old browser, or not over HTTPS): online as before
  let controlled = Boolean(workers.controller);
  workers.addEventListener('controllerchange', () => {
    if (asked) return void location.reload();
    // The first worker taking the page that installed it changes nothing the writer sees. A
    // new release taken over from another tab: this page still runs the old files.
    if (controlled) offer(null);
    controlled = true;
  });
  workers.register('sw.js').then((registration) => {
    if (!registration) return; // workers blocked (Playwright's service_workers="block" resolves nothing)
    if (registration.waiting && workers.controller) offer(registration.waiting);
    registration.addEventListener('updatefound', () => {
      const worker = registration.installing;
      worker?.addEventListener('statechange', () => {
        if (worker.state === 'installed' && workers.controller) offer(worker);
      });
    });
    // The rest of what the app needs offline (the editor, the outbox: sw.js's LATER), once this
    // visit has settled: a first visit brings what the list needs, and these follow.
    workers.ready.then((ready) => setTimeout(() => ready.active?.postMessage('keep the rest'), KEEP_THE_REST_MS));
    // A phone keeps the app open for days: look for a new release each time it comes back.
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') registration.update().catch(() => {});
    });
  }, () => {}); // refused (a private window, say): the app works online as before
}

/**
 * The notice, under the header bar of whatever screen is drawn (each screen draws its own bar:
 * the note follows it), or among the page's notices when there is no bar (the login form).
 */
function place() {
  if (!note) return;
  const bar = document.querySelector('#app .bar');
  const home = bar ?? document.getElementById('notices');
  if (bar ? note.previousElementSibling !== bar : note.parentNode !== home) {
    if (bar) bar.after(note);
    else home.append(note);
  }
}

/** The notice; its button hands over to `worker` (null: one that has taken over already). */
function offer(worker) {
  note?.remove();
  const button = h('button', { type: 'button' }, t.updateReload);
  button.addEventListener('click', () => {
    button.disabled = true;
    if (!worker || worker.state === 'activated') return void location.reload();
    asked = true;
    worker.postMessage('take over');
  });
  note = h('div', { class: 'update-note', role: 'status' }, h('span', {}, t.updateReady), button);
  place();
  if (!placing) {
    placing = true;
    new MutationObserver(place).observe(document.getElementById('app'), { childList: true, subtree: true });
  }
}
