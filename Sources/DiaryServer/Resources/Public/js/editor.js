// The editor: the same screen writes a new entry and edits an old one.
// There is no save button; autosave.js keeps every change and sending.js sends it. On a phone it stays
// above the on-screen keyboard (below).

import * as api from './api.js';
import * as autosave from './autosave.js';
import { getEntry, keptEntry } from './device.js';
import { ICONS, h, iconButton, iconLink, toast } from './dom.js';
import { formatAs, lang, t } from './i18n.js';
import { back, refresh } from './router.js';
import * as sending from './sending.js';
import { marks } from './marks.js';
import { locate, weatherLine } from './weather.js';
// The drafts' copy in IndexedDB (autosave.js loads it with the first draft): here it comes with
// the editor, so that what is typed after the connection drops has it too.
import './outbox.js';

// The editor's own words; those it shares with the other screens are in i18n.js.
const words = {
  en: {
    more: 'More',
    addPhotos: 'Add photos',
    redate: 'Change the date and time',
    titlePlaceholder: 'Title',
    bodyPlaceholder: 'Write here',
    notFound: 'This entry does not exist.',
    inTrash: 'This entry is in the trash.',
    notKept: 'This entry has not been opened on this device yet, so it opens once the connection is back.',
  },
  ko: {
    more: '더 보기',
    addPhotos: '사진 추가',
    redate: '날짜와 시간 바꾸기',
    titlePlaceholder: '일기 제목',
    bodyPlaceholder: '일기 내용',
    notFound: '없는 일기예요.',
    inTrash: '휴지통에 있는 일기예요.',
    notKept: '이 기기에서 아직 연 적이 없는 일기라서, 다시 연결되면 열 수 있어요.',
  },
};
const w = words[lang] ?? words.en;
// The entry's page's styles come with it, before anything is drawn (they were a seventh of the
// stylesheet every first visit loaded for the list).
await new Promise((resolve) => document.head.append(h('link', { rel: 'stylesheet', href: 'editor.css', onload: resolve, onerror: resolve })));

ICONS.photo = 'M3 6h18v14H3zM3 16l5-5 4 4 3-3 6 6M14.5 9.5a1.5 1.5 0 1 0 3 0a1.5 1.5 0 1 0-3 0';

// The weather is attached by the server a moment after a new entry is saved.
const WEATHER_LOOKUP_MS = 4000;

// crypto.randomUUID needs a secure context; plain http on a home network has none.
function newId() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The editor of the entry `existingId`, or of a new one (null). Returns what tears it down: the
 * words go to the server as the writer leaves.
 */
export function showEditor(root, existingId) {
  const id = existingId ?? newId();
  // A new entry: find where the writer is now, for the weather. Its first
  // save takes the place if it is known by then, and never waits for it.
  if (!existingId) locate(id);
  const editor = drawEditor(root, id, existingId);
  takePhotos(editor);
  watchTyping(editor);
  const stopWatching = watchPage(editor);
  const stopShortcut = starShortcut(editor);
  loadEntry(editor);

  return () => {
    stopShortcut();
    stopWatching();
    editor.gallery?.then((g) => g.destroy(), () => {});
    if (!editor.gone) sending.leave(editor.id);
  };
}

/**
 * Draws the entry's page into `root`: the bar (back, add photos, the star, the menu), the date
 * and time with the weather, the title, the tags, the photos and the body. Returns its parts and
 * what the editor's parts share: when and where it was written, its photos, whether it is gone.
 */
function drawEditor(root, id, existingId) {
  // The entry reads like a page: its date and time above its title, which looks like a heading.
  // Beside the list (a wide screen) the list's name is the page's heading, and the date under it.
  const date = h('time', {});
  const time = h('time', { class: 'entry-time' });
  const weather = h('span', { class: 'entry-weather-slot', hidden: true });
  const title = h('textarea', {
    class: 'title-field', rows: 1, 'aria-label': w.titlePlaceholder,
    placeholder: w.titlePlaceholder, enterkeyhint: 'next', maxlength: api.limits.titleLength,
  });
  const body = h('textarea', { class: 'body-field', 'aria-label': w.bodyPlaceholder, placeholder: w.bodyPlaceholder });
  const notice = h('div', { class: 'notice', hidden: true });
  const editor = {
    id, existingId, date, time, weather, title, body, notice,
    createdAt: new Date().toISOString(),
    zone: undefined, // the zone its writer's clock was in (unknown, or new: the browser's)
    gone: false, // deleted on purpose: nothing left to save
    weatherTimer: null,
    photoList: [], // the entry's photos as shown
    photosChanged: false, // by the writer, here
    gallery: null, // photos.js attached, once loaded
  };
  editor.more = iconButton('more', w.more, { 'aria-haspopup': 'dialog', onclick: () => entryMenu(editor) });
  editor.marked = marks(id);
  // Photos (photos.js, loaded when the entry has some or the writer adds one): the camera or the
  // library through the file input, or dropped or pasted on a computer.
  editor.photoInput = h('input', { type: 'file', accept: 'image/*', multiple: true, hidden: true });
  editor.addPhoto = iconButton('photo', w.addPhotos, { class: 'icon-button add-photo', onclick: () => editor.photoInput.click() });
  editor.photoSlot = h('section', { class: 'photo-slot', hidden: true });
  const backLink = iconLink('back', t.back, '#/');
  // Back in history, as a phone's back button would, rather than a new entry on top of it.
  backLink.addEventListener('click', (e) => {
    e.preventDefault();
    back();
  });
  editor.screen = h('div', { class: 'editor-screen' },
    h('header', { class: 'bar' },
      h('div', { class: 'bar-inner' }, backLink, h('span', { class: 'bar-space' }), editor.addPhoto, editor.photoInput, editor.marked.star, editor.more)),
    h('main', { class: 'editor' },
      h('div', { class: 'entry-heading' },
        h(root.closest('.split') ? 'h2' : 'h1', { class: 'entry-date' }, date),
        h('p', { class: 'entry-when' }, time, weather)),
      notice, title, editor.marked.line, editor.photoSlot, body));
  root.append(editor.screen);
  return editor;
}

/** The day and time where it was written: in its writer's zone. */
function showDate(editor, iso, timeZone) {
  editor.createdAt = iso;
  editor.zone = timeZone;
  editor.date.dateTime = editor.time.dateTime = iso;
  editor.date.textContent = formatAs('full', iso, timeZone);
  editor.time.textContent = formatAs('time', iso, timeZone);
}

function showWeather({ weather }, entry) {
  const line = weatherLine(entry?.weather);
  weather.replaceChildren(...(line ? [line] : []));
  weather.hidden = !line;
}

function fill({ title, body }, text) {
  title.value = text.title;
  body.value = text.body;
  growTitle(title);
}

// The title grows with its text; CSS caps it near a quarter of the screen,
// past which it scrolls.
function growTitle(title) {
  title.style.height = 'auto';
  title.style.height = `${title.scrollHeight + title.offsetHeight - title.clientHeight}px`;
}

/** photos.js, attached to the entry's photo slot: loaded the first time it is needed. */
function gallery(editor) {
  return (editor.gallery ??= import('./photos.js').then((m) => m.attach({
    slot: editor.photoSlot,
    editable: () => !editor.title.readOnly,
    changed: (list) => {
      editor.photoList = list;
      editor.photosChanged = true;
      sendWords(editor);
    },
    settled: (list) => (editor.photoList = list), // sent: their ids known
  }), (error) => {
    editor.gallery = null;
    throw error;
  }));
}

function addPhotos(editor, files) {
  if (!files.length || editor.title.readOnly || editor.title.hidden) return;
  gallery(editor).then((g) => g.add(files), () => toast(t.loadFailed));
}

function showPhotos(editor, list) {
  editor.photoList = list ?? [];
  if (editor.photoList.length || editor.gallery) gallery(editor).then((g) => g.set(editor.photoList), () => {});
}

/** Photos come from the file input, or dropped or pasted on the entry (a computer). */
function takePhotos(editor) {
  const { photoInput, screen, title } = editor;
  photoInput.addEventListener('change', () => {
    const files = [...photoInput.files];
    photoInput.value = '';
    addPhotos(editor, files);
  });
  const carriesFiles = (e) => [...(e.dataTransfer?.types ?? [])].includes('Files');
  screen.addEventListener('dragover', (e) => {
    if (!carriesFiles(e) || title.readOnly) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
  });
  screen.addEventListener('drop', (e) => {
    if (!carriesFiles(e)) return;
    e.preventDefault();
    addPhotos(editor, [...e.dataTransfer.files]);
  });
  screen.addEventListener('paste', (e) => {
    const files = [...(e.clipboardData?.files ?? [])].filter((f) => f.type.startsWith('image/'));
    if (!files.length) return;
    e.preventDefault();
    addPhotos(editor, files);
  });
}

/** What the writer typed (or the photos they changed) goes to sending.js, which keeps and sends it. */
function sendWords(editor) {
  const { id, existingId, title, body } = editor;
  // A title is one line: what follows a pasted newline belongs to the body.
  const cut = title.value.indexOf('\n');
  if (cut >= 0) {
    body.value = title.value.slice(cut + 1) + (body.value ? `\n${body.value}` : '');
    title.value = title.value.slice(0, cut);
  }
  growTitle(title);
  // The photos go with the words once the writer has changed them, or when there are some (so
  // an entry whose words are all deleted is not taken for an empty one).
  sending.edit(id, title.value, body.value, editor.photosChanged || editor.photoList.length ? editor.photoList : undefined);
  // Once there is something to keep, the address names the entry, so a reload finds it.
  if (!existingId && location.hash !== `#/entry/${id}` && autosave.drafts.get(id)) {
    history.replaceState(history.state, '', `#/entry/${id}`);
  }
}

/** Typing is kept as it comes; Enter in the title moves to the body; leaving a field saves. */
function watchTyping(editor) {
  const { id, title, body } = editor;
  title.addEventListener('input', () => sendWords(editor));
  body.addEventListener('input', () => sendWords(editor));
  title.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' || e.isComposing || e.shiftKey) return;
    e.preventDefault();
    body.focus();
    body.setSelectionRange(0, 0);
  });
  for (const field of [title, body]) field.addEventListener('blur', () => sending.save(id));
  body.addEventListener('focus', () => keepCaretVisible(body));
}

/**
 * The page around the editor: its words are saved when the page is hidden or left, the title
 * fits a resized window, and what the server says of the entry (saved, or replaced by another
 * version) shows. Returns what stops it.
 */
function watchPage(editor) {
  const { id, marked } = editor;
  const onHidden = () => document.visibilityState === 'hidden' && !editor.gone && sending.save(id, { keepalive: true });
  const onPageHide = () => !editor.gone && sending.leave(id, { keepalive: true });
  const onReplaced = (e) => {
    if (e.detail.id !== id) return;
    fill(editor, e.detail.entry);
    editor.photosChanged = false;
    showPhotos(editor, e.detail.entry.photos);
  };
  const onSaved = (e) => {
    if (e.detail.id !== id) return;
    const entry = e.detail.entry;
    showDate(editor, entry.createdAt, entry.timeZone);
    showWeather(editor, entry);
    marked.show(entry);
    // Just written with a place: look once more, when the server has had time to add the weather.
    if (entry.location && !entry.weather && entry.version === 1 && !editor.weatherTimer) {
      editor.weatherTimer = setTimeout(async () => {
        try {
          const now = await api.getEntry(id);
          if (editor.screen.isConnected) showWeather(editor, now);
        } catch {} // the list will show it
      }, WEATHER_LOOKUP_MS);
    }
  };
  const onResize = () => growTitle(editor.title);
  document.addEventListener('visibilitychange', onHidden);
  addEventListener('pagehide', onPageHide);
  addEventListener('resize', onResize);
  autosave.events.addEventListener('replaced', onReplaced);
  autosave.events.addEventListener('saved', onSaved);
  return () => {
    clearTimeout(editor.weatherTimer);
    document.removeEventListener('visibilitychange', onHidden);
    removeEventListener('pagehide', onPageHide);
    removeEventListener('resize', onResize);
    autosave.events.removeEventListener('replaced', onReplaced);
    autosave.events.removeEventListener('saved', onSaved);
  };
}

/**
 * Shows the entry: a new one, or one written here and not sent yet, at once; an entry of the
 * server's from the server (or the device's copy), with the writer's unsent words over it.
 */
async function loadEntry(editor) {
  const { id, existingId, title, body, marked } = editor;
  // Nothing is typed into an entry's empty fields while this tab's drafts are still being
  // read (its own, and those of tabs that are gone): it could be saved over the entry's words.
  if (existingId) title.readOnly = body.readOnly = true;
  await autosave.ready;
  const draft = autosave.drafts.get(id);
  let answered = false; // by the server, or by the device's copy when it cannot be reached
  if (!existingId || draft) title.readOnly = body.readOnly = false;
  if (!existingId || draft?.base === null) {
    // New, or written here but not yet on the server.
    showDate(editor, draft?.created ?? editor.createdAt);
    if (draft) fill(editor, draft), showPhotos(editor, draft.photos), sending.save(id);
    else title.focus();
    return;
  }
  if (draft) {
    // The writer's own unsent words show at once, and can be written on while the entry is
    // asked for (a slow or absent server must not leave empty fields to type over them).
    showDate(editor, draft.created);
    fill(editor, draft);
    if (draft.photos) showPhotos(editor, draft.photos);
  } else {
    // Nothing can be typed until the entry is here: words typed into the empty fields
    // would be saved over the entry's own (an empty body replacing the real one).
    title.readOnly = body.readOnly = true;
    // Meanwhile the copy this device kept of it shows, to read: a slow connection is not an
    // empty page. Not to write on: the server's may be newer.
    keptEntry(id).then((kept) => {
      if (!kept || answered) return;
      showDate(editor, kept.createdAt, kept.timeZone);
      showWeather(editor, kept);
      fill(editor, kept);
    });
  }
  try {
    // Offline, the device's copy of an entry seen before (device.js).
    const entry = await getEntry(id).finally(() => (answered = true));
    autosave.known(id, entry.version);
    showDate(editor, entry.createdAt, entry.timeZone);
    showWeather(editor, entry);
    marked.show(entry);
    if (!draft) fill(editor, entry); // a draft is on show already, with whatever was typed since
    if (!draft?.photos) showPhotos(editor, entry.photos);
    title.readOnly = body.readOnly = Boolean(entry.deletedAt);
    if (entry.deletedAt) showTrashed(editor);
  } catch (error) {
    if (draft) return; // the retry loop is already sending it
    showProblem(editor, error.status === 404 ? w.notFound : error.notKept ? w.notKept : t.loadFailed, error.status !== 404);
  }
  if (draft) sending.save(id);
}

function showProblem(editor, message, retry) {
  const { title, body, more, marked, addPhoto, photoSlot, date, time, notice } = editor;
  title.hidden = body.hidden = more.hidden = marked.line.hidden = marked.star.hidden = addPhoto.hidden = photoSlot.hidden = true;
  date.textContent = t.appName; // the heading is never empty
  time.textContent = '';
  // (replaceChildren would show a null as the word "null".)
  notice.replaceChildren(h('p', {}, message),
    ...(retry ? [h('button', { type: 'button', class: 'button', onclick: () => refresh() }, t.tryAgain)] : []));
  notice.hidden = false;
}

function showTrashed(editor) {
  const { id, title, body, addPhoto, marked, notice } = editor;
  title.readOnly = body.readOnly = true;
  addPhoto.hidden = true;
  // An entry in the trash is read, not marked: its star and tags show, unchangeable.
  marked.lock();
  const restore = async () => {
    try {
      await api.restoreEntry(id);
      refresh();
    } catch {
      toast(t.loadFailed);
    }
  };
  notice.replaceChildren(h('p', {}, w.inTrash),
    h('button', { type: 'button', class: 'button', onclick: restore }, t.restore));
  notice.hidden = false;
}

/** The entry's menu: share, change the date and time, delete. */
async function entryMenu(editor) {
  const { title, body, marked } = editor;
  // The menu, sharing and deleting load when first used: an entry opens without waiting for them.
  const loaded = await Promise.all([import('./dialogs.js'), import('./entryActions.js')]).catch(() => null);
  if (!loaded) return void toast(t.loadFailed);
  const [{ chooseAction }, { shareEntry }] = loaded;
  const choice = await chooseAction(w.more, [
    { value: 'share', label: t.share },
    // A trashed entry is read, not changed: restored first.
    title.readOnly ? null : { value: 'redate', label: w.redate },
    { value: 'delete', label: t.delete, danger: true },
  ].filter(Boolean));
  if (choice === 'share') shareEntry({ title: title.value, body: body.value, createdAt: editor.createdAt, timeZone: editor.zone });
  if (choice === 'redate') marked.redate();
  if (choice === 'delete') removeEntry(editor);
}

async function removeEntry(editor) {
  const { id, existingId } = editor;
  const draft = autosave.drafts.get(id);
  const onServer = draft ? draft.base !== null : Boolean(existingId || autosave.version(id));
  if (!onServer) {
    // Never reached the server: there is nothing to move to the trash.
    editor.gone = true;
    sending.forget(id);
    return back();
  }
  await sending.save(id);
  const { deleteEntry } = await import('./entryActions.js');
  await deleteEntry(id, {
    onDeleted: () => {
      editor.gone = true;
      sending.forget(id);
      autosave.emit('removed', { id }); // from the rows on show too (the list beside the editor)
      back();
    },
    onRestored: refresh,
  });
}

/**
 * Alt+S: the star, from the keyboard, while writing too. Not where Option+S types a letter of
 * its own (ß on a Mac, ś on a Polish one): that letter is the writer's. Returns what stops it.
 */
function starShortcut({ marked }) {
  const onKey = (e) => {
    if (!e.altKey || e.ctrlKey || e.metaKey || e.code !== 'KeyS' || document.querySelector('dialog[open]')) return;
    if (e.key.length === 1 && !/^[sSㄴ]$/.test(e.key)) return;
    e.preventDefault();
    marked.star.click();
  };
  document.addEventListener('keydown', onKey);
  return () => document.removeEventListener('keydown', onKey);
}

// -- The keyboard -----------------------------------------------------------------------------
// On phones the on-screen keyboard covers the bottom of the layout viewport.
// The editor is sized to the visual viewport (CSS --vv-height, --vv-top, which router.js keeps),
// so its body ends just above the keyboard, and the caret line is scrolled into what remains.

const vv = window.visualViewport;
let focused = null;

function fit() {
  if (focused && document.activeElement === focused) scrollToCaret(focused);
}

// Watched from the moment the editor first loads.
if (vv) {
  vv.addEventListener('resize', fit);
  vv.addEventListener('scroll', fit);
}

/** Keeps the caret of this textarea in view whenever the viewport changes. */
function keepCaretVisible(area) {
  focused = area;
}

// Where the caret's line is inside the textarea: measured on an invisible copy
// of it, since a textarea does not tell.
function caretTop(area) {
  const style = getComputedStyle(area);
  const mirror = document.createElement('div');
  for (const p of ['font', 'lineHeight', 'letterSpacing', 'padding', 'wordBreak', 'overflowWrap', 'tabSize']) {
    mirror.style[p] = style[p];
  }
  mirror.className = 'caret-mirror';
  mirror.style.width = `${area.clientWidth}px`; // padding included, scrollbar not
  mirror.textContent = area.value.slice(0, area.selectionEnd);
  const marker = document.createElement('span');
  marker.textContent = '\u200b';
  mirror.append(marker);
  document.body.append(mirror);
  const top = marker.offsetTop;
  mirror.remove();
  return { top, line: parseFloat(style.lineHeight) || 24 };
}

function scrollToCaret(area) {
  const { top, line } = caretTop(area);
  if (top + line > area.scrollTop + area.clientHeight) area.scrollTop = top + 2 * line - area.clientHeight;
  else if (top < area.scrollTop) area.scrollTop = top - line;
}
