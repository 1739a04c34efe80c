// The service worker: keeps the app's own files (the shell) so that the diary opens offline,
// one release at a time.
//
// The server writes the release into the line below as it starts (ShellRelease.swift): the
// path and ETag of every shell file, and a version that digests them all. Any change to any of
// them changes this file's bytes, so the browser installs a new worker beside the running one,
// and the page offers to reload into it (js/update.js). Each worker answers from the cache of
// its own version only, and puts a file there only if its ETag is its release's: a page never
// runs files of two releases.
//
// The API is left alone: a request for anything but a shell file (/api/ above all) gets no
// answer from here, so the browser sends it to the network as if there were no worker.

const RELEASE = { version: 'unreleased', files: {} };

const PREFIX = 'diary-shell-';
const CACHE = PREFIX + RELEASE.version;

// What the page needs to open, kept at install so the diary opens offline after one visit:
// index.html (''), the stylesheet, and every module the page imports as it starts (main.js's
// imports and theirs). The rest of the shell (the modules loaded on demand, swipe.js among them
// as only touch screens use it, the manifests, the icons) is kept the first time it is asked
// for, so a first visit downloads nothing it does not use. (Not even the page's icon: Chromium fetches it outside the page's cache, so the worker
// would download it a second time.)
const START = ['', 'app.css', 'js/main.js', 'js/actions.js', 'js/api.js',
  'js/autosave.js', 'js/device.js', 'js/dom.js', 'js/editor.js', 'js/i18n.js', 'js/list.js',
  'js/outbox.js', 'js/paging.js', 'js/router.js', 'js/update.js', 'js/weather.js'];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => Promise.all(START.map((path) => keep(cache, path)))));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((name) => name.startsWith(PREFIX) && name !== CACHE).map((name) => caches.delete(name)));
    // The first worker takes the page that installed it at once, so that page's reload works
    // offline. A later one takes over only when the writer asks (the 'take over' message).
    await self.clients.claim();
  })());
});

self.addEventListener('message', (event) => {
  if (event.data === 'take over') self.skipWaiting();
});

self.addEventListener('fetch', (event) => {
  const path = shellPath(event.request);
  if (path === null) return; // not the shell: the network answers, untouched
  event.respondWith(answer(path));
});

/** The request's path in the shell, relative to the app's folder ('' for index.html), or null. */
function shellPath(request) {
  if (request.method !== 'GET') return null;
  const url = new URL(request.url);
  const scope = new URL(self.registration.scope);
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return null;
  let path = url.pathname.slice(scope.pathname.length);
  if (path === 'index.html') path = '';
  // A page of the app is index.html whatever its query (the routes are in the hash).
  if (request.mode === 'navigate') return path === '' ? '' : null;
  return url.search === '' && ('/' + path) in RELEASE.files ? path : null;
}

/** A shell file from this release's cache; one not kept yet is fetched and kept. */
async function answer(path) {
  const cache = await caches.open(CACHE);
  const url = new URL(path, self.registration.scope);
  const kept = await cache.match(url);
  if (kept) return kept;
  try {
    return await keep(cache, path);
  } catch {
    // Offline, or the server has a newer release: this one's file cannot be had. The page
    // handles a file that does not come (the connection dropped); the browser looks for the
    // new worker, and the page then offers to reload into it.
    self.registration.update().catch(() => {});
    return Response.error();
  }
}

/**
 * Fetches a file of this release and keeps it. The browser's own cache is tried first: on a
 * first visit the page has just loaded the same files, so installing costs no bytes. A copy
 * whose ETag is not this release's (an older one in that cache, or a newer one on the server)
 * is never kept; when the server's is not this release's either, this fails, and an install
 * fails with it (the browser installs the next worker instead).
 */
async function keep(cache, path) {
  const url = new URL(path, self.registration.scope);
  const etag = RELEASE.files['/' + path];
  for (const mode of ['force-cache', 'no-cache']) {
    const response = await fetch(url, { cache: mode, credentials: 'same-origin' });
    if (response.ok && etag && response.headers.get('ETag') === etag) {
      await cache.put(url, response.clone());
      return response;
    }
  }
  throw new Error(`${path} is not of release ${RELEASE.version}`);
}
