// Photos in entries (issue 19): loaded when an entry with photos opens, a photo is added, or a
// draft's photos wait to be sent; a first visit and an entry without photos do without it.
//
// - Adding: each photo is decoded by the browser (HEIC where it can), turned upright, scaled to
//   at most 2,048 px on its long side and encoded again as JPEG, which leaves its EXIF behind
//   (the place it was taken included); a thumbnail of at most 384 px is made beside it. Both wait
//   in IndexedDB (their own database, per writer) until they are sent: a photo added offline
//   waits there with the draft's words, which name it by a `local` key (autosave.js).
// - Sending (sending.js asks, before the save that names them): the photo (POST, with its
//   progress), then its thumbnail (PUT). A photo is kept by the server under the SHA-256 of its
//   bytes, so sending it again after a lost connection makes no second copy; each step done is
//   recorded in the draft at once, so nothing done is sent again.
// - The strip of an entry's photos in the editor, and the viewer that pages through them full
//   width (swipe, arrow keys, Escape), where a photo is captioned, moved or removed.
//
// A photo only in this browser is drawn on a canvas (the page's policy lets images come from
// the diary alone, not from blob: addresses).

import * as api from './api.js';
import { writer } from './device.js';
import { ICONS, h, iconButton, toast } from './dom.js';
import { lang } from './i18n.js';

const words = {
  en: {
    photos: 'Photos',
    photo: (n, of) => `Photo ${n} of ${of}`,
    caption: 'Caption',
    earlier: 'Move earlier',
    later: 'Move later',
    remove: 'Remove',
    removePhoto: (n) => `Remove photo ${n}`,
    previous: 'Previous photo',
    next: 'Next photo',
    close: 'Close',
    sending: (percent) => `Sending, ${percent}%`,
    waiting: 'Waiting to be sent',
    heic: 'This browser cannot open HEIC photos. Choose a JPEG, or set the iPhone’s camera to “Most Compatible”.',
    unreadable: (name) => `“${name}” is not a photo this browser can open.`,
    tooMany: (n) => `An entry holds at most ${n} photos.`,
    refused: (name) => `“${name}” was not kept`,
  },
  ko: {
    photos: '사진',
    photo: (n, of) => `사진 ${of}장 중 ${n}번째`,
    caption: '사진 설명',
    earlier: '앞으로 옮기기',
    later: '뒤로 옮기기',
    remove: '사진 빼기',
    removePhoto: (n) => `${n}번째 사진 빼기`,
    previous: '이전 사진',
    next: '다음 사진',
    close: '닫기',
    sending: (percent) => `보내는 중, ${percent}%`,
    waiting: '보내기를 기다리는 중',
    heic: '이 브라우저는 HEIC 사진을 열 수 없어요. JPEG 사진을 고르거나, iPhone 카메라 설정에서 ‘높은 호환성’을 선택해 주세요.',
    unreadable: (name) => `‘${name}’ 파일은 이 브라우저가 열 수 있는 사진이 아니에요.`,
    tooMany: (n) => `일기 하나에 사진은 ${n}장까지 넣을 수 있어요.`,
    refused: (name) => `‘${name}’ 사진을 저장하지 못했어요`,
  },
};
const w = words[lang] ?? words.en;

ICONS.close = 'M6 6l12 12M18 6L6 18';

// How many an entry holds: the server's limit (api.limits); unknown, the server says when it is passed.
const { photosPerEntry } = api.limits;
const LONG_SIDE = 2048;
const THUMB_SIDE = 384;
const QUALITY = 0.85;

// Asked for as this module loads, like dialogs.css.
document.head.append(h('link', { rel: 'stylesheet', href: 'photos.css' }));

/** Told as photos are sent: progress {local, fraction}, sent {local, id, width, height}, dropped {local}. */
export const events = new EventTarget();
const emit = (type, detail) => events.dispatchEvent(new CustomEvent(type, { detail }));

// -- Making a photo ready to send ---------------------------------------------------------------

const newKey = () => 'l' + Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('');

/** The image's pixels, upright; null when this browser cannot decode it. */
async function decode(file) {
  try {
    return await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {}
  try {
    return await createImageBitmap(file);
  } catch {
    return null;
  }
}

/** `source` drawn at most `side` px on its long side, as a JPEG (on white: JPEG has no transparency). */
async function encode(source, side, quality) {
  const scale = Math.min(1, side / Math.max(source.width, source.height));
  const canvas = h('canvas', {});
  canvas.width = Math.max(1, Math.round(source.width * scale));
  canvas.height = Math.max(1, Math.round(source.height * scale));
  const g = canvas.getContext('2d');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.imageSmoothingQuality = 'high';
  g.drawImage(source, 0, 0, canvas.width, canvas.height);
  const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', quality));
  const made = { blob, width: canvas.width, height: canvas.height };
  canvas.width = canvas.height = 0; // its memory goes now, not with the next collection
  if (!blob) throw new Error('not encoded');
  return made;
}

/** A file the writer chose, made ready and kept until sent: the draft's item {local, caption, width, height}. */
async function prepare(file) {
  const bitmap = await decode(file);
  if (!bitmap) {
    const heic = /hei[cf]/i.test(file.type) || /\.hei[cf]$/i.test(file.name ?? '');
    throw new Error(heic ? w.heic : w.unreadable(file.name || w.photos));
  }
  try {
    const photo = await encode(bitmap, LONG_SIDE, QUALITY);
    const thumb = await encode(bitmap, THUMB_SIDE, 0.8);
    const local = newKey();
    await keep({ local, owner: writer(), photo: photo.blob, thumb: thumb.blob, width: photo.width, height: photo.height });
    return { local, caption: '', width: photo.width, height: photo.height };
  } finally {
    bitmap.close?.();
  }
}

// -- Where photos wait: IndexedDB, {local, owner, photo, thumb, width, height} -------------------

const memory = new Map(); // also where they wait when IndexedDB cannot be had
let opening = null;
function database() {
  opening ??= new Promise((resolve, reject) => {
    const request = indexedDB.open('diary-photos', 1);
    request.onupgradeneeded = () => request.result.createObjectStore('waiting', { keyPath: 'local' });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  opening.catch(() => (opening = null));
  return opening;
}

async function store(mode, work) {
  const db = await database();
  return new Promise((resolve, reject) => {
    const tx = db.transaction('waiting', mode);
    const request = work(tx.objectStore('waiting'));
    tx.oncomplete = () => resolve(request?.result);
    tx.onerror = tx.onabort = () => reject(tx.error);
  });
}

async function keep(record) {
  memory.set(record.local, record);
  await store('readwrite', (s) => s.put(record)).catch(() => {});
}

async function find(local) {
  return memory.get(local) ?? (await store('readonly', (s) => s.get(local)).catch(() => null)) ?? null;
}

async function forget(local) {
  memory.delete(local);
  await store('readwrite', (s) => s.delete(local)).catch(() => {});
}

/** Logging out: the photos of `owner` waiting here leave the browser. */
export async function forgetWriter(owner) {
  for (const [local, record] of memory) if (!record.owner || record.owner === owner) memory.delete(local);
  const all = await store('readonly', (s) => s.getAll()).catch(() => []);
  await Promise.all(all.filter((r) => !r.owner || r.owner === owner).map((r) => forget(r.local)));
}

// -- Sending ----------------------------------------------------------------------------------

const sent = new Map(); // local -> {id, width, height, thumb: the thumbnail is sent (or refused)}
const dropped = new Set(); // locals the server refused, or lost from the browser
const sending = new Map(); // local -> the promise of its sending, so that it goes once at a time

/** `blob` to the API with `method`, its progress told; an ApiError as api.js's requests give. */
function transfer(method, path, blob, onProgress) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, `api/v1/${path}`);
    xhr.setRequestHeader('Content-Type', blob.type || 'application/octet-stream');
    const token = api.csrf();
    if (token) xhr.setRequestHeader('X-CSRF-Token', token);
    if (onProgress) xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      let data = null;
      try {
        data = JSON.parse(xhr.responseText);
      } catch {}
      if (xhr.status === 401) api.sessionEvents.dispatchEvent(new Event('ended'));
      if (xhr.status >= 200 && xhr.status < 300) resolve(data);
      else reject(new api.ApiError(xhr.status, data));
    };
    xhr.onerror = xhr.onabort = xhr.ontimeout = () => reject(new api.ApiError(0, null));
    xhr.send(blob);
  });
}

// Trouble that passes (the connection, the server, the session): tried again later. Anything
// else is the server refusing this photo (not a photo, too large, over the allowance).
const passing = (error) => !error.status || error.status >= 500 || error.status === 401 || error.status === 403 || error.status === 429;

async function sendOne(item) {
  const { local } = item;
  if (item.id && !sent.has(local)) sent.set(local, { id: item.id, width: item.width, height: item.height, thumb: false });
  const record = await find(local);
  if (!sent.has(local)) {
    if (!record) return void drop(local); // gone from this browser (its storage cleared): cannot be sent
    try {
      const photo = await transfer('POST', 'photos', record.photo, (fraction) => emit('progress', { local, fraction }));
      sent.set(local, { id: photo.id, width: photo.width, height: photo.height, thumb: photo.thumbnail });
    } catch (error) {
      if (passing(error)) throw error;
      toast(`${w.refused(w.photos)}: ${error.message}`, { duration: 8000 });
      return void drop(local);
    }
  }
  const done = sent.get(local);
  if (!done.thumb && record?.thumb) {
    try {
      await transfer('PUT', `photos/${done.id}/thumbnail`, record.thumb);
    } catch (error) {
      if (passing(error)) throw error; // refused: the photo stands in for its thumbnail
    }
  }
  done.thumb = true;
  await forget(local);
  emit('sent', { local, id: done.id, width: done.width, height: done.height });
}

function drop(local) {
  dropped.add(local);
  forget(local);
  emit('dropped', { local });
}

/**
 * Sends the photos of entry `id`'s draft that only this browser has, one after another, each
 * recorded in the draft as it goes (`drafts`: autosave.js's). Rejects with the connection's trouble.
 */
export async function sendDraft(id, drafts) {
  const step = () => {
    const now = drafts.get(id);
    if (now?.photos) drafts.patch(id, { photos: settle(now.photos) });
  };
  try {
    await sendWaiting(drafts.get(id)?.photos ?? [], step);
  } finally {
    step();
  }
}

async function sendWaiting(photos, step) {
  for (const item of photos.filter((p) => p.local && !dropped.has(p.local))) {
    let run = sending.get(item.local);
    if (!run) {
      run = sendOne(item).finally(() => sending.delete(item.local));
      sending.set(item.local, run);
    }
    await run;
    step();
  }
}

/** `photos` with what was sent since: their ids in, the refused ones out, each photo once. */
export function settle(photos) {
  const seen = new Set();
  return photos.filter((p) => !dropped.has(p.local)).map((p) => {
    const done = p.local && sent.get(p.local);
    if (!done) return p;
    const { local, ...rest } = p;
    const item = { ...rest, id: done.id, width: done.width, height: done.height };
    return done.thumb ? item : { ...item, local };
  }).filter((p) => {
    // The same photo added twice is one photo of the entry.
    if (!p.id) return true;
    if (seen.has(p.id)) return false;
    seen.add(p.id);
    return true;
  });
}

// -- Drawing a photo ------------------------------------------------------------------------------

const thumbURL = (id) => `api/v1/photos/${id}/thumbnail`;
const photoURL = (id) => `api/v1/photos/${id}`;
/** The thumbnail's width in pixels: THUMB_SIDE on its long side, never larger than the photo. */
const thumbWidth = ({ width, height }) => Math.round(width * Math.min(1, THUMB_SIDE / Math.max(width, height)));

/**
 * The photo as an element sized by its width and height before its pixels come: an <img> of the
 * server's, or, for one only in this browser, a canvas it is drawn on. `full`: the photo, not its
 * thumbnail. `label`: its accessible name ('' for none).
 */
function picture(item, { full = false, wide = false, label = '', className = '' } = {}) {
  const size = { width: item.width || 320, height: item.height || 240 };
  if (item.id) {
    // Wide (the width of the page): the thumbnail where it is sharp enough, else the photo.
    const choices = wide && item.width && item.height
      ? { srcset: `${thumbURL(item.id)} ${thumbWidth(item)}w, ${photoURL(item.id)} ${item.width}w`, sizes: 'min(100vw, 42rem)' }
      : {};
    return h('img', { class: className, ...choices, src: full ? photoURL(item.id) : thumbURL(item.id), alt: label, ...size,
      loading: full ? null : 'lazy', decoding: 'async' });
  }
  const canvas = h('canvas', { class: className, ...size, ...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': 'true' }) });
  find(item.local).then(async (record) => {
    const blob = record && (full || wide ? record.photo : record.thumb);
    if (!blob) return;
    const bitmap = await createImageBitmap(blob);
    canvas.width = bitmap.width;
    canvas.height = bitmap.height;
    canvas.getContext('2d').drawImage(bitmap, 0, 0);
    bitmap.close?.();
  }).catch(() => {});
  return canvas;
}

// -- The editor's strip ---------------------------------------------------------------------------

/**
 * The strip of an entry's photos in `slot` (an element of the editor). `changed(list)`: the writer
 * changed them (the editor saves it as it saves words); `settled(list)`: photos were sent (or
 * refused) since; `editable()`: whether they may be changed.
 * Returns {set(list), add(files), open(index), destroy()}.
 */
export function attach({ slot, changed, settled, editable }) {
  let list = [];
  const progress = new Map(); // local -> fraction sent
  const strip = h('ol', { class: 'photo-strip' });
  slot.replaceChildren(h('h2', { class: 'visually-hidden' }, w.photos), strip);
  let viewer = null;

  const label = (item, i) => [w.photo(i + 1, list.length), item.caption?.trim()].filter(Boolean).join(': ');

  function draw() {
    slot.hidden = !list.length;
    strip.classList.toggle('several', list.length > 1);
    strip.replaceChildren(...list.map((item, i) => {
      const fraction = item.id ? null : progress.get(item.local);
      const state = item.id ? null : fraction == null ? w.waiting : w.sending(Math.round(fraction * 100));
      return h('li', { class: 'photo-item' },
        h('button', { type: 'button', class: 'photo-open', 'aria-label': label(item, i) + (state ? ` (${state})` : ''),
          onclick: () => open(i) },
        picture(item, { wide: true, className: 'photo-thumb' }),
        item.id ? null : h('span', { class: 'photo-progress', 'aria-hidden': 'true' }, h('span', { class: 'photo-progress-bar' }))));
    }));
    // The bar's width (a style attribute would break the page's content policy; a property does not).
    strip.querySelectorAll('.photo-item').forEach((li, i) => {
      const bar = li.querySelector('.photo-progress-bar');
      if (bar) bar.style.width = `${Math.round((progress.get(list[i].local) ?? 0) * 100)}%`;
    });
    viewer?.redraw();
  }

  // `redraw`: false while a caption is typed (the viewer shows it already).
  function change(next, redraw = true) {
    list = next;
    if (redraw) draw();
    else strip.querySelectorAll('.photo-open').forEach((button, i) => button.setAttribute('aria-label', label(list[i], i)));
    changed(list);
  }

  const onProgress = (e) => {
    if (!list.some((p) => p.local === e.detail.local)) return;
    progress.set(e.detail.local, e.detail.fraction);
    const i = list.findIndex((p) => p.local === e.detail.local);
    const percent = Math.round(e.detail.fraction * 100);
    const bar = strip.children[i]?.querySelector('.photo-progress-bar');
    if (bar) bar.style.width = `${percent}%`;
    strip.children[i]?.querySelector('button').setAttribute('aria-label', `${label(list[i], i)} (${w.sending(percent)})`);
  };
  const onSent = (e) => {
    if (!list.some((p) => p.local === e.detail.local)) return;
    list = settle(list.map((p) => (p.local === e.detail.local ? { ...p, id: e.detail.id } : p)));
    draw();
    settled(list);
  };
  const onDropped = (e) => {
    if (!list.some((p) => p.local === e.detail.local)) return;
    list = list.filter((p) => p.local !== e.detail.local);
    draw();
    settled(list);
  };
  events.addEventListener('progress', onProgress);
  events.addEventListener('sent', onSent);
  events.addEventListener('dropped', onDropped);

  async function add(files) {
    const images = [...files].filter((f) => !f.type || f.type.startsWith('image/') || /\.hei[cf]$/i.test(f.name ?? ''));
    for (const file of images) {
      if (list.length >= photosPerEntry) return void toast(w.tooMany(photosPerEntry));
      try {
        const item = await prepare(file);
        change([...list, item]);
      } catch (error) {
        toast(error.message, { duration: 8000 });
      }
    }
  }

  function open(index) {
    viewer?.close();
    viewer = showViewer(index, {
      list: () => list,
      label,
      editable: editable(),
      change,
      closed: (at) => {
        viewer = null;
        // Focus goes back to the photo the viewer showed last.
        (strip.children[Math.min(at, list.length - 1)]?.querySelector('button') ?? slot.closest('.editor')?.querySelector('.body-field'))?.focus();
      },
    });
  }

  return {
    set(next) {
      list = (next ?? []).map((p) => ({ ...p, caption: p.caption ?? '' }));
      draw();
    },
    add,
    open,
    list: () => list,
    destroy() {
      viewer?.close();
      events.removeEventListener('progress', onProgress);
      events.removeEventListener('sent', onSent);
      events.removeEventListener('dropped', onDropped);
    },
  };
}

// -- The viewer ------------------------------------------------------------------------------------

/**
 * The photos full width, one at a time, in a modal dialog: swipe on a touch screen, the arrow keys
 * or the buttons elsewhere, Escape or Close to leave. An editable entry's photo is captioned,
 * moved earlier or later, or removed here.
 */
function showViewer(start, { list, label, editable, change, closed }) {
  let at = start;
  const count = h('p', { class: 'viewer-count', 'aria-live': 'polite' });
  const frame = h('div', { class: 'viewer-frame' });
  const previous = iconButton('back', w.previous, { class: 'icon-button viewer-previous', onclick: () => show(at - 1) });
  const next = iconButton('forward', w.next, { class: 'icon-button viewer-next', onclick: () => show(at + 1) });
  const caption = editable
    ? h('input', { type: 'text', class: 'viewer-caption-field', maxlength: api.limits.captionLength, 'aria-label': w.caption, placeholder: w.caption, enterkeyhint: 'done' })
    : h('p', { class: 'viewer-caption' });
  const earlier = h('button', { type: 'button', class: 'viewer-action', onclick: () => move(-1) }, w.earlier);
  const later = h('button', { type: 'button', class: 'viewer-action', onclick: () => move(1) }, w.later);
  const remove = h('button', { type: 'button', class: 'viewer-action danger', onclick: () => drop() }, w.remove);
  const dialog = h('dialog', { class: 'photo-viewer', 'aria-label': w.photos },
    h('div', { class: 'viewer-bar' }, count, iconButton('close', w.close, { class: 'icon-button viewer-close', onclick: () => dialog.close() })),
    h('figure', { class: 'viewer-figure' }, frame, previous, next,
      h('figcaption', {}, caption)),
    editable ? h('div', { class: 'viewer-actions' }, earlier, later, remove) : null);

  function show(index) {
    const photos = list();
    if (!photos.length) return dialog.close();
    at = Math.max(0, Math.min(index, photos.length - 1));
    const item = photos[at];
    frame.replaceChildren(picture(item, { full: true, label: label(item, at), className: 'viewer-photo' }));
    count.textContent = `${at + 1} / ${photos.length}`;
    if (editable) caption.value = item.caption ?? '';
    else {
      caption.textContent = item.caption ?? '';
      caption.hidden = !item.caption;
    }
    previous.disabled = at === 0;
    next.disabled = at === photos.length - 1;
    earlier.disabled = at === 0;
    later.disabled = at === photos.length - 1;
    remove.setAttribute('aria-label', w.removePhoto(at + 1));
  }

  function move(by) {
    const photos = [...list()];
    const to = at + by;
    if (to < 0 || to >= photos.length) return;
    [photos[at], photos[to]] = [photos[to], photos[at]];
    change(photos);
    show(to);
    // The button pressed may now be disabled (the photo is first or last): focus stays in reach.
    if (document.activeElement?.disabled || !dialog.contains(document.activeElement)) (by < 0 ? later : earlier).focus();
  }

  function drop() {
    const photos = list().filter((_, i) => i !== at);
    change(photos);
    if (!photos.length) return dialog.close();
    show(at);
    remove.focus();
  }

  if (editable) {
    caption.addEventListener('input', () => {
      change(list().map((p, i) => (i === at ? { ...p, caption: caption.value } : p)), false);
    });
    caption.addEventListener('keydown', (e) => e.key === 'Enter' && !e.isComposing && (e.preventDefault(), caption.blur()));
  }

  dialog.addEventListener('keydown', (e) => {
    if (e.target === caption || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'ArrowLeft') show(at - 1);
    else if (e.key === 'ArrowRight') show(at + 1);
    else return;
    e.preventDefault();
  });

  // A swipe across the photo pages; an upward one is left to the browser.
  let touch = null;
  frame.addEventListener('pointerdown', (e) => {
    if (e.pointerType !== 'mouse') touch = { id: e.pointerId, x: e.clientX, y: e.clientY };
  });
  const end = (e) => {
    if (!touch || e.pointerId !== touch.id) return;
    const dx = e.clientX - touch.x;
    const dy = e.clientY - touch.y;
    touch = null;
    if (e.type === 'pointerup' && Math.abs(dx) > 40 && Math.abs(dx) > Math.abs(dy)) show(at + (dx < 0 ? 1 : -1));
  };
  frame.addEventListener('pointerup', end);
  frame.addEventListener('pointercancel', end);

  dialog.addEventListener('close', () => {
    dialog.remove();
    closed(at);
  });
  document.body.append(dialog);
  show(start);
  dialog.showModal();
  dialog.querySelector('.viewer-close').focus();
  return {
    close: () => dialog.open && dialog.close(),
    redraw: () => dialog.open && show(at),
  };
}
