// A thin wrapper over the JSON API (/api/v1). Every failure becomes an
// ApiError; status 0 means the server could not be reached at all.

export class ApiError extends Error {
  constructor(status, data) {
    super(data?.message || (status ? `HTTP ${status}` : 'The server could not be reached.'));
    this.status = status;
    this.code = data?.error;
    this.current = data?.current; // the server's version, on a 409 conflict
  }
}

// Relative, so the app also works when served under a sub-path.
const base = 'api/v1/';

async function request(method, path, { body, headers = {}, keepalive = false } = {}) {
  let res;
  try {
    const json = body === undefined ? undefined : JSON.stringify(body);
    if (json !== undefined) headers['Content-Type'] = 'application/json';
    // Browsers refuse keepalive bodies over 64 KiB; a long entry goes without it.
    res = await fetch(base + path, {
      method, headers, body: json, cache: 'no-store',
      keepalive: keepalive && (json?.length ?? 0) < 60000,
    });
  } catch (e) {
    throw new ApiError(0, null);
  }
  if (res.status === 204) return null;
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

const enc = encodeURIComponent;
const page = (path, cursor, limit) =>
  `${path}?limit=${limit}` + (cursor ? `&cursor=${enc(cursor)}` : '');

export const listEntries = (cursor, limit = 20) => request('GET', page('entries', cursor, limit));
export const listTrash = (cursor, limit = 20) => request('GET', page('trash', cursor, limit));
export const getEntry = (id) => request('GET', `entries/${enc(id)}`);
export const search = (q, limit = 50) => request('GET', `search?q=${enc(q)}&limit=${limit}`);
export const loadSample = () => request('POST', 'sample');
export const restoreEntry = (id) => request('POST', `entries/${enc(id)}/restore`);
export const purgeEntry = (id) => request('DELETE', `trash/${enc(id)}`);

export const trashEntry = (id, opts = {}) =>
  request('DELETE', `entries/${enc(id)}`, { keepalive: opts.keepalive });

// The client picks the id, so a retried POST finds the entry it already made.
export const createEntry = (id, title, body, opts = {}) =>
  request('POST', 'entries', { body: { id, title, body }, keepalive: opts.keepalive });

export const updateEntry = (id, version, title, body, opts = {}) =>
  request('PUT', `entries/${enc(id)}`, {
    body: { title, body },
    headers: { 'If-Match': `"${version}"` },
    keepalive: opts.keepalive,
  });
