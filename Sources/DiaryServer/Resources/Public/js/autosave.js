// Saving without a save button. Every edit goes to localStorage first (the
// drafts, below), then to the server, debounced. A draft leaves localStorage
// only when the server has acknowledged exactly that text.
//
// Events on `events`: status {state: 'failed'|'disk_full'|'too_large'|'saved'|'held'},
// saved {id, entry}, conflict {id, mine, theirs}, replaced {id, entry},
// trashed {id}.

import * as api from './api.js';
import * as device from './device.js';
import { takePlace } from './weather.js';

export const events = new EventTarget();
const emit = (type, detail) => events.dispatchEvent(new CustomEvent(type, { detail }));

const DEBOUNCE_MS = 500;
const FIRST_VERSION = 1; // what a create makes
const versions = new Map(); // id -> the latest version the server told us about
const timers = new Map(); // id -> debounce timer
const inflight = new Map(); // id -> promise of the request under way
const again = new Set(); // ids edited while a request was under way
const conflicted = new Set(); // ids waiting for the writer to choose a version
const failing = new Set(); // ids whose last attempt failed
let retryTimer = null;
let retryDelay = 0;
// Nothing is sent before the server has said who is writing (and given the CSRF token every
// save needs). A page opened while the server cannot be reached keeps its edits in the drafts
// until then.
let held = true;

export const version = (id) => versions.get(id);

export function known(id, version) {
  if (version > (versions.get(id) ?? 0)) versions.set(id, version);
}

/** Records an edit and schedules a save. A blank new entry is never kept. `photos`: see pics below. */
export function edit(id, title, body, photos) {
  const old = drafts.get(id);
  const base = old ? old.base : versions.get(id) ?? null;
  // (While its first POST is under way the entry may be made after all; then
  // the blank draft stays, so that leaving the entry moves it to the trash.)
  if (base == null && drafts.isBlank(title, body, photos ?? old?.photos) && !inflight.has(id)) {
    drafts.remove(id);
    clearTimeout(timers.get(id));
    return;
  }
  drafts.put({
    sent: [], created: new Date().toISOString(), ...old,
    id, title, body, base, left: false, edited: new Date().toISOString(), ...(photos ? { photos } : {}),
  });
  clearTimeout(timers.get(id));
  timers.set(id, setTimeout(() => save(id), DEBOUNCE_MS));
}

/** The writer leaves the entry: an emptied one goes to the trash. */
export function leave(id, opts = {}) {
  const draft = drafts.get(id);
  if (draft && draft.base != null && drafts.isBlank(draft.title, draft.body, draft.photos)) {
    drafts.patch(id, { left: true });
  }
  return save(id, opts);
}

/** Sends the entry's draft now. With keepalive the request outlives the page. */
export function save(id, opts = {}) {
  clearTimeout(timers.get(id));
  timers.delete(id);
  if (held || conflicted.has(id) || !drafts.get(id)) return Promise.resolve();
  if (inflight.has(id)) {
    // The page is going away and cannot wait for the request under way.
    if (opts.keepalive) send(id, opts);
    else again.add(id);
    return inflight.get(id);
  }
  const run = send(id, opts).finally(() => {
    inflight.delete(id);
    if (again.delete(id)) save(id);
  });
  inflight.set(id, run);
  return run;
}

/** An entry changed here by other means than its words (its star, its tags): told as a save. */
export function announce(entry) {
  known(entry.id, entry.version);
  device.keepEntry(entry);
  emit('saved', { id: entry.id, entry });
  return entry;
}

/** Resolves when no save is under way (the list waits so it shows new text). */
export async function settled() {
  await starting; // the drafts of tabs that are gone are taken over before they are sent
  for (const id of [...timers.keys()]) save(id);
  while (inflight.size) await Promise.allSettled([...inflight.values()]);
}

/** The session is known: from now on edits are sent, first whatever waits in the drafts. */
export function resume() {
  held = false;
  sendWaiting();
}

/** Whether sending is held: no one is logged in (or logging out is under way). */
export const isHeld = () => held;

/** Logged out: nothing more is sent; the drafts wait in this browser for their writer. */
export function hold() {
  held = true;
  clearTimeout(retryTimer);
  retryTimer = null;
  emit('status', { state: 'held' });
}

/** Sends every draft kept in this browser: at start, when back online, on retry. */
export function saveAll() {
  clearTimeout(retryTimer);
  retryTimer = null;
  for (const id of drafts.ids()) if (!timers.has(id)) save(id);
}

async function send(id, { keepalive = false } = {}) {
  let draft = drafts.get(id);
  if (!draft) return;
  try {
    // Photos not sent yet go first; not as the page goes (the next start sends them).
    if (draft.photos?.some((p) => p.local)) {
      if (keepalive) return;
      await (await import('./photos.js')).sendDraft(id, drafts);
      if (!(draft = drafts.get(id))) return;
      if (draft.photos?.some((p) => !p.id)) return void again.add(id); // added meanwhile
    }
    const { title, body, base, photos } = draft;
    if (drafts.isBlank(title, body, photos)) {
      if (base == null) drafts.remove(id);
      else if (draft.left) await trash(id, keepalive);
      return;
    }
    const fp = drafts.fingerprint(title, body, photosOf(draft));
    const tried = (draft.sent ?? []).length > 0;
    drafts.patch(id, { sent: [...(draft.sent ?? []).slice(-4), fp] });
    if (base == null) {
      // The place goes with the first try only if it is known by then; a retry
      // sends what the first try did.
      let location = draft.location;
      if (location === undefined) {
        location = takePlace(id);
        drafts.patch(id, { location });
      }
      // A retry (the page closing while the first try is on its way, say) may find that try
      // stored with older words: they give way to these if nothing else changed them since.
      const entry = await api.createEntry(id, title, body,
        { keepalive, location, basedOn: tried ? FIRST_VERSION : undefined, photos: pics(photos) });
      // 200 for an id that exists: an earlier try of ours got through, maybe
      // with older text. Then the entry needs a PUT on top of it.
      if (entry.title === title && entry.body === body && (!photos || photosOf(entry) === photosOf(draft))) acknowledge(id, entry, draft);
      else rebase(id, entry);
    } else {
      acknowledge(id, await api.updateEntry(id, base, title, body, { keepalive, photos: pics(photos) }), draft);
    }
    succeeded(id);
  } catch (error) {
    handleError(id, error);
  }
}

async function trash(id, keepalive) {
  try {
    await api.trashEntry(id, { keepalive });
  } catch (error) {
    if (error.status !== 404) throw error;
  }
  const now = drafts.get(id);
  if (now && drafts.isBlank(now.title, now.body, now.photos)) drafts.remove(id);
  device.forgetEntry(id);
  succeeded(id);
  emit('trashed', { id });
}

function acknowledge(id, entry, sent) {
  known(id, entry.version);
  device.keepEntry(entry);
  const draft = drafts.get(id);
  if (draft && draft.title === sent.title && draft.body === sent.body && photosOf(draft) === photosOf(sent)) drafts.remove(id);
  else if (draft) drafts.patch(id, { base: entry.version });
  emit('saved', { id, entry });
}

// The server holds a version of ours that is not the latest text: build on it.
function rebase(id, entry) {
  known(id, entry.version);
  drafts.patch(id, { base: entry.version });
  again.add(id);
}

function handleError(id, error) {
  const draft = drafts.get(id);
  if (error.status === 409 && error.current && draft) return conflict(id, draft, error.current);
  if (error.status === 404 && draft && draft.base != null) {
    // Deleted for good somewhere else while being written: make it again.
    drafts.patch(id, { base: null });
    versions.delete(id);
    again.add(id);
    return;
  }
  // A photo gone from the diary: the words go without the change to the photos.
  if (error.code === 'bad_photos' && draft?.photos) return drafts.put({ ...draft, photos: undefined }), void again.add(id);
  if (error.status === 422) return drafts.remove(id); // blank by the server's rules
  if (error.status === 413) {
    failing.add(id);
    return emit('status', { state: 'too_large' }); // retried after the next edit
  }
  failing.add(id);
  // A full disk on the server (507) is retried like any other trouble, but said as it is.
  emit('status', { state: error.status === 507 ? 'disk_full' : 'failed' });
  retryDelay = Math.min(Math.max(retryDelay * 2, 1000), 10000);
  clearTimeout(retryTimer);
  retryTimer = setTimeout(saveAll, retryDelay);
}

function conflict(id, draft, current) {
  known(id, current.version);
  const same = current.title === draft.title && current.body === draft.body && (!draft.photos || photosOf(current) === photosOf(draft));
  if (same) return acknowledge(id, current, draft);
  if ((draft.sent ?? []).includes(drafts.fingerprint(current.title, current.body, draft.photos ? photosOf(current) : ''))) {
    return rebase(id, current); // the server has an earlier save of ours
  }
  conflicted.add(id);
  emit('conflict', { id, mine: draft, theirs: current });
}

function succeeded(id) {
  if (!failing.delete(id) || failing.size) return;
  retryDelay = 0;
  emit('status', { state: 'saved' });
}

/** The writer chose their own text over the server's. */
export function keepMine(id, current) {
  conflicted.delete(id);
  known(id, current.version);
  drafts.patch(id, { base: current.version });
  return save(id);
}

/** The writer chose the server's text: it replaces theirs. */
export function useTheirs(id, current) {
  conflicted.delete(id);
  known(id, current.version);
  drafts.remove(id);
  emit('replaced', { id, entry: current });
}

/** The writer put the choice off: the next save asks again. */
export function postpone(id) {
  conflicted.delete(id);
}

/** The entry was deleted on purpose: nothing of it is left to save. */
export function forget(id) {
  clearTimeout(timers.get(id));
  timers.delete(id);
  drafts.remove(id);
}

/** Sends what waits: this tab's drafts, and those of tabs that are gone (taken over first). */
let starting = Promise.resolve();
function sendWaiting() {
  starting = ready.then(adoptOrphans).then(() => held || saveAll());
}

// Back online, or back to the tab: send what waits without waiting for the retry timer (no
// Background Sync: Safari and Firefox have none; the next start sends it too).
addEventListener('online', sendWaiting);
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') sendWaiting();
});

// A draft's `photos` (absent: unchanged) as sent, and compared; photos.js sends those `local` first.
const pics = (photos) => photos?.map(({ id, caption }) => ({ id, caption }));
const photosOf = (d) => JSON.stringify(pics(d.photos)) ?? '';

// -- Drafts -----------------------------------------------------------------------------------
// Text the server has not acknowledged yet, kept so that a failed save, a closed tab or a reload
// loses nothing: in localStorage, written at once (the words typed just before the tab closes
// are on disk before it has gone), and in the IndexedDB outbox (outbox.js), which holds what
// localStorage cannot. The outbox's module loads with the first draft written (a first visit
// that only reads does without it); until then its records are read and deleted here, through
// device.js. One record per entry and tab:
// {id, tab, title, body, base: version it was edited from (null: not created yet),
//  created, left: writer has left it, sent: hashes of texts sent unacknowledged,
//  location: the rounded place the first POST sent (null: none; absent: not tried yet), photos}
//
// Each tab keeps its own drafts (its id lives in sessionStorage, so a reload keeps it): two tabs
// on one entry never write over each other's words, and the second save to reach the server
// builds on a version it has not seen, so it gets the conflict choice. A tab holds a Web Lock
// named after it while it lives; the drafts of a tab that is gone (closed, or the browser
// quit) are taken over by the next tab that starts, comes back online or is looked at again.

const prefix = 'diary.draft.';
const TAB_KEY = 'diary.tab';
const TAB_LOCK = 'diary.tab.';
const memory = new Map(); // used where localStorage is unavailable or full
let box = null; // the outbox's module, once a draft has been written
const outbox = (use) => {
  // Not kept on the device yet, and offline: localStorage has the draft; the next one tries again.
  box ??= import('./outbox.js').catch((error) => {
    box = null;
    throw error;
  });
  box.then(use, () => {});
};

const newTab = () => 't' + Math.random().toString(36).slice(2, 10);
let tab = (() => {
  try {
    const kept = sessionStorage.getItem(TAB_KEY);
    if (kept) return kept;
    const made = newTab();
    sessionStorage.setItem(TAB_KEY, made);
    return made;
  } catch {
    return newTab();
  }
})();

/** A draft's key: `prefix` + tab + '.' + entry id. Drafts from before tabs had ids have no tab. */
const keyOf = (id, ofTab = tab) => `${prefix}${ofTab}.${id}`;
function parseKey(key) {
  if (!key?.startsWith(prefix)) return null;
  const rest = key.slice(prefix.length);
  const dot = rest.indexOf('.');
  return dot < 0 ? { tab: '', id: rest } : { tab: rest.slice(0, dot), id: rest.slice(dot + 1) };
}

// Each draft records its writer (`owner`, a user name). A browser shared by two people
// reads, writes and sends only the logged-in user's drafts; the others wait for their writer.
// Before the server has answered (offline at start), the writer last logged in here is
// presumed (device.js), so that what is written meanwhile is sent as theirs and no one else's.
const mine = (draft) => (draft && (!draft.owner || draft.owner === device.writer()) ? draft : null);

function readKey(key) {
  try {
    const raw = localStorage.getItem(key);
    if (raw) return JSON.parse(raw);
  } catch {}
  return null;
}

export const drafts = {
  setOwner(name) {
    device.setWriter(name);
  },

  get(id) {
    return mine(readKey(keyOf(id))) ?? mine(memory.get(id));
  },

  put(draft) {
    const owner = device.writer();
    if (draft.owner && draft.owner !== owner) return;
    draft = { ...draft, tab, owner: draft.owner ?? owner };
    memory.set(draft.id, draft);
    outbox((m) => m.put(keyOf(draft.id), draft));
    try {
      localStorage.setItem(keyOf(draft.id), JSON.stringify(draft));
    } catch {}
  },

  patch(id, changes) {
    const draft = drafts.get(id);
    if (draft) drafts.put({ ...draft, ...changes });
  },

  remove(id) {
    memory.delete(id);
    outbox((m) => m.remove(keyOf(id)));
    try {
      localStorage.removeItem(keyOf(id));
    } catch {}
  },

  /** The entries this tab has drafts of. */
  ids() {
    return [...new Set([...memory.keys(), ...stored().filter((k) => k.tab === tab).map((k) => k.id)])]
      .filter((id) => drafts.get(id));
  },

  /** The entries with words waiting to be sent from any tab of this writer (the list marks them). */
  waiting() {
    const found = new Map(); // id -> the newest draft
    const all = [...stored().map(({ key }) => readKey(key)), ...memory.values()];
    for (const draft of all.filter(mine)) {
      if (drafts.isBlank(draft.title, draft.body, draft.photos)) continue;
      const seen = found.get(draft.id);
      if (!seen || (draft.edited ?? '') > (seen.edited ?? '')) found.set(draft.id, draft);
    }
    return found;
  },

  /** How many drafts wait for another writer: counted only, what they wrote is theirs to see. */
  othersWaiting() {
    return stored().filter(({ key }) => !mine(readKey(key))).length;
  },

  /** Logging out: every draft of `owner`, in every tab, leaves this browser. */
  forgetWriter(owner) {
    for (const { key } of stored()) {
      const draft = readKey(key);
      if (draft && (!draft.owner || draft.owner === owner)) localStorage.removeItem(key);
    }
    memory.clear();
    import('./photos.js').then((m) => m.forgetWriter(owner), () => {});
    // What the module gathers to write is dropped by its own forgetWriter.
    return box ? box.then((m) => m.forgetWriter(owner), () => device.forgetDrafts(owner)) : device.forgetDrafts(owner);
  },

  isBlank: (title, body, photos) => !title.trim() && !body.trim() && !photos?.length,

  // A short fingerprint of a text, to recognise our own earlier save in a 409.
  fingerprint(title, body, photos = '') {
    const s = `${title}\u0000${body}${photos}`;
    let a = 0x811c9dc5, b = 0x9e3779b9;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      a = Math.imul(a ^ c, 16777619);
      b = Math.imul(b ^ c, 2246822507);
    }
    return (a >>> 0).toString(36) + (b >>> 0).toString(36) + s.length.toString(36);
  },
};

/** Every draft key in localStorage, with its tab and entry id. */
function stored() {
  const found = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      const parsed = parseKey(key);
      if (parsed) found.push({ key, ...parsed });
    }
  } catch {}
  return found;
}

// -- This tab, and the drafts of tabs that are gone -----------------------------------------------

/**
 * Holds this tab's lock for as long as the page lives. A tab duplicated from another starts with
 * its sessionStorage, so with its id: the lock is then held (by a live tab) and this one takes a
 * new id. A reload lets go of the lock as the old page goes; it is waited for a moment.
 */
async function holdTab() {
  if (!navigator.locks) return;
  const held = (name, wait) => new Promise((resolve) => {
    navigator.locks.request(name, wait ? { signal: AbortSignal.timeout(1500) } : { ifAvailable: true }, (lock) => {
      resolve(Boolean(lock));
      return lock ? new Promise(() => {}) : null; // kept until the page goes
    }).catch(() => resolve(false));
  });
  if (await held(TAB_LOCK + tab, true)) return;
  tab = newTab();
  try {
    sessionStorage.setItem(TAB_KEY, tab);
  } catch {}
  await held(TAB_LOCK + tab, false);
}

/**
 * Takes over the drafts of tabs that are gone, so that they are sent from here. A draft of an
 * entry this tab has words of too stays where it is (the next start takes it), rather than one of
 * the two texts replacing the other unseen. Without Web Locks (older browsers) no tab can tell
 * which are gone: the drafts from before tabs had ids are taken, and each tab sends its own.
 */
async function adoptOrphans() {
  const alive = await aliveTabs();
  const take = async () => {
    for (const { key, tab: of, id } of stored()) {
      if (of === tab || (of && (alive.has(of) || !navigator.locks))) continue;
      const draft = mine(readKey(key));
      if (!draft || drafts.get(id)) continue;
      try {
        localStorage.setItem(keyOf(id), JSON.stringify({ ...draft, tab }));
        localStorage.removeItem(key);
      } catch {}
      outbox((m) => {
        m.remove(key);
        m.put(keyOf(id), { ...draft, tab });
      });
    }
  };
  // One tab at a time, so two tabs starting together do not both take the same draft.
  if (navigator.locks) await navigator.locks.request('diary.adopting', take).catch(() => {});
  else await take();
}

/** The ids of the tabs open now (each holds its lock); empty without Web Locks. */
async function aliveTabs() {
  const alive = new Set();
  if (!navigator.locks) return alive;
  const { held = [] } = await navigator.locks.query().catch(() => ({}));
  for (const lock of held) if (lock.name?.startsWith(TAB_LOCK)) alive.add(lock.name.slice(TAB_LOCK.length));
  return alive;
}

/**
 * Puts back the drafts the outbox holds and localStorage lost (it was full, or cleared): this
 * tab's own into memory when localStorage still refuses them. Another open tab's are its own
 * business (one it has just sent may not have left the outbox yet).
 */
async function restore() {
  const alive = await aliveTabs();
  for (const { key, ...draft } of await device.drafts()) {
    if (readKey(key) || (draft.tab !== tab && alive.has(draft.tab))) continue;
    try {
      localStorage.setItem(key, JSON.stringify(draft));
    } catch {
      if (draft.tab === tab && !memory.has(draft.id)) memory.set(draft.id, draft);
    }
  }
}

// -- Logging out, in every tab --------------------------------------------------------------------
// The tab that logs out deletes the writer's drafts; another tab still open would write its own
// back (a retry, a key typed) before it learns that the session has ended. It is told at once.

const tabs = typeof BroadcastChannel === 'function' ? new BroadcastChannel('diary.tabs') : null;

/** Logged out in this tab: the other tabs stop sending and delete what they keep of `writer`. */
export function loggedOutEverywhere(writer) {
  tabs?.postMessage({ loggedOut: writer });
}

tabs?.addEventListener('message', (event) => {
  const writer = event.data?.loggedOut;
  if (writer === undefined) return;
  hold();
  for (const timer of timers.values()) clearTimeout(timer);
  timers.clear();
  device.loggedOut();
  drafts.forgetWriter(writer);
});

/** Resolves once this tab has its id and has taken over the drafts of tabs that are gone. */
export const ready = holdTab().then(restore).then(adoptOrphans).catch(() => {});
