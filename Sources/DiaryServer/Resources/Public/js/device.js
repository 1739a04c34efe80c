// The device's copy of the diary: the entries its writer has seen, kept in IndexedDB so that the
// list and an entry open without a connection. Per writer (a shared browser keeps each person's
// apart), and bounded: the newest KEEP entries seen, by the date they were written. An entry's
// whole text is kept once it has been opened; the list's rows (title, date, weather, first line)
// for every entry seen.
//
// Who this device writes for is decided here too: the writer last logged in, presumed while the
// server has not answered yet (offline at start), or no one after a deliberate log out.
//
// IndexedDB may be missing or refuse (a private window, a full disk): then nothing is kept, and
// everything works as it did without a copy.

import * as api from './api.js';

export const KEEP = 2000;

const NAME = 'diary';
const ENTRIES = 'entries'; // {user, id, createdAt, row: the list's entry, entry?: the whole entry}
const NEWEST = 'newest'; // index [user, createdAt, id]: the list's order, newest last
const OUTBOX = 'outbox'; // the drafts not sent yet (outbox.js writes them), keyed as in localStorage

const WRITER_KEY = 'diary.writer';
const LOGGED_OUT_KEY = 'diary.loggedOut';
// The copy is bound to the session it was kept under: the mark of the `diary_device` cookie the
// server sets beside the session's (SessionCookies.swift). The browser drops that cookie when
// the session's own expires, and the server expires both when it ends the session or finds it
// over; a start whose cookie is not the mark kept shows nothing of the last writer, offline too.
const MARK_KEY = 'diary.sessionMark';
const deviceMark = () => document.cookie.split('; ').find((c) => c.startsWith('diary_device='))?.slice(13) || null;

let current = (() => {
  try {
    if (localStorage.getItem(LOGGED_OUT_KEY)) return null;
    const writer = localStorage.getItem(WRITER_KEY);
    const mark = localStorage.getItem(MARK_KEY);
    if (writer != null && mark != null && mark !== deviceMark()) {
      // The session this copy was kept under is over in this browser: its writer's entries go.
      localStorage.setItem(LOGGED_OUT_KEY, '1');
      queueMicrotask(() => forgetWriter(writer).catch(() => {}));
      return null;
    }
    return writer;
  } catch {
    return null;
  }
})();

/** The writer this device works for: logged in, or presumed while offline; null after a log out. */
export const writer = () => current;

export function setWriter(name) {
  current = name;
  try {
    localStorage.setItem(WRITER_KEY, name);
    localStorage.removeItem(LOGGED_OUT_KEY);
    const mark = deviceMark();
    if (mark) localStorage.setItem(MARK_KEY, mark);
    else localStorage.removeItem(MARK_KEY);
  } catch {}
}

/**
 * The server says no one is logged in here, and this page did not log out: the session ended
 * elsewhere (signed out from another device, a new password) or by time. The entries kept of the
 * writer go, and no one is presumed at an offline start; drafts not sent yet stay, unseen, for
 * their writer's next login.
 */
export async function sessionOver() {
  const writer = current;
  loggedOut();
  if (writer != null) await forgetWriter(writer).catch(() => {});
}

/** Logged out on purpose: no one is presumed until the next login. */
export function loggedOut() {
  current = null;
  try {
    localStorage.setItem(LOGGED_OUT_KEY, '1');
  } catch {}
}

// -- Reading through the device ----------------------------------------------------------------

const DEVICE_CURSOR = 'device:';
const ends = new Map(); // a server's cursor -> the createdAt of the last row before it

/**
 * A page of `user`'s list, newest first: from the server (and kept), or, when the server cannot be
 * reached, from the device's copy (`kept: true`). A page after one from the device comes from the
 * device too. A later page of the server's that fails fails as it would without a copy.
 */
export async function listEntries(cursor, user = current, limit = 20, more = '') {
  if (cursor?.startsWith(DEVICE_CURSOR)) return keptPage(cursor, user, limit);
  try {
    const page = await api.listEntries(cursor, limit, more);
    // The page covers the list from where the page before it ended to its own last row (to the
    // end, the last page): what the device keeps in that stretch and the page lacks is gone
    // from the diary (trashed elsewhere, say).
    const upper = cursor ? ends.get(cursor) : null;
    const lower = page.nextCursor ? page.entries.at(-1) : null;
    if (page.nextCursor && lower) ends.set(page.nextCursor, lower.createdAt);
    const covers = !cursor || upper ? { upper, lower: lower?.createdAt ?? null } : null;
    keepRows(page.entries, covers, user);
    return page;
  } catch (error) {
    if (error.status !== 0 || cursor) throw error;
    const page = await keptPage(null, user, limit);
    if (!page.entries.length) throw error;
    return page;
  }
}

/** An entry from the server (and kept), or its device copy when the server cannot be reached. */
export async function getEntry(id) {
  try {
    const entry = await api.getEntry(id);
    keepEntry(entry);
    return entry;
  } catch (error) {
    if (error.status !== 0) throw error;
    if (current == null) throw error; // no one's copy to read (logged out)
    const entry = await keptEntry(id);
    if (!entry) throw Object.assign(error, { notKept: true });
    return { ...entry, kept: true };
  }
}

/** The copy of an entry this device kept when it was last opened or saved here, or null. */
export async function keptEntry(id) {
  if (current == null) return null;
  const record = await read(ENTRIES, [current, id]).catch(() => null);
  return record?.entry ?? null;
}

/** A page of the device's copy, newest first; `cursor` from the page before it. */
export async function keptPage(cursor, user = current, limit = 20) {
  if (user == null) return { entries: [], nextCursor: null, kept: true };
  const after = cursor ? JSON.parse(cursor.slice(DEVICE_CURSOR.length)) : null;
  const range = IDBKeyRange.bound([user], after ? [user, ...after] : [user, []], false, Boolean(after));
  const entries = [];
  try {
    const db = await open();
    await new Promise((resolve, reject) => {
      const request = db.transaction(ENTRIES).objectStore(ENTRIES).index(NEWEST).openCursor(range, 'prev');
      request.onsuccess = () => {
        const found = request.result;
        if (!found || entries.length === limit + 1) return resolve();
        entries.push(found.value.row);
        found.continue();
      };
      request.onerror = () => reject(request.error);
    });
  } catch {
    return { entries: [], nextCursor: null, kept: true };
  }
  const more = entries.length > limit;
  if (more) entries.pop();
  const last = entries.at(-1);
  return {
    entries,
    nextCursor: more ? DEVICE_CURSOR + JSON.stringify([last.createdAt, last.id]) : null,
    kept: true,
  };
}

// -- Keeping ------------------------------------------------------------------------------------

/**
 * Keeps the list's rows; a whole entry kept before stays only if it is still the same version.
 * `covers` ({upper, lower}: a createdAt, or null for no end): the stretch of the list the rows
 * are all of; other entries kept in it are let go. Both ends are left out of the stretch: the
 * server orders entries written at the same moment by a sequence the device does not know, so
 * such entries at a page's edge may be on the next page.
 */
export function keepRows(rows, covers = null, user = current) {
  if (user == null || (!rows.length && !covers)) return Promise.resolve();
  return change((store) => {
    if (covers) {
      const listed = new Set(rows.map((row) => row.id));
      // ([user, t, []] sorts after every [user, t, id], and [user, t] before them.)
      const range = IDBKeyRange.bound(covers.lower ? [user, covers.lower, []] : [user],
        covers.upper ? [user, covers.upper] : [user, []], true, true);
      const stretch = store.index(NEWEST).openCursor(range);
      stretch.onsuccess = () => {
        const found = stretch.result;
        if (!found) return;
        if (!listed.has(found.value.id)) found.delete();
        found.continue();
      };
    }
    let left = rows.length;
    for (const row of rows) {
      const request = store.get([user, row.id]);
      request.onsuccess = () => {
        const old = request.result;
        const entry = old?.entry?.version === row.version ? old.entry : undefined;
        store.put({ user, id: row.id, createdAt: row.createdAt, row, entry });
        if (--left === 0) trim(store, user);
      };
    }
  });
}

/** Keeps a whole entry (opened, or just saved), with the row the list would show for it. */
export function keepEntry(entry) {
  const user = current;
  if (user == null || !entry?.id) return Promise.resolve();
  if (entry.deletedAt) return forgetEntry(entry.id);
  const row = {
    id: entry.id, title: entry.title, excerpt: excerptOf(entry.body ?? ''),
    createdAt: entry.createdAt, timeZone: entry.timeZone, updatedAt: entry.updatedAt, version: entry.version, weather: entry.weather ?? null,
    tags: entry.tags ?? [], starred: entry.starred ?? false, photo: entry.photos?.[0]?.id,
  };
  return change((store) => {
    store.put({ user, id: entry.id, createdAt: entry.createdAt, row, entry });
    trim(store, user);
  });
}

/** The entry went to the trash, or is gone: the list offline does not show it any more. */
export function forgetEntry(id) {
  const user = current;
  if (user == null) return Promise.resolve();
  return change((store) => store.delete([user, id]));
}

/** Everything kept of `user` on this device goes (logging out). */
export async function forgetWriter(user) {
  if (user == null) return;
  await change((store) => store.delete(IDBKeyRange.bound([user], [user, []])));
}

/** How many entries of `user` the device keeps (the tests and the benchmark read it). */
export async function count(user = current) {
  const db = await open();
  return new Promise((resolve, reject) => {
    const request = db.transaction(ENTRIES).objectStore(ENTRIES).count(IDBKeyRange.bound([user], [user, []]));
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

// -- IndexedDB ------------------------------------------------------------------------------------

let opening = null;

/** The diary's IndexedDB database: the entries kept, and the outbox (outbox.js). */
export function open() {
  opening ??= new Promise((resolve, reject) => {
    const request = indexedDB.open(NAME, 1);
    request.onupgradeneeded = () => {
      const store = request.result.createObjectStore(ENTRIES, { keyPath: ['user', 'id'] });
      store.createIndex(NEWEST, ['user', 'createdAt', 'id']);
      // The outbox: one draft per tab and entry, keyed as in localStorage (autosave.js).
      request.result.createObjectStore(OUTBOX, { keyPath: 'key' });
    };
    request.onsuccess = () => {
      // Another tab's newer version of the app needs the database: let it have it.
      request.result.onversionchange = () => {
        request.result.close();
        opening = null;
      };
      resolve(request.result);
    };
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error('IndexedDB is blocked'));
  });
  opening.catch(() => (opening = null));
  return opening;
}

/** The record at `key` in `storeName`; without a key, all its records. */
async function read(storeName, key) {
  const db = await open();
  return new Promise((resolve, reject) => {
    const store = db.transaction(storeName).objectStore(storeName);
    const request = key === undefined ? store.getAll() : store.get(key);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** Every draft in the outbox, of every writer and tab (autosave.js picks); none if it cannot be read. */
export const drafts = () => read(OUTBOX).catch(() => []);

/** Logging out: every draft of `owner` (and the ones with no writer recorded) leaves the outbox. */
export const forgetDrafts = (owner) => change((store) => {
  const all = store.openCursor();
  all.onsuccess = () => {
    const found = all.result;
    if (!found) return;
    if (!found.value.owner || found.value.owner === owner) found.delete();
    found.continue();
  };
}, OUTBOX);

/**
 * Runs `work(store)` in one read-write transaction. Failures are swallowed: the copy is a
 * convenience, the server has the diary.
 */
async function change(work, storeName = ENTRIES) {
  try {
    const db = await open();
    await new Promise((resolve, reject) => {
      const tx = db.transaction(storeName, 'readwrite');
      const store = tx.objectStore(storeName);
      work(store);
      tx.oncomplete = resolve;
      tx.onerror = tx.onabort = () => reject(tx.error);
    });
  } catch {}
}

// Lets go of the oldest entries past KEEP. Called after the writes are asked for (requests in one
// transaction run in order), so the newest KEEP stay.
function trim(store, user) {
  const range = IDBKeyRange.bound([user], [user, []]);
  const counting = store.index(NEWEST).count(range);
  counting.onsuccess = () => {
    let extra = counting.result - KEEP;
    if (extra <= 0) return;
    const oldest = store.index(NEWEST).openCursor(range, 'next');
    oldest.onsuccess = () => {
      const found = oldest.result;
      if (!found || extra-- <= 0) return;
      found.delete();
      found.continue();
    };
  };
}

/**
 * The first line of the body that is not blank, at most 200 columns, as the server's excerpt
 * (Excerpt.swift): Hangul and CJK take two, as on screen (the server counts emoji wide too).
 */
export function excerptOf(body) {
  const line = body.split(/[\r\n]/).map((l) => l.trimStart()).find(Boolean) ?? '';
  let columns = 0;
  let end = 0;
  for (const c of line) {
    columns += /[\u1100-\u115F\u2E80-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFF00-\uFF60]/.test(c) ? 2 : 1;
    if (columns > 200) break;
    end += c.length;
  }
  return line.slice(0, end).trimEnd();
}
