// The page's notices that no screen owns: how saving goes, that the diary is offline, and that
// a new release of the app waits. Each sits under the header bar of whatever screen is drawn.

import * as autosave from './autosave.js';
import { h } from './dom.js';
import { t } from './i18n.js';

const app = document.getElementById('app');
const notices = document.getElementById('notices');
notices.setAttribute('aria-label', t.notices);

// -- Saving ----------------------------------------------------------------------------------
// A failed save is said in the page without blocking the writer, and cleared once everything
// is on the server.
const status = document.getElementById('save-status');
let statusTimer = null;
autosave.events.addEventListener('status', (e) => {
  clearTimeout(statusTimer);
  const { state } = e.detail;
  // Logged out: what waits for its writer is not the next person's business.
  if (state === 'held') return void (status.hidden = true);
  placeStatus();
  const said = { failed: t.saveFailed, disk_full: t.diskFull, too_large: t.tooLarge };
  status.textContent = said[state] ?? t.saved;
  status.className = `save-status ${state === 'disk_full' ? 'failed' : state}`;
  status.hidden = false;
  if (state === 'saved') statusTimer = setTimeout(() => (status.hidden = true), 2000);
});

/**
 * The save status sits at the foot of the screen's header bar: it stays in view (the bar is
 * sticky) and pushes the screen down instead of covering its search field or first row.
 * Moved only when the bar is new, so a message being read out is not cut short.
 */
function placeStatus() {
  // Beside the list, an entry's own bar: the status is about what is written there.
  const home = app.querySelector('.pane-page .bar') ?? app.querySelector('.bar') ?? notices;
  if (status.parentNode !== home) home.append(status);
}

// -- Offline ---------------------------------------------------------------------------------
let offline = false;
const offlineNote = h('p', { class: 'offline-note', role: 'status' }, t.offline);

/** Says (or stops saying) that the server cannot be reached. */
export function sayOffline(on) {
  offline = on;
  if (on) app.querySelector('.bar')?.after(offlineNote);
  else offlineNote.remove();
}

/** A screen was drawn: its bar takes the notices. */
export function placeNotices() {
  if (offline) app.querySelector('.bar')?.after(offlineNote);
  placeStatus();
}

// -- A new release ---------------------------------------------------------------------------
// The service worker (sw.js) keeps one release of the app's files, so the diary opens offline.
// When the server has a new release, the browser installs its worker beside the running one,
// where it waits; update.js then says so (loaded only then).

const KEEP_THE_REST_MS = 3000;

let update = null; // update.js, once a new release has been offered

function offer(worker) {
  import('./update.js').then((m) => {
    update = m;
    m.offer(worker);
  }, () => {});
}

/** Registers the worker and watches for the next release. */
export function watchForUpdates() {
  const workers = navigator.serviceWorker;
  if (!workers) return; // not offered (an old browser, or not over HTTPS): online as before
  let controlled = Boolean(workers.controller);
  workers.addEventListener('controllerchange', () => {
    if (update?.asked()) return void location.reload();
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
