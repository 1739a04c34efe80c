// Wires the app: its language, its routes, who is logged in (session.js) and the page's
// notices (notices.js). Each screen is a module of its own; none imports this one.

import * as autosave from './autosave.js';
import { h } from './dom.js';
import { lang, t } from './i18n.js';
import { showList } from './list.js';
import { placeNotices, watchForUpdates } from './notices.js';
import { LIST, PAGE, SCREEN, refresh, route, startRouting } from './router.js';
import { keepSession, offline, unlocked, user } from './session.js';

document.documentElement.lang = lang;
document.title = t.appName;
// Installed on a home screen, the app is named in the page's language: a manifest holds one
// name, so there is one manifest per language, chosen by the rule that chose the strings.
document.querySelector('meta[name="apple-mobile-web-app-title"]').content = t.appName;
document.head.append(h('link', { rel: 'manifest', href: lang === 'ko' ? 'manifest.ko.webmanifest' : 'manifest.webmanifest' }));

// An entry emptied by its writer went to the trash: Undo brings it back.
autosave.events.addEventListener('trashed', (e) => {
  import('./entryActions.js').then((m) => m.offerUndo(e.detail.id, t.emptiedToTrash, refresh), () => {});
});
// The conflict dialog is rare: it loads with the first conflict.
autosave.events.addEventListener('conflict', (e) => {
  import('./conflict.js').then((m) => m.showConflict(e.detail));
});

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
// The settings (settings.js, with settings.css): #/settings, from the account's menu.
route(/^#\/settings$/, SCREEN, (m, root) => m.showSettings(root), { load: () => import('./settings.js'), unreachable: t.loadFailed });

function decode(q) {
  try {
    return decodeURIComponent(q.replace(/\+/g, ' '));
  } catch {
    return q; // typed into the address bar with a stray %: the words as they are
  }
}

// Each screen draws itself into #app and returns a function that tears it down (router.js).
const app = document.getElementById('app');
keepSession(app, {
  // The first time: offline, or once someone is logged in.
  open: () => startRouting(app, {
    ready: unlocked,
    drawn: placeNotices,
    // Beside the list on a wide screen, before an entry is chosen.
    blank: (root) => root.append(h('main', { class: 'pane-blank' }, h('p', {}, t.chooseEntry))),
  }),
  // Back from offline or from the login form: the screen is drawn again with the diary's data,
  // except an entry being written, which stays as it is (caret and all) while its text is sent.
  loggedIn: () => refresh({ keepPage: Boolean(app.querySelector('.editor-screen .title-field:not([hidden])')) }),
});
watchForUpdates();
