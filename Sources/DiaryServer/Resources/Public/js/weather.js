// The weather of the moment an entry was written.
//
// Where: when a new entry's editor opens, the browser is asked once for a
// coarse position. It is rounded to two decimals (about 1 km) here, before it
// leaves the browser, and goes with the entry's first save only if it is known
// by then: the save never waits for it. The server then asks its weather
// provider and attaches the weather to the entry later.
//
// What: the icons ship with the app (icons/weather/<icon>.svg); nothing is
// fetched from a third party. A row's icon is rows.js's (weatherIcon), the words are i18n.js's:
// this module is the editor's, and not part of a first visit.

import { h, toast } from './dom.js';
import { t, temperature, weatherSummary, weatherWords } from './i18n.js';
import { weatherIcon } from './rows.js';
import * as sending from './sending.js';
import { serverSettings } from './session.js';

const OPTIONS = { enableHighAccuracy: false, maximumAge: 600000, timeout: 8000 };
const NOTICE_KEY = 'diary.locationNotice';

const lookups = new Map(); // entry id -> {place, failed, taken}
let noticeShown = false; // in this page; localStorage remembers it across visits

const round = (x) => Math.round(x * 100) / 100;

/** Starts finding where the writer is, once, for the new entry `id`. Never waits. */
export function locate(id) {
  // Not with `diary serve --weather off`: nothing asks for the location.
  if (!serverSettings.weather || lookups.has(id)) return;
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
function takePlace(id) {
  const lookup = lookups.get(id);
  if (!lookup) return null;
  lookups.delete(id);
  lookup.taken = true;
  if (lookup.failed) explain();
  return lookup.place;
}

// Autosave asks for it as it sends a new entry (only this module, loaded with the editor, can
// know a place; without it there is none).
sending.findPlacesWith(takePlace);

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

/** The editor's weather: icon, words and temperature. */
export function weatherLine(weather) {
  if (!weather?.icon) return null;
  const degrees = temperature(weather);
  return h('span', { class: 'entry-weather', title: weatherSummary(weather) },
    weatherIcon(weather, ''),
    h('span', { class: 'weather-words' }, weatherWords(weather)),
    degrees ? h('span', { class: 'weather-temperature' }, degrees) : null);
}
