// Text the server has not acknowledged yet, kept in localStorage so that a
// failed save, a closed tab or a reload loses nothing. One record per entry:
// {id, title, body, base: version it was edited from (null: not created yet),
//  created, left: writer has left it, sent: hashes of texts sent unacknowledged,
//  location: the rounded place the first POST sent (null: none; absent: not tried yet)}

const prefix = 'diary.draft.';
const memory = new Map(); // used where localStorage is unavailable or full

// Each draft records its writer (`owner`, a user name). A browser shared by two people
// reads, writes and sends only the logged-in user's drafts; the others wait for their writer.
let owner = null;
export const setOwner = (name) => { owner = name; };
const mine = (draft) => (draft && (!draft.owner || draft.owner === owner) ? draft : null);

export function get(id) {
  try {
    const raw = localStorage.getItem(prefix + id);
    if (raw) return mine(JSON.parse(raw));
  } catch {}
  return mine(memory.get(id));
}

export function put(draft) {
  if (draft.owner && draft.owner !== owner) return;
  draft = { ...draft, owner: draft.owner ?? owner };
  memory.set(draft.id, draft);
  try {
    localStorage.setItem(prefix + draft.id, JSON.stringify(draft));
  } catch {}
}

export function patch(id, changes) {
  const draft = get(id);
  if (draft) put({ ...draft, ...changes });
}

export function remove(id) {
  memory.delete(id);
  try {
    localStorage.removeItem(prefix + id);
  } catch {}
}

export function ids() {
  const found = new Set(memory.keys());
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key?.startsWith(prefix)) found.add(key.slice(prefix.length));
    }
  } catch {}
  return [...found].filter((id) => get(id));
}

export const isBlank = (title, body) => !title.trim() && !body.trim();

// A short fingerprint of a text, to recognise our own earlier save in a 409.
export function fingerprint(title, body) {
  const s = `${title}\u0000${body}`;
  let a = 0x811c9dc5, b = 0x9e3779b9;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 16777619);
    b = Math.imul(b ^ c, 2246822507);
  }
  return (a >>> 0).toString(36) + (b >>> 0).toString(36) + s.length.toString(36);
}
