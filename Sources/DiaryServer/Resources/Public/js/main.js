// Starts the app: language, routes, and the messages about saving.

import * as autosave from './autosave.js';
import { getSession, sessionEvents, setCsrfToken } from './api.js';
import { h } from './dom.js';
import { lang, t } from './i18n.js';
import { offerUndo, showList } from './list.js';
import { LIST, PAGE, SCREEN, refresh, route, startRouting } from './router.js';
import { watchForUpdates } from './update.js';
import { weatherRecorded } from './weather.js';

document.documentElement.lang = lang;
document.title = t.appName;
// Installed on a home screen, the app is named in the page's language: a manifest holds one
// name, so there is one manifest per language, chosen by the rule that chose the strings.
document.querySelector('meta[name="apple-mobile-web-app-title"]').content = t.appName;
document.head.append(h('link', { rel: 'manifest', href: lang === 'ko' ? 'manifest.ko.webmanifest' : 'manifest.webmanifest' }));
watchForUpdates();
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
// #/entry/<id> an entry, #/trash.
route(/^#\/?$/, LIST, (root) => showList(root, { offline, user }));
route(/^#\/search\?q=([^&]*)$/, LIST, (root, q) => showList(root, { offline, user, query: decode(q) }));
const editor = { load: () => import('./editor.js'), unreachable: t.editorOffline };
route(/^#\/new$/, PAGE, (m, root) => m.showEditor(root, null), editor);
route(/^#\/entry\/([0-9a-fA-F-]{36})$/, PAGE, (m, root, id) => m.showEditor(root, id.toLowerCase()), editor);
route(/^#\/trash$/, SCREEN, (m, root) => m.showTrash(root), { load: () => import('./trash.js'), unreachable: t.trashOffline });

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
