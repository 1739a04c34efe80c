// Starts the app: language, routes, and the messages about saving.

import * as autosave from './autosave.js';
import { getSession, sessionEvents, setCsrfToken } from './api.js';
import { h } from './dom.js';
import { lang, t } from './i18n.js';
import { offerUndo, showList } from './list.js';
import { LIST, PAGE, SCREEN, refresh, route, startRouting } from './router.js';
import { weatherRecorded } from './weather.js';

document.documentElement.lang = lang;
document.title = t.appName;
// Installed on a home screen, the app is named in the page's language: a manifest holds one
// name, so there is one manifest per language, chosen by the rule that chose the strings.
document.querySelector('meta[name="apple-mobile-web-app-title"]').content = t.appName;
document.head.append(h('link', { rel: 'manifest', href: lang === 'ko' ? 'manifest.ko.webmanifest' : 'manifest.webmanifest' }));
document.getElementById('notices').setAttribute('aria-label', t.notices);

// A failed save is said in the page without blocking the writer, and
// cleared once everything is on the server.
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

autosave.events.addEventListener('trashed', (e) => offerUndo(e.detail.id, t.emptiedToTrash, refresh));

// The conflict dialog is rare: it loads with the first conflict.
autosave.events.addEventListener('conflict', (e) => {
  import('./conflict.js').then((m) => m.showConflict(e.detail));
});

// Each screen draws itself into #app and returns a function that tears it down (router.js).
const app = document.getElementById('app');
let started = false;
let locked = false; // the login form is on show: no screen of the diary is drawn behind it
let user = null; // the name of who is logged in, for the account's menu

function start() {
  started = true;
  startRouting(app, {
    ready: () => !locked,
    drawn: () => {
      if (offline) app.querySelector('.bar')?.after(offlineNote);
      placeStatus();
    },
    // Beside the list on a wide screen, before an entry is chosen.
    blank: (root) => root.append(h('main', { class: 'pane-blank' }, h('p', {}, t.chooseEntry))),
  });
}

/**
 * The save status sits at the foot of the screen's header bar: it stays in view (the bar is
 * sticky) and pushes the screen down instead of covering its search field or first row.
 * Moved only when the bar is new, so a message being read out is not cut short.
 */
function placeStatus() {
  // Beside the list, an entry's own bar: the status is about what is written there.
  const home = app.querySelector('.pane-page .bar') ?? app.querySelector('.bar') ?? document.getElementById('notices');
  if (status.parentNode !== home) home.append(status);
}

// The list comes with the page: it is the first screen. The editor loads when an entry or a new
// one is first opened; the service worker keeps it a few seconds after the first visit (sw.js),
// so a writer whose connection drops later can still open an entry and write (the text waits in
// the browser). The trash, the login form, the account's menu and the conflict dialog need the
// server anyway: they load when first needed.
// Routes: #/ the list, #/search?q=<words> the list's search, #/new a new entry,
// #/entry/<id> an entry, #/trash, and the views of browse.js below.
route(/^#\/?$/, LIST, (root) => showList(root, { offline, user }));
route(/^#\/search\?q=([^&]*)$/, LIST, (root, q) => showList(root, { offline, user, query: decode(q) }));
const editor = { load: () => import('./editor.js'), unreachable: t.editorOffline };
route(/^#\/new$/, PAGE, (m, root) => m.showEditor(root, null), editor);
route(/^#\/entry\/([0-9a-fA-F-]{36})$/, PAGE, (m, root, id) => m.showEditor(root, id.toLowerCase()), editor);
route(/^#\/trash$/, SCREEN, (m, root) => m.showTrash(root), { load: () => import('./trash.js'), unreachable: t.trashOffline });
// The diary by its days and tags (browse.js): #/calendar/2024-05, #/year/2024, #/tags, and
// #/browse?tag=…&starred=true&from=…&to=…&q=… (the list narrowed, its filter in the address).
const browse = { load: () => import('./browse.js'), unreachable: t.loadFailed };
route(/^#\/calendar(?:\/(\d{4}-\d{2}))?$/, SCREEN, (m, root, month) => m.showCalendar(root, month), browse);
route(/^#\/year(?:\/(\d{4}))?$/, SCREEN, (m, root, year) => m.showYear(root, year), browse);
route(/^#\/tags$/, SCREEN, (m, root) => m.showTags(root), browse);
route(/^#\/browse\?(.*)$/, SCREEN, (m, root, query) => m.showBrowse(root, query), browse);

function decode(q) {
  try {
    return decodeURIComponent(q.replace(/\+/g, ' '));
  } catch {
    return q; // typed into the address bar with a stray %: the words as they are
  }
}

/** Resolves once someone is logged in; the login or setup form loads only when needed. */
async function ensureSession(root, session) {
  session ??= await getSession();
  if (session.user) {
    setCsrfToken(session.csrfToken);
    return session;
  }
  const account = await import('./account.js');
  locked = true;
  return account.logIn(root, session.setupNeeded, session.setupCodeNeeded === true);
}

/** Someone is logged in: what waits in the drafts goes first, then the screen is drawn. */
function begin(session) {
  locked = false;
  user = session.user.name;
  weatherRecorded(session.weather === true);
  autosave.drafts.setOwner(user);
  autosave.resume();
  if (!started) return start();
  // Back from offline or from the login form: the screen is drawn again with the diary's data,
  // except an entry being written, which stays as it is (caret and all) while its text is sent.
  refresh({ keepPage: Boolean(app.querySelector('.editor-screen .title-field:not([hidden])')) });
}

// -- Offline at start -------------------------------------------------------------------------
// The server may not answer as the page opens: the phone is offline, or the server is
// restarting. The diary opens all the same, with a note that says so: the writer can start an
// entry at once, its text waits in the drafts (autosave holds it back), and the session is asked
// for again until the server answers. Then the diary loads as usual and the drafts are sent,
// with the session's CSRF token; a session gone by then brings the login form, and the drafts
// wait for their writer to log in.

const PATIENCE_MS = 4000; // a slower first answer opens the diary offline meanwhile
const RETRY_MS = 1000; // the first pause between two checks; it doubles up to RETRY_MAX_MS
const RETRY_MAX_MS = 15000;

let offline = false;
const offlineNote = h('p', { class: 'offline-note', role: 'status' }, t.offline);

function openOffline() {
  if (offline || started) return;
  offline = true;
  start();
}

/** The session, asked for until the server answers; the diary opens offline meanwhile. */
function reachSession() {
  return new Promise((resolve) => {
    let delay = RETRY_MS;
    let timer = null;
    const slow = setTimeout(openOffline, PATIENCE_MS);
    const answered = (session) => {
      clearTimeout(slow);
      offline = false;
      offlineNote.remove();
      resolve(session);
    };
    const now = () => document.visibilityState === 'visible' && ask();
    const ask = () => {
      clearTimeout(timer);
      removeEventListener('online', ask);
      document.removeEventListener('visibilitychange', now);
      // No one logged in is an answer too (user null); no answer, a timeout or a server error
      // (a proxy's 502 while the server restarts) is asked again.
      getSession().then(answered, () => {
        openOffline();
        timer = setTimeout(ask, delay);
        delay = Math.min(delay * 2, RETRY_MAX_MS);
        // Back online, or back to the app: ask at once.
        addEventListener('online', ask);
        document.addEventListener('visibilitychange', now);
      });
    };
    ask();
  });
}

// A session that ends (logged out elsewhere, password changed) brings back the login;
// unsaved text stays in this browser and is sent once logged in again.
// One login form at a time: the saves retried meanwhile (each another 401) leave it be, and so
// do requests made while the first session check is still under way (offline at start).
// Drafts are their writer's: someone else logging in here neither sees nor sends them.
let relogin = reachSession()
  .then((session) => ensureSession(app, session))
  .then(begin)
  .finally(() => { relogin = null; });
sessionEvents.addEventListener('ended', () => {
  relogin ??= ensureSession(app)
    .then(begin)
    .catch(() => {})
    .finally(() => { relogin = null; });
});

// -- A new release ---------------------------------------------------------------------------
// A new version of the app: the service worker (sw.js) keeps one release of the app's files,
// so the diary opens offline. When the server has a new release, the browser installs its
// worker beside the running one, where it waits. This module says so in a small notice, and
// reloads into the new version only when the writer asks: never by itself, since they may be
// in the middle of a sentence. (What they typed is kept in the browser and sent after the
// reload, as on any reload: autosave.js.)

const KEEP_THE_REST_MS = 3000;

let note = null;
let asked = false; // this page asked the new worker to take over: its arrival reloads the page
let placing = false; // the note follows the screens as they are drawn

/** Registers the worker and watches for the next release. */
function watchForUpdates() {
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

watchForUpdates();
