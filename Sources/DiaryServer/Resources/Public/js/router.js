// The router: each screen has its own address (a hash route), and this module draws the screen
// the address names into #app. Screens import it to draw themselves again after their data
// changed (refresh) and to go back (back); it imports no screen, so no module imports its
// importer: main.js imports the screens and tells the router which address draws which.

import { toast } from './dom.js';
import { t } from './i18n.js';

const routes = [];
let root = null;
let hooks = { ready: () => true, drawn: () => {} };
let teardown = null;
let shown = null; // the hash of the screen drawn
let serial = 0; // counts the screens asked for: only the last one asked is drawn

/**
 * `pattern` (a RegExp on location.hash) draws `show(root, ...groups)`; with `later`
 * ({load, unreachable}), the screen's module loads on demand and `show(module, root, ...groups)`.
 */
export function route(pattern, show, later) {
  routes.push([pattern, show, later]);
}

/**
 * Starts drawing into `into`. `ready()` says whether a screen may be drawn now (not while the
 * login form is on show); `drawn()` runs after each screen is drawn.
 */
export function startRouting(into, { ready, drawn }) {
  root = into;
  hooks = { ready, drawn };
  addEventListener('hashchange', refresh);
  refresh();
}

/** Draws the current screen (again, e.g. after an Undo changed its data). */
export function refresh() {
  const hash = location.hash || '#/';
  const found = routes.find(([pattern]) => pattern.test(hash));
  if (!found) return location.replace('#/'); // an unknown route: go to the list
  const [pattern, show, later] = found;
  const args = hash.match(pattern).slice(1);
  if (!later) return draw(hash, (into) => show(into, ...args));
  // A screen whose module loads on demand: the screen on show stays until it has come, and
  // stays usable if it cannot come (the connection dropped), with a note that says so.
  const asked = ++serial;
  later.load().then(
    (module) => asked === serial && draw(hash, (into) => show(module, into, ...args)),
    () => asked === serial && unreachable(hash, later.unreachable));
}

function draw(hash, show) {
  if (!hooks.ready()) return; // drawn once someone has logged in
  serial++; // a screen still loading is not wanted any more
  teardown?.();
  root.replaceChildren();
  scrollTo(0, 0);
  shown = hash;
  teardown = show(root) ?? null;
  hooks.drawn();
}

/** Stays on the screen on show (or goes to the list) and says why the other did not open. */
function unreachable(hash, message) {
  // Without a hashchange, so the screen on show is not drawn again (and its data not fetched
  // again, which would fail too); the link that was followed works again.
  if (shown) history.replaceState(null, '', shown);
  else location.replace('#/');
  toast(message, { action: t.tryAgain, onAction: () => (location.hash = hash), duration: 10000 });
}
