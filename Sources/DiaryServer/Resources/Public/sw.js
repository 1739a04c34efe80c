// The service worker: keeps the app's own files (the shell) so that the diary opens offline,
// one release at a time.
//
// The server writes the release into the line below as it starts (ShellRelease.swift): the
// path and ETag of every shell file, and a version that digests them all. Any change to any of
// them changes this file's bytes, so the browser installs a new worker beside the running one,
// and the page offers to reload into it (js/notices.js, js/update.js). Each worker answers from the cache of
// its own version only, and puts a file there only if its ETag is its release's: a page never
// runs files of two releases.
//
// The API is left alone: a request for anything but a shell file (/api/ above all) gets no
// answer from here, so the browser sends it to the network as if there were no worker.

const RELEASE = { version: 'unreleased', files: {} };

const PREFIX = 'diary-shell-';
const CACHE = PREFIX + RELEASE.version;

// What the page needs to open on the list, kept at install so the diary opens offline after one
// visit: index.html (''), the stylesheet, and every module the page imports as it starts
// (main.js's imports and theirs). The installing worker finds them in the browser's cache, where
// the page has just put them: installing costs no bytes. The UI's strings are one language's a
// visit (i18n.js): the worker picks the same one by the same rule, and keeps the other with the
// rest, a few seconds later (LATER), so a language changed while offline still opens.
const languages = self.navigator.languages ?? [];
const LANGUAGE = languages.map((l) => l.toLowerCase().split('-')[0]).find((l) => l === 'en' || l === 'ko') ?? 'en';
const START = ['', 'app.css', 'js/main.js', 'js/api.js', 'js/autosave.js', 'js/session.js', 'js/notices.js',
  'js/device.js', 'js/dom.js', 'js/i18n.js', `js/strings.${LANGUAGE}.js`, 'js/list.js', 'js/rows.js', 'js/paging.js',
  'js/router.js'];
// What the page loads when first used but needs offline too: the editor (an entry, a new one;
// its stylesheet, its sender, marks, photos, weather and share-and-delete modules with it), the outbox (the first draft written), and
// the new-release notice (a page of this release says with it that a newer one waits; the
// newer release's copy would not be this one's). Not part of the first visit: the page asks for them
// a few seconds after it has settled, at every start (the 'keep the rest' message, js/notices.js),
// and only those not kept yet come over the network, once. Until then (the first seconds of a
// first visit) an entry does not open offline; the list does, and drafts wait in localStorage.
const LATER = ['js/editor.js', 'editor.css', 'js/sending.js', 'js/weather.js', 'js/entryActions.js', 'js/outbox.js', 'js/marks.js', 'js/dialogs.js', 'dialogs.css', 'js/photos.js', 'photos.css', 'js/update.js', 'update.css', `js/strings.${LANGUAGE === 'ko' ? 'en' : 'ko'}.js`];
// The rest of the shell (the modules loaded on demand that need the server anyway, swipe.js,
// which only touch screens use and offline rows do not, the manifests, the icons) is kept the
// first time it is asked for. (Not the page's icon: Chromium fetches it outside the page's
// cache, so the worker would download it a second time.)

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
  if (event.data === 'keep the rest') event.waitUntil(keepTheRest());
});

/** Keeps the files of LATER this release's cache lacks; nothing comes when it has them all. */
async function keepTheRest() {
  const cache = await caches.open(CACHE);
  for (const path of LATER) {
    if (await cache.match(new URL(path, self.registration.scope))) continue;
    await keep(cache, path).catch(() => {}); // offline: asked again at the next start
  }
}

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
