// The router draws the screens the address (a hash route) names into #app. It imports no screen
// (main.js tells it which address draws which), so the screens can import it without a cycle.
// A phone shows one screen at a time; 1024 px and wider, the list stays drawn beside the entry.
// Each history entry is marked with how many of the app's own lie before it, so the back arrow
// goes back in history (not a new entry on top) when the one before is the app's.

import { toast } from './dom.js';
import { t } from './i18n.js';

const wide = matchMedia('(min-width: 1024px)');

// The split view and the editor fill the visual viewport, so a keyboard never covers them: CSS
// reads its size from --vv-height and --vv-top.
const vv = window.visualViewport;
const fit = () => {
  const style = document.documentElement.style;
  style.setProperty('--vv-height', `${vv.height}px`);
  style.setProperty('--vv-top', `${vv.offsetTop}px`);
};
if (vv) {
  vv.addEventListener('resize', fit);
  vv.addEventListener('scroll', fit);
  fit();
}

/** What a route draws: the list, a page (beside the list on a wide screen), or a whole screen. */
export const LIST = 'list';
export const PAGE = 'page';
export const SCREEN = 'screen';

const routes = [];
let root = null;
let hooks = { ready: () => true, drawn: () => {}, blank: () => null };
let serial = 0; // counts the screens asked for: only the last one asked is drawn
let shown = null; // the hash of what is drawn
let depth = 0; // how many of the app's history entries lie before this one
let split = null; // on a wide screen: {list, page} panes; null: one screen at a time
let listHash = '#/'; // the list's address last shown (the list, or a search)
// What each part of the screen shows: {hash, teardown}.
const drawn = { list: null, page: null, screen: null };

/** The refresh event: the data behind the screens changed, so what they keep is out of date. */
export const navigation = new EventTarget();

/**
 * `pattern` (a RegExp on location.hash) draws `show(root, ...groups)`; `kind` is LIST, PAGE or
 * SCREEN. With `later` ({load, unreachable}), the screen's module loads on demand and draws
 * with `show(module, root, ...groups)`.
 */
export function route(pattern, kind, show, later) {
  routes.push({ pattern, kind, show, later });
}

/**
 * Starts drawing into `into`. `ready()` says whether a screen may be drawn now (not while the
 * login form is on show); `drawn()` runs after each drawing; `blank(root)` draws the page beside
 * the list when no entry is open.
 */
export function startRouting(into, options) {
  root = into;
  hooks = { ...hooks, ...options };
  history.scrollRestoration = 'manual'; // the list puts its own scroll back
  const state = history.state;
  if (Number.isInteger(state?.diaryDepth)) depth = state.diaryDepth; // a reload keeps its place
  else history.replaceState({ ...state, diaryDepth: 0 }, '');
  addEventListener('hashchange', () => {
    const at = history.state?.diaryDepth;
    // A new entry (a link followed): one deeper than where it was made. Back or Forward:
    // the depth that entry was given.
    if (Number.isInteger(at)) depth = at;
    else history.replaceState({ ...history.state, diaryDepth: ++depth }, '');
    show();
  });
  wide.addEventListener('change', () => refresh({ keep: true }));
  show();
}

/**
 * Draws the screens again. The data behind them changed (an Undo, say): screens that keep what
 * they showed forget it. `keep`: only the layout changed (the window was resized). `keepPage`:
 * an entry on show stays as it is (caret and all); the list beside it is drawn again.
 */
export function refresh({ keep = false, keepPage = false } = {}) {
  if (!keep) navigation.dispatchEvent(new Event('refresh'));
  if (!hooks.ready()) return; // the login form is on show: drawn once someone has logged in
  const page = keepPage && find(location.hash || '#/')?.kind === PAGE;
  for (const part of Object.keys(drawn)) if (!page || part === 'list') tearDown(part);
  show();
}

/** The app's back arrow: back in history if the entry before is the app's, else to the list. */
export function back() {
  if (depth > 0) history.back();
  else go('#/', { replace: true });
}

/** Goes to `hash`; `replace`: in place of the current history entry. */
export function go(hash, { replace = false } = {}) {
  if (!replace) return void (location.hash = hash);
  history.replaceState({ ...history.state, diaryDepth: depth }, '', hash);
  // Told as if the address had changed by itself, to this router and to the screens that watch it.
  dispatchEvent(new HashChangeEvent('hashchange'));
}

/**
 * The list's address changed without drawing anything new (a search typed): it takes the place
 * of the current history entry when the list is what the address shows.
 */
export function showingList(hash) {
  listHash = hash;
  // Drawn already: not to be drawn again for it.
  if (drawn.list) drawn.list.hash = hash;
  if (drawn.screen && find(drawn.screen.hash)?.kind === LIST) drawn.screen.hash = hash;
  if (find(location.hash || '#/')?.kind === LIST && location.hash !== hash) {
    history.replaceState(history.state, '', hash);
    shown = hash;
  }
}

function find(hash) {
  return routes.find(({ pattern }) => pattern.test(hash));
}

/** Draws what the address names, leaving alone what is drawn already. */
function show() {
  const hash = location.hash || '#/';
  const found = find(hash);
  if (!found) return go('#/', { replace: true }); // an unknown route: go to the list
  const { pattern, kind, show: draw, later } = found;
  const args = hash.match(pattern).slice(1);
  if (!later) return place(hash, kind, (into) => draw(into, ...args));
  // A screen whose module loads on demand: the screen on show stays until it has come, and
  // stays usable if it cannot come (the connection dropped), with a note that says so.
  const asked = ++serial;
  later.load().then(
    (module) => asked === serial && place(hash, kind, (into) => draw(module, into, ...args)),
    () => asked === serial && unreachable(hash, later.unreachable));
}

function place(hash, kind, draw) {
  if (!hooks.ready()) return; // drawn once someone has logged in
  serial++; // a screen still loading is not wanted any more
  shown = hash;
  const side = wide.matches && kind !== SCREEN;
  if (side) {
    if (kind === LIST) listHash = hash;
    tearDown('screen');
    layOut(true);
    if (drawn.list?.hash !== listHash) {
      tearDown('list');
      const listRoute = find(listHash);
      const args = listHash.match(listRoute.pattern).slice(1);
      drawn.list = { hash: listHash, teardown: listRoute.show(split.list, ...args) ?? null };
    }
    if (drawn.page?.hash !== hash) {
      tearDown('page');
      drawn.page = { hash, teardown: (kind === LIST ? hooks.blank(split.page) : draw(split.page)) ?? null };
      split.page.scrollTop = 0;
    }
  } else if (drawn.screen?.hash !== hash || split) {
    if (kind === LIST) listHash = hash;
    layOut(false);
    scrollTo(0, 0);
    drawn.screen = { hash, teardown: draw(root) ?? null };
  }
  hooks.drawn();
}

/**
 * One screen, or the list and the page side by side. What was drawn in the other layout is torn
 * down; so is a layout that something else replaced (the login form draws into #app itself).
 */
function layOut(sideBySide) {
  if (sideBySide && split?.list.parentNode?.parentNode === root) return;
  for (const part of Object.keys(drawn)) tearDown(part);
  root.replaceChildren();
  split = null;
  if (!sideBySide) return;
  // The list's pane is a region of its own (its bar is not the page's banner); the page beside
  // it holds the one main landmark.
  const list = document.createElement('section');
  list.className = 'pane-list';
  list.setAttribute('aria-label', t.appName);
  const page = document.createElement('div');
  page.className = 'pane-page';
  const both = document.createElement('div');
  both.className = 'split';
  both.append(list, page);
  root.append(both);
  split = { list, page };
}

function tearDown(part) {
  const was = drawn[part];
  if (!was) return;
  drawn[part] = null;
  was.teardown?.();
  const into = part === 'screen' ? root : split?.[part];
  into?.replaceChildren();
}

/** Stays on the screen on show (or goes to the list) and says why the other did not open. */
function unreachable(hash, message) {
  // Without a hashchange, so the screen on show is not drawn again (and its data not fetched
  // again, which would fail too); the link that was followed works again. The history entry
  // the link made is given back to the screen on show.
  if (shown) history.replaceState(history.state, '', shown);
  else go('#/', { replace: true });
  toast(message, { action: t.tryAgain, onAction: () => (location.hash = hash), duration: 10000 });
}
