// Who is logged in. The session is asked for as the page opens; when the server does not
// answer (the phone is offline, the server is restarting) the diary opens all the same, with a
// note that says so, and asks again until it answers. No one logged in brings the login or setup
// form; a session that ends later brings it back.

import * as autosave from './autosave.js';
import { getSession, sessionEvents, setCsrfToken } from './api.js';
import { sessionOver } from './device.js';
import { sayOffline } from './notices.js';

// The drafts' sender comes when there are drafts to send (or with the editor): a first visit
// that only reads does without it (autosave.js cannot import it: it imports autosave.js).
autosave.sendFrom(() => import('./sending.js'));

/** The name of who is logged in (the account's menu), or null. */
export let user = null;
const WEATHER_KEY = 'diary.weather';
/**
 * What the server is set to (`diary serve --weather`, `--trash-days`), as its session says. Whether
 * it records weather is kept in the browser for a start while offline; until it is known, no
 * location is asked for (weather.js). The trash's days are unknown (undefined) until then, and
 * go unsaid; null: kept until emptied.
 */
export const serverSettings = { weather: stored(WEATHER_KEY) === 'on', trashDays: undefined };
/** The diary opened before the server answered: its screens show what the device keeps. */
export let offline = false;
let locked = false; // the login form is on show: no screen of the diary is drawn behind it

/** No login form is on show: a screen of the diary may be drawn. */
export const unlocked = () => !locked;

const PATIENCE_MS = 4000; // a slower first answer opens the diary offline meanwhile
const RETRY_MS = 1000; // the first pause between two checks; it doubles up to RETRY_MAX_MS
const RETRY_MAX_MS = 15000;

/**
 * Finds who is logged in, now and whenever the session ends. `open()` draws the diary the first
 * time (offline, or once someone is logged in); `loggedIn()` is called each time someone is.
 */
export function keepSession(root, { open, loggedIn }) {
  let opened = false;
  const openOnce = () => {
    if (!opened) open();
    opened = true;
  };
  const begin = (session) => {
    // What waits in the drafts goes first, then the screen is drawn.
    locked = false;
    user = session.user.name;
    serverSettings.weather = session.weather === true;
    try { localStorage.setItem(WEATHER_KEY, serverSettings.weather ? 'on' : 'off'); } catch {}
    serverSettings.trashDays = session.trashDays ?? null;
    autosave.drafts.setOwner(user);
    autosave.resume();
    if (opened) loggedIn();
    else openOnce();
  };
  const openOffline = () => {
    if (offline || opened) return;
    offline = true;
    sayOffline(true);
    openOnce();
  };
  // One login form at a time: the saves retried meanwhile (each another 401) leave it be, and
  // so do requests made while the first session check is still under way (offline at start).
  // Drafts are their writer's: someone else logging in here neither sees nor sends them, and
  // unsaved text stays in this browser until its writer logs in again.
  let relogin = reachSession(openOffline)
    .then((session) => ensureSession(root, session))
    .then(begin)
    .finally(() => { relogin = null; });
  sessionEvents.addEventListener('ended', () => {
    relogin ??= ensureSession(root)
      .then(begin)
      .catch(() => {})
      .finally(() => { relogin = null; });
  });
}

/** Resolves once someone is logged in; the login or setup form loads only when needed. */
async function ensureSession(root, session) {
  session ??= await getSession();
  if (session.user) {
    setCsrfToken(session.csrfToken);
    return session;
  }
  // No one is logged in: whatever this browser kept of a writer whose session ended goes first.
  await sessionOver();
  const account = await import('./account.js');
  locked = true;
  return account.logIn(root, session.setupNeeded, session.setupCodeNeeded === true);
}

/**
 * The session, asked for until the server answers; `openOffline` opens the diary meanwhile. No
 * one logged in is an answer too (user null); no answer, a timeout or a server error (a proxy's
 * 502 while the server restarts) is asked again, at once when back online or back to the app.
 */
function reachSession(openOffline) {
  return new Promise((resolve) => {
    let delay = RETRY_MS;
    let timer = null;
    const slow = setTimeout(openOffline, PATIENCE_MS);
    const answered = (session) => {
      clearTimeout(slow);
      offline = false;
      sayOffline(false);
      resolve(session);
    };
    const now = () => document.visibilityState === 'visible' && ask();
    const ask = () => {
      clearTimeout(timer);
      removeEventListener('online', ask);
      document.removeEventListener('visibilitychange', now);
      getSession().then(answered, () => {
        openOffline();
        timer = setTimeout(ask, delay);
        delay = Math.min(delay * 2, RETRY_MAX_MS);
        addEventListener('online', ask);
        document.addEventListener('visibilitychange', now);
      });
    };
    ask();
  });
}

function stored(key) {
  try { return localStorage.getItem(key); } catch { return null; } // storage refused
}
