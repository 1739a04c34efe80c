// The weather of the moment an entry was written.
//
// Where: when a new entry's editor opens, the browser is asked once for a
// coarse position. It is rounded to two decimals (about 1 km) here, before it
// leaves the browser, and goes with the entry's first save only if it is known
// by then: the save never waits for it. The server then asks its weather
// provider and attaches the weather to the entry later.
//
// What: the icons ship with the app (icons/weather/<icon>.svg); nothing is
// fetched from a third party.

import { h, toast } from './dom.js';
import { lang, t } from './i18n.js';

const OPTIONS = { enableHighAccuracy: false, maximumAge: 600000, timeout: 8000 };
const NOTICE_KEY = 'diary.locationNotice';
const RECORDED_KEY = 'diary.weather';

// Whether the server records weather (the session says; not with `diary serve --weather off`).
// Kept in the browser for a start while offline; until it is known, no location is asked for.
let recorded = (() => {
  try { return localStorage.getItem(RECORDED_KEY) === 'on'; } catch { return false; }
})();

/** The session's word on weather: with it off, nothing asks for the location. */
export function weatherRecorded(on) {
  recorded = on;
  try { localStorage.setItem(RECORDED_KEY, on ? 'on' : 'off'); } catch {}
}

const lookups = new Map(); // entry id -> {place, failed, taken}
let noticeShown = false; // in this page; localStorage remembers it across visits

const round = (x) => Math.round(x * 100) / 100;

/** Starts finding where the writer is, once, for the new entry `id`. Never waits. */
export function locate(id) {
  if (!recorded || lookups.has(id)) return;
  const lookup = { place: null, failed: false, taken: false };
  lookups.set(id, lookup);
  const failed = () => {
    lookup.failed = true;
    if (lookup.taken) explain(); // the entry was already saved without it
  };
  if (!navigator.geolocation) return failed();
  try {
    navigator.geolocation.getCurrentPosition((position) => {
      const { latitude, longitude } = position.coords;
      lookup.place = { latitude: round(latitude), longitude: round(longitude) };
    }, failed, OPTIONS);
  } catch {
    failed();
  }
}

/**
 * For the entry's first save: the place if it is known by now, else null.
 * A later answer is not sent.
 */
export function takePlace(id) {
  const lookup = lookups.get(id);
  if (!lookup) return null;
  lookups.delete(id);
  lookup.taken = true;
  if (lookup.failed) explain();
  return lookup.place;
}

// Refused or failed: say once per browser, without blocking, why there is no weather.
function explain() {
  if (noticeShown) return;
  noticeShown = true;
  try {
    if (localStorage.getItem(NOTICE_KEY)) return;
    localStorage.setItem(NOTICE_KEY, new Date().toISOString());
  } catch {} // no storage: once per visit
  toast(t.locationNeeded, { duration: 6000 });
}

/** The weather in words, in the UI's language: "Slight rain", "비". */
function describe(weather) {
  return (lang === 'en' ? weather.description : t.conditions[weather.condition]) || weather.description;
}

const degrees = new Intl.NumberFormat(lang, { style: 'unit', unit: 'celsius', maximumFractionDigits: 0 });

/** "Slight rain, 3°C", or the words alone when there is no temperature. */
function summary(weather) {
  const words = describe(weather);
  if (typeof weather.temperature !== 'number') return words;
  return `${words}, ${degrees.format(Math.round(weather.temperature) || 0)}`; // never "-0°C"
}

const iconPath = (weather) => `icons/weather/${encodeURIComponent(weather.icon)}.svg`;

/** A row's weather: the icon alone, named by its alt text (and a tooltip). */
export function weatherIcon(weather) {
  if (!weather?.icon) return null;
  return h('img', {
    class: 'weather', src: iconPath(weather), width: 18, height: 18,
    alt: describe(weather), title: summary(weather),
  });
}

/** The editor's weather: icon, words and temperature. */
export function weatherLine(weather) {
  if (!weather?.icon) return null;
  const words = describe(weather);
  const temperature = typeof weather.temperature === 'number'
    ? degrees.format(Math.round(weather.temperature) || 0) : null;
  return h('span', { class: 'entry-weather', title: summary(weather) },
    h('img', { class: 'weather', src: iconPath(weather), width: 18, height: 18, alt: '' }),
    h('span', { class: 'weather-words' }, words),
    temperature ? h('span', { class: 'weather-temperature' }, temperature) : null);
}
