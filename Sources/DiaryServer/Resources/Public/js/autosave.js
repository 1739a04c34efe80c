// Saving without a save button: the words kept in this browser until the server has them.
// Every edit goes to localStorage first (the drafts, below), then to the server, debounced, by
// sending.js. A draft leaves localStorage only when the server has acknowledged exactly that text.
//
// This module is what the list needs too (a first visit that only reads does without the
// sender): the drafts, this tab's and the gone tabs', the versions the server told of, whether
// sending is held, and the events. sending.js, which imports this one, comes with the editor, or
// when drafts wait to be sent (session.js tells where it is: this module cannot import it).
//
// Events on `events`: status {state: 'failed'|'disk_full'|'too_large'|'saved'|'held'},
// saved {id, entry}, conflict {id, mine, theirs}, replaced {id, entry},
// trashed {id} (emptied by its writer), removed {id} (deleted from a row or the editor: rows.js).

import * as device from './device.js';

export const events = new EventTarget();
export const emit = (type, detail) => events.dispatchEvent(new CustomEvent(type, { detail }));

const versions = new Map(); // id -> the latest version the server told us about
// Nothing is sent before the server has said who is writing (and given the CSRF token every
// save needs). A page opened while the server cannot be reached keeps its edits in the drafts
// until then.
let held = true;

export const version = (id) => versions.get(id);

export function known(id, version) {
  if (version > (versions.get(id) ?? 0)) versions.set(id, version);
}

/** The entry is gone from the server (deleted for good elsewhere): its version with it. */
export const unknown = (id) => versions.delete(id);

/** An entry changed here by other means than its words (its star, its tags): told as a save. */
export function announce(entry) {
  known(entry.id, entry.version);
  device.keepEntry(entry);
  emit('saved', { id: entry.id, entry });
  return entry;
}

/** Whether sending is held: no one is logged in (or logging out is under way). */
export const isHeld = () => held;

/** Logged out: nothing more is sent; the drafts wait in this browser for their writer. */
export function hold() {
  held = true;
  sender?.stop();
  emit('status', { state: 'held' });
}

/** The session is known: from now on edits are sent, first whatever waits in the drafts. */
export function resume() {
  held = false;
  sendWaiting();
}

// The sender (sending.js) once it has loaded; and how to load it (session.js says).
let sender = null;
let loadSender = () => Promise.reject(new Error('no sender'));
export const sendWith = (loaded) => { sender = loaded; };
export const sendFrom = (load) => { loadSender = load; };

let loading = null; // the sender on its way

/** Sends every draft kept in this browser: at start, when back online, before logging out. */
export async function saveAll() {
  if (!sender && drafts.ids().length) {
    // Not to be had (offline, and not kept by the worker yet): the drafts stay, for the next
    // start.
    await (loading ??= loadSender().catch(() => {}).finally(() => (loading = null)));
  }
  sender?.saveAll();
}

/** Resolves when no save is under way (the list waits so it shows new text). */
export async function settled() {
  await starting; // the drafts of tabs that are gone are taken over before they are sent
  await loading;
  await sender?.settled();
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
  sender?.stop({ timers: true });
  device.loggedOut();
  drafts.forgetWriter(writer);
});

/** Resolves once this tab has its id and has taken over the drafts of tabs that are gone. */
export const ready = holdTab().then(restore).then(adoptOrphans).catch(() => {});
