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

// The limits the server holds a writer to (a title's length, a search's, photos and tags on an
// entry, a password's, the login throttle's wait: WebAppLimits.swift), written into the page by
// the server as it starts, each from the rule's own constant. The service worker keeps the page,
// so they hold offline too. No script copies a number of them: one missing (a page served
// without them) leaves the check to the server, which refuses in words of its own.
export const limits = (() => {
  try {
    return JSON.parse(document.getElementById('limits')?.textContent || '{}');
  } catch {
    return {};
  }
})();

// Relative, so the app also works when served under a sub-path.
const base = 'api/v1/';

// The session's CSRF token: every state-changing request echoes it, so another site
// cannot make this browser write to the diary. Set when the session is known.
let csrfToken = null;
export const setCsrfToken = (token) => { csrfToken = token; };
export const csrf = () => csrfToken;

// Told when the server says no one is logged in (the session ended, say).
export const sessionEvents = new EventTarget();

// Requests under way, and who waits for there to be none.
let underWay = 0;
let waitingForNone = [];

/** Resolves once no request is under way: logging out lets a list page already asked for
 * arrive first, rather than have it refused (401) by a session that just ended. */
export function quiet() {
  return underWay ? new Promise((resolve) => waitingForNone.push(resolve)) : Promise.resolve();
}

async function request(method, path, options = {}) {
  underWay += 1;
  try {
    return await send(method, path, options);
  } finally {
    underWay -= 1;
    if (!underWay) waitingForNone.splice(0).forEach((resolve) => resolve());
  }
}

async function send(method, path, { body, headers = {}, keepalive = false, timeout } = {}) {
  let res;
  try {
    const json = body === undefined ? undefined : JSON.stringify(body);
    if (json !== undefined) headers['Content-Type'] = 'application/json';
    if (csrfToken && method !== 'GET') headers['X-CSRF-Token'] = csrfToken;
    // Browsers refuse keepalive bodies over 64 KiB; a long entry goes without it.
    res = await fetch(base + path, {
      method, headers, body: json, cache: 'no-store',
      keepalive: keepalive && (json?.length ?? 0) < 60000,
      // A server that does not answer in time counts as one that cannot be reached.
      signal: timeout ? AbortSignal.timeout?.(timeout) : undefined,
    });
  } catch (e) {
    throw new ApiError(0, null);
  }
  if (res.status === 204) return null;
  const data = await res.json().catch(() => null);
  if (res.status === 401 && path !== 'session') sessionEvents.dispatchEvent(new Event('ended'));
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

// A check left hanging (a connection that carries nothing) is given up, so it can be asked again.
export const getSession = () => request('GET', 'session', { timeout: 10000 });
// `setupCode`: the code `diary serve` printed, needed when setting up from another computer.
export const setUp = (name, password, setupCode) =>
  request('POST', 'setup', { body: setupCode ? { name, password, setupCode } : { name, password } });
export const logIn = (name, password) => request('POST', 'session', { body: { name, password } });
export const logOut = () => request('DELETE', 'session');

const enc = encodeURIComponent;
const page = (path, cursor, limit) =>
  `${path}?limit=${limit}` + (cursor ? `&cursor=${enc(cursor)}` : '');

// `more`: the rest of the query (on this day, asked with the first page: list.js).
export const listEntries = (cursor, limit = 20, more = '') => request('GET', page('entries', cursor, limit) + more);
export const listTrash = (cursor, limit = 20) => request('GET', page('trash', cursor, limit));
export const getEntry = (id) => request('GET', `entries/${enc(id)}`);
export const search = (q, limit = 50) => request('GET', `search?q=${enc(q)}&limit=${limit}`);
export const loadSample = () => request('POST', 'sample');
export const restoreEntry = (id) => request('POST', `entries/${enc(id)}/restore`);
export const purgeEntry = (id) => request('DELETE', `trash/${enc(id)}`);
export const emptyTrash = () => request('DELETE', 'trash');

export const trashEntry = (id, opts = {}) =>
  request('DELETE', `entries/${enc(id)}`, { keepalive: opts.keepalive });

// The client picks the id, so a retried POST finds the entry it already made.
// `opts.location` ({latitude, longitude}, already rounded) asks the server for the weather.
// `basedOn` (a retry only): the version the text builds on, should an earlier try have got through.
// `timeZone`: the writer's, the browser's as the server stamps the moment.
export const createEntry = (id, title, body, opts = {}) =>
  request('POST', 'entries', {
    body: {
      id, title, body, photos: opts.photos, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      ...(opts.location ? { location: opts.location } : {}),
      ...(opts.basedOn ? { basedOn: opts.basedOn } : {}),
    },
    keepalive: opts.keepalive,
  });

// Only what is given changes (the star, the tags, the moment), as the entry's next version.
export const patchEntry = (id, version, changes) =>
  request('PATCH', `entries/${enc(id)}`, { body: changes, headers: { 'If-Match': `"${version}"` } });
export const listTags = () => request('GET', 'tags');
export const get = (path) => request('GET', path);
export const post = (path, body) => request('POST', path, { body });
export const remove = (path) => request('DELETE', path);

export const updateEntry = (id, version, title, body, opts = {}) =>
  request('PUT', `entries/${enc(id)}`, {
    body: { title, body, photos: opts.photos },
    headers: { 'If-Match': `"${version}"` },
    keepalive: opts.keepalive,
  });
