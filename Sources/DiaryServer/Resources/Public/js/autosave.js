// Saving without a save button. Every edit goes to localStorage first (the
// drafts, below), then to the server, debounced. A draft leaves localStorage
// only when the server has acknowledged exactly that text.
//
// Events on `events`: status {state: 'failed'|'disk_full'|'too_large'|'saved'|'held'},
// saved {id, entry}, conflict {id, mine, theirs}, replaced {id, entry},
// trashed {id}.

import * as api from './api.js';
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

/** Records an edit and schedules a save. A blank new entry is never kept. */
export function edit(id, title, body) {
  const old = drafts.get(id);
  const base = old ? old.base : versions.get(id) ?? null;
  // (While its first POST is under way the entry may be made after all; then
  // the blank draft stays, so that leaving the entry moves it to the trash.)
  if (base == null && drafts.isBlank(title, body) && !inflight.has(id)) {
    drafts.remove(id);
    clearTimeout(timers.get(id));
    return;
  }
  drafts.put({
    sent: [], created: new Date().toISOString(), ...old,
    id, title, body, base, left: false,
  });
  clearTimeout(timers.get(id));
  timers.set(id, setTimeout(() => save(id), DEBOUNCE_MS));
}

/** The writer leaves the entry: an emptied one goes to the trash. */
export function leave(id, opts = {}) {
  const draft = drafts.get(id);
  if (draft && draft.base != null && drafts.isBlank(draft.title, draft.body)) {
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

/** Resolves when no save is under way (the list waits so it shows new text). */
export async function settled() {
  for (const id of [...timers.keys()]) save(id);
  while (inflight.size) await Promise.allSettled([...inflight.values()]);
}

/** The session is known: from now on edits are sent, first whatever waits in the drafts. */
export function resume() {
  held = false;
  saveAll();
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
  const draft = drafts.get(id);
  if (!draft) return;
  const { title, body, base } = draft;
  try {
    if (drafts.isBlank(title, body)) {
      if (base == null) drafts.remove(id);
      else if (draft.left) await trash(id, keepalive);
      return;
    }
    const fp = drafts.fingerprint(title, body);
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
      const entry = await api.createEntry(id, title, body, { keepalive, location, basedOn: tried ? FIRST_VERSION : undefined });
      // 200 for an id that exists: an earlier try of ours got through, maybe
      // with older text. Then the entry needs a PUT on top of it.
      if (entry.title === title && entry.body === body) acknowledge(id, entry, title, body);
      else rebase(id, entry);
    } else {
      acknowledge(id, await api.updateEntry(id, base, title, body, { keepalive }), title, body);
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
  if (now && drafts.isBlank(now.title, now.body)) drafts.remove(id);
  succeeded(id);
  emit('trashed', { id });
}

function acknowledge(id, entry, title, body) {
  known(id, entry.version);
  const draft = drafts.get(id);
  if (draft && draft.title === title && draft.body === body) drafts.remove(id);
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
  const same = current.title === draft.title && current.body === draft.body;
  if (same) return acknowledge(id, current, draft.title, draft.body);
  if ((draft.sent ?? []).includes(drafts.fingerprint(current.title, current.body))) {
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

// Back online, or back to the tab: try what failed without waiting for the timer.
addEventListener('online', saveAll);
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible' && failing.size) saveAll();
});

// -- Drafts -----------------------------------------------------------------------------------
// Text the server has not acknowledged yet, kept in localStorage so that a
// failed save, a closed tab or a reload loses nothing. One record per entry:
// {id, title, body, base: version it was edited from (null: not created yet),
//  created, left: writer has left it, sent: hashes of texts sent unacknowledged,
//  location: the rounded place the first POST sent (null: none; absent: not tried yet)}

const prefix = 'diary.draft.';
const memory = new Map(); // used where localStorage is unavailable or full

// Each draft records its writer (`owner`, a user name). A browser shared by two people
// reads, writes and sends only the logged-in user's drafts; the others wait for their writer.
// Before the server has answered (offline at start), the writer last logged in here is
// presumed, so that what is written meanwhile is sent as theirs and no one else's; unless they
// logged out: then no one is presumed, and their drafts stay out of sight (a shared browser's next
// person sees none of their titles) until someone logs in again.
const WRITER_KEY = 'diary.writer';
const LOGGED_OUT_KEY = 'diary.loggedOut';
let owner = (() => {
  try {
    return localStorage.getItem(LOGGED_OUT_KEY) ? null : localStorage.getItem(WRITER_KEY);
  } catch {
    return null;
  }
})();
const mine = (draft) => (draft && (!draft.owner || draft.owner === owner) ? draft : null);

export const drafts = {
  setOwner(name) {
    owner = name;
    try {
      localStorage.setItem(WRITER_KEY, name);
      localStorage.removeItem(LOGGED_OUT_KEY);
    } catch {}
  },

  /** Logged out on purpose: the drafts kept here are no one's to see until the next login. */
  loggedOut() {
    owner = null;
    try {
      localStorage.setItem(LOGGED_OUT_KEY, '1');
    } catch {}
  },

  get(id) {
    try {
      const raw = localStorage.getItem(prefix + id);
      if (raw) return mine(JSON.parse(raw));
    } catch {}
    return mine(memory.get(id));
  },

  put(draft) {
    if (draft.owner && draft.owner !== owner) return;
    draft = { ...draft, owner: draft.owner ?? owner };
    memory.set(draft.id, draft);
    try {
      localStorage.setItem(prefix + draft.id, JSON.stringify(draft));
    } catch {}
  },

  patch(id, changes) {
    const draft = drafts.get(id);
    if (draft) drafts.put({ ...draft, ...changes });
  },

  remove(id) {
    memory.delete(id);
    try {
      localStorage.removeItem(prefix + id);
    } catch {}
  },

  ids() {
    return all().filter((id) => drafts.get(id));
  },

  /** How many drafts wait for another writer: counted only, what they wrote is theirs to see. */
  othersWaiting() {
    return all().length - drafts.ids().length;
  },

  isBlank: (title, body) => !title.trim() && !body.trim(),

  // A short fingerprint of a text, to recognise our own earlier save in a 409.
  fingerprint(title, body) {
    const s = `${title}\u0000${body}`;
    let a = 0x811c9dc5, b = 0x9e3779b9;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      a = Math.imul(a ^ c, 16777619);
      b = Math.imul(b ^ c, 2246822507);
    }
    return (a >>> 0).toString(36) + (b >>> 0).toString(36) + s.length.toString(36);
  },
};

function all() {
  const found = new Set(memory.keys());
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key?.startsWith(prefix)) found.add(key.slice(prefix.length));
    }
  } catch {}
  return [...found];
}
