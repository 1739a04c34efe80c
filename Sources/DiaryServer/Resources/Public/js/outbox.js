// The outbox: the words the server has not acknowledged yet (new entries and edits, written
// offline or whose save failed), each with its client-made id and the version it builds on, kept
// in IndexedDB until the server has them. sending.js sends them: on start, on `online`, and when
// the page is looked at again (no Background Sync: Safari and Firefox have none).
//
// autosave.js keeps the same drafts in localStorage too, written at once as the writer types, so
// the last words before a tab closes are on disk before it goes. The outbox is the copy that
// holds what localStorage cannot (it is small, about 5 MB for the whole diary, and may be
// cleared on its own): at start, a draft found here and not there is put back.

import { drafts, open } from './device.js';

const OUTBOX = 'outbox';

// Writes are gathered for a moment: typing changes a draft at every key, the outbox needs the last.
const GATHER_MS = 100;
const pending = new Map(); // key -> draft, or null to delete
let timer = null;
let writing = Promise.resolve(); // the writes under way, one after another

/** Keeps the draft (`key`: its localStorage key) in the outbox. */
export function put(key, draft) {
  pending.set(key, { ...draft, key });
  timer ??= setTimeout(flush, GATHER_MS);
}

/** The server has the draft's words (or they were dropped): out of the outbox. */
export function remove(key) {
  pending.set(key, null);
  timer ??= setTimeout(flush, GATHER_MS);
}

/** Every draft in the outbox (of every writer and tab; autosave.js picks). */
export async function all() {
  await flush();
  return drafts();
}

/** Logging out: every draft of `owner` (and the ones with no writer recorded) leaves the outbox. */
export async function forgetWriter(owner) {
  pending.clear();
  const drafts = await all();
  const batch = new Map(drafts.filter((d) => !d.owner || d.owner === owner).map((d) => [d.key, null]));
  writing = writing.then(() => write(batch));
  await writing;
}

/** Writes what is gathered now; resolves when every write asked for so far is done. */
function flush() {
  clearTimeout(timer);
  timer = null;
  if (pending.size) {
    const batch = new Map(pending);
    pending.clear();
    writing = writing.then(() => write(batch));
  }
  return writing;
}

// The page going away cannot wait for the timer.
addEventListener('pagehide', flush);
document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && flush());

async function write(batch) {
  if (!batch.size) return;
  try {
    const db = await open();
    await new Promise((resolve, reject) => {
      const tx = db.transaction(OUTBOX, 'readwrite');
      const store = tx.objectStore(OUTBOX);
      for (const [key, draft] of batch) draft ? store.put(draft) : store.delete(key);
      tx.oncomplete = resolve;
      tx.onerror = tx.onabort = () => reject(tx.error);
    });
  } catch {} // no IndexedDB: localStorage still has the drafts
}
