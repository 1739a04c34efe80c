// Sending the drafts (autosave.js keeps them) to the server: each edit debounced, a new entry's
// first save with its place (weather.js), retries with a growing pause, and the conflict choice.
// Loaded with the editor, or at start when drafts wait to be sent: a first visit that only
// reads does without it.

import * as api from './api.js';
import { drafts, emit, isHeld, known, sendWith, unknown, version } from './autosave.js';
import * as device from './device.js';

const DEBOUNCE_MS = 500;
// Where a new entry is written, for its weather: weather.js, loaded with the editor, tells.
let takePlace = () => null;
export const findPlacesWith = (find) => { takePlace = find; };
const FIRST_VERSION = 1; // what a create makes
const timers = new Map(); // id -> debounce timer
const inflight = new Map(); // id -> promise of the request under way
const again = new Set(); // ids edited while a request was under way
const conflicted = new Set(); // ids waiting for the writer to choose a version
const failing = new Set(); // ids whose last attempt failed
let retryTimer = null;
let retryDelay = 0;

/** Records an edit and schedules a save. A blank new entry is never kept. `photos`: see pics below. */
export function edit(id, title, body, photos) {
  const old = drafts.get(id);
  const base = old ? old.base : version(id) ?? null;
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
  if (isHeld() || conflicted.has(id) || !drafts.get(id)) return Promise.resolve();
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

/** Sends every draft of this tab: at start, when back online, on retry (autosave.js's saveAll asks). */
function saveAll() {
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
    unknown(id);
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

// A draft's `photos` (absent: unchanged) as sent, and compared; photos.js sends those `local` first.
const pics = (photos) => photos?.map(({ id, caption }) => ({ id, caption }));
const photosOf = (d) => JSON.stringify(pics(d.photos)) ?? '';

/** Resolves when no save is under way: the edits waiting for their pause are sent first. */
async function settled() {
  for (const id of [...timers.keys()]) save(id);
  while (inflight.size) await Promise.allSettled([...inflight.values()]);
}

/** Sending is held (logged out): no retry comes; told in every tab, no debounced save either. */
function stop({ timers: all = false } = {}) {
  clearTimeout(retryTimer);
  retryTimer = null;
  if (!all) return;
  for (const timer of timers.values()) clearTimeout(timer);
  timers.clear();
}

sendWith({ saveAll, settled, stop });
