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

// Dates follow the browser's own language list, as the iOS app's
// DateFormatter followed the device locale: "2020년 12월 22일", "December 22, 2020".
const longDate = new Intl.DateTimeFormat(languages, { dateStyle: 'long' });

export function formatDate(iso) {
  return longDate.format(iso ? new Date(iso) : new Date());
}

// The journal's own forms of a date, in the browser's language and time zone: the entry's page
// says "Tuesday, December 22, 2020" over "9:41 PM"; the list puts its rows under "December
// 2020", each beside its day "22" and "Tue".
const formats = {
  full: new Intl.DateTimeFormat(languages, { dateStyle: 'full' }),
  time: new Intl.DateTimeFormat(languages, { timeStyle: 'short' }),
  month: new Intl.DateTimeFormat(languages, { year: 'numeric', month: 'long' }),
  day: new Intl.DateTimeFormat(languages, { day: 'numeric' }),
  weekday: new Intl.DateTimeFormat(languages, { weekday: 'short' }),
};

/** The date in one of the forms above: 'full', 'time', 'month', 'day' or 'weekday'. */
export function formatAs(form, iso) {
  // The day alone, as a number: Korean's "22일" says its 일 again beside the weekday.
  if (form === 'day') return formats.day.formatToParts(new Date(iso)).find((p) => p.type === 'day').value;
  return formats[form].format(new Date(iso));
}

/** Where the entry's day and month are in the writer's calendar: "2020-12" and "2020-12-22". */
export function localDay(iso) {
  const d = new Date(iso);
  const month = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
  return { month, day: `${month}-${String(d.getDate()).padStart(2, '0')}` };
}

/** "Today" or "Yesterday" for an entry of this day or the one before, else null. */
export function nearDay(iso) {
  const { day } = localDay(iso);
  const now = new Date();
  if (day === localDay(now).day) return t.today;
  const before = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1, 12);
  return day === localDay(before).day ? t.yesterday : null;
}
