// Starts the app: language, routes, and the messages about saving.

import * as autosave from './autosave.js';
import { offerUndo } from './actions.js';
import { getSession, sessionEvents, setCsrfToken } from './api.js';
import { lang, t } from './i18n.js';
import { showEditor, watchViewport } from './editor.js';
import { showList } from './list.js';

document.documentElement.lang = lang;
document.title = t.appName;
document.getElementById('notices').setAttribute('aria-label', t.notices);

// A failed save is said in the page without blocking the writer, and
// cleared once everything is on the server.
const status = document.getElementById('save-status');
let statusTimer = null;
autosave.events.addEventListener('status', (e) => {
  clearTimeout(statusTimer);
  const { state } = e.detail;
  status.textContent = state === 'failed' ? t.saveFailed : state === 'too_large' ? t.tooLarge : t.saved;
  status.className = `save-status ${state}`;
  status.hidden = false;
  if (state === 'saved') statusTimer = setTimeout(() => (status.hidden = true), 2000);
});

autosave.events.addEventListener('trashed', (e) => offerUndo(e.detail.id, t.emptiedToTrash, refresh));

watchViewport();

// The conflict dialog is rare: it loads with the first conflict.
autosave.events.addEventListener('conflict', (e) => {
  import('./conflict.js').then((m) => m.showConflict(e.detail));
});

// Hash routes: #/ the list, #/new a new entry, #/entry/<id> an entry, #/trash.
// Each screen draws itself into #app and returns a function that tears it down.
const routes = [];
let teardown = null;
const route = (pattern, show) => routes.push([pattern, show]);

function start() {
  addEventListener('hashchange', refresh);
  refresh();
}

/**
 * Draws the current screen (again, e.g. after an Undo changed its data). The screens import it
 * from this module, which imports them: a function declaration is ready before any of them runs.
 */
export function refresh() {
  teardown?.();
  teardown = null;
  const hash = location.hash || '#/';
  const root = document.getElementById('app');
  root.replaceChildren();
  scrollTo(0, 0);
  for (const [pattern, show] of routes) {
    const match = hash.match(pattern);
    if (match) {
      teardown = show(root, ...match.slice(1)) ?? null;
      return;
    }
  }
  location.replace('#/'); // an unknown route: go to the list
}

// The list and the editor come with the page, so a writer whose connection drops after it
// loaded can still open the editor and write (the text waits in the browser). The trash, the
// login form and the conflict dialog need the server anyway: they load when first needed.
route(/^#\/?$/, showList);
route(/^#\/new$/, (root) => showEditor(root, null));
route(/^#\/entry\/([0-9a-fA-F-]{36})$/, (root, id) => showEditor(root, id.toLowerCase()));
route(/^#\/trash$/, later(() => import('./trash.js'), (m, root) => m.showTrash(root)));

/** A screen whose module loads on demand; leaving before it loaded draws nothing. */
function later(load, show) {
  return (root, ...args) => {
    let teardown = null;
    let left = false;
    load().then((module) => {
      if (!left) teardown = show(module, root, ...args) ?? null;
    });
    return () => {
      left = true;
      teardown?.();
    };
  };
}

/** Resolves once someone is logged in; the login or setup form loads only when needed. */
async function ensureSession(root) {
  const session = await getSession();
  if (session.user) {
    setCsrfToken(session.csrfToken);
    return session;
  }
  const account = await import('./account.js');
  return account.logIn(root, session.setupNeeded);
}

// Nothing is drawn or sent before someone is logged in. Then whatever an earlier visit
// could not send goes first; the list waits for it.
ensureSession(document.getElementById('app')).then((session) => {
  autosave.drafts.setOwner(session.user.name);
  autosave.saveAll();
  start();
});

// A session that ends (logged out elsewhere, password changed) brings back the login;
// unsaved text stays in this browser and is sent once logged in again.
// One login form at a time: the saves retried meanwhile (each another 401) leave it be.
// Drafts are their writer's: someone else logging in here neither sees nor sends them.
let relogin = null;
sessionEvents.addEventListener('ended', () => {
  relogin ??= ensureSession(document.getElementById('app'))
    .then((session) => { autosave.drafts.setOwner(session.user.name); autosave.saveAll(); refresh(); })
    .catch(() => {})
    .finally(() => { relogin = null; });
});
