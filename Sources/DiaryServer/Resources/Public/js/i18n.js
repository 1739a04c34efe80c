// UI strings in Korean and English. The language chosen in the settings (kept in this browser),
// else the first of the browser's languages that we have strings for; English is the fallback.
// Only that language's strings come over the network (strings.en.js or strings.ko.js): a first
// visit carries one language, not two.

/** Where the language chosen in the settings is kept (settings.js writes it). */
export const LANGUAGE_KEY = 'diary-language';
const base = (l) => l.toLowerCase().split('-')[0];
const browserLanguages = navigator.languages?.length ? navigator.languages : [navigator.language || 'en'];

/** The language chosen in the settings, 'en' or 'ko'; null: the browser's. */
export let chosenLanguage = null;
try {
  chosenLanguage = /^(en|ko)$/.exec(localStorage.getItem(LANGUAGE_KEY))?.[0] ?? null;
} catch {} // storage refused (a private window, say): the browser's language

// Dates and numbers follow the same list, a chosen language first.
export const languages = chosenLanguage ? [chosenLanguage, ...browserLanguages] : browserLanguages;

export const lang = chosenLanguage ?? browserLanguages.map(base).find((l) => l === 'en' || l === 'ko') ?? 'en';

export const t = (await import(lang === 'ko' ? './strings.ko.js' : './strings.en.js')).default;

// Dates follow the browser's own language list, as the iOS app's DateFormatter followed the
// device locale, in `zone` (an entry's writer's, an IANA name) if this browser knows it, else its
// own. The journal's forms: the entry's page says "Tuesday, December 22, 2020" over "9:41 PM";
// the list puts its rows under "December 2020", each beside "22" and "Tue"; 'long' is "December
// 22, 2020"; '' is "2020-12-22" (as Swedish writes it).
const forms = {
  long: { dateStyle: 'long' },
  full: { dateStyle: 'full' },
  time: { timeStyle: 'short' },
  month: { year: 'numeric', month: 'long' },
  day: { day: 'numeric' },
  weekday: { weekday: 'short' },
};
const made = {};
function formatter(form, timeZone) {
  try {
    return (made[form + timeZone] ??= new Intl.DateTimeFormat(form ? languages : 'sv', { ...forms[form], timeZone }));
  } catch {
    return (made[form + timeZone] = formatter(form)); // a zone unknown here: the browser's
  }
}

/** The date in one of the forms above: 'long', 'full', 'time', 'month', 'day' or 'weekday'. */
export function formatAs(form, iso, zone) {
  const format = formatter(form, zone);
  // The day alone, as a number: Korean's "22일" says its 일 again beside the weekday.
  return form === 'day' ? format.formatToParts(new Date(iso)).find((p) => p.type === 'day').value : format.format(new Date(iso));
}

export const formatDate = (iso, zone) => formatAs('long', iso, zone);

/** Where the entry's day and month are in the writer's calendar: "2020-12" and "2020-12-22". */
export function localDay(iso, zone) {
  const day = formatAs('', iso, zone);
  return { month: day.slice(0, -3), day };
}

/** "Today" or "Yesterday" for an entry of the reader's today or the day before, else null. */
export function nearDay(iso, zone) {
  const day = formatAs('', iso, zone);
  const now = new Date();
  if (day === formatAs('', now)) return t.today;
  const before = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1, 12);
  return day === formatAs('', before) ? t.yesterday : null;
}

/** The weather in words, in the UI's language: "Slight rain", "비" (the providers' words are English). */
export function weatherWords(weather) {
  return (lang === 'en' ? weather.description : t.conditions[weather.condition]) || weather.description;
}

let degrees = null;
/** "3°C", or null when the weather has no temperature; never "-0°C". */
export function temperature(weather) {
  if (typeof weather.temperature !== 'number') return null;
  degrees ??= new Intl.NumberFormat(lang, { style: 'unit', unit: 'celsius', maximumFractionDigits: 0 });
  return degrees.format(Math.round(weather.temperature) || 0);
}

/** "Slight rain, 3°C", or the words alone when there is no temperature. */
export function weatherSummary(weather) {
  const warmth = temperature(weather);
  return warmth ? `${weatherWords(weather)}, ${warmth}` : weatherWords(weather);
}
