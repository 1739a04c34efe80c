// Starts the app: language, routes, and the messages about saving.

import * as autosave from './autosave.js';
import { offerUndo } from './actions.js';
import { watchConflicts } from './conflict.js';
import { ensureSession } from './account.js';
import { sessionEvents } from './api.js';
import { showEditor } from './editor.js';
import { lang, t } from './i18n.js';
import { showList } from './list.js';
import { refresh, route, start } from './router.js';
import { showTrash } from './trash.js';
import { watchViewport } from './viewport.js';

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

watchConflicts();
watchViewport();

route(/^#\/?$/, showList);
route(/^#\/new$/, (root) => showEditor(root, null));
route(/^#\/entry\/([0-9a-fA-F-]{36})$/, (root, id) => showEditor(root, id.toLowerCase()));
route(/^#\/trash$/, showTrash);

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
