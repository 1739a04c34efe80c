// Starts the app: language, routes, and the messages about saving.

import * as autosave from './autosave.js';
import { offerUndo } from './actions.js';
import { getSession, sessionEvents, setCsrfToken } from './api.js';
import { lang, t } from './i18n.js';
import { showList } from './list.js';
import { refresh, route, start } from './router.js';

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

// The conflict dialog is rare: it loads with the first conflict.
autosave.events.addEventListener('conflict', (e) => {
  import('./conflict.js').then((m) => m.showConflict(e.detail));
});

// The list comes with the page; the editor and the trash load when first opened, which keeps a
// first visit light (a page of the diary, not every screen of the app).
// The editor keeps the caret above a phone's keyboard (viewport.js): both load together.
const editor = () =>
  Promise.all([import('./editor.js'), import('./viewport.js')]).then(([module, viewport]) => {
    viewport.watchViewport(); // the same listeners each time: the browser keeps one of each
    return module;
  });
route(/^#\/?$/, showList);
route(/^#\/new$/, later(editor, (m, root) => m.showEditor(root, null)));
route(/^#\/entry\/([0-9a-fA-F-]{36})$/, later(editor, (m, root, id) => m.showEditor(root, id.toLowerCase())));
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
  return account.ensureSession(root);
}

// Nothing is drawn or sent before someone is logged in. Then whatever an earlier visit
// could not send goes first; the list waits for it.
ensureSession(document.getElementById('app')).then(() => {
  autosave.saveAll();
  start();
});

// A session that ends (logged out elsewhere, password changed) brings back the login;
// unsaved text stays in this browser and is sent once logged in again.
sessionEvents.addEventListener('ended', () => {
  ensureSession(document.getElementById('app')).then(() => { autosave.saveAll(); refresh(); });
});
