// What a writer marks an entry with, in the editor: its star (a toggle in the bar) and its tags
// (chips under the date, and a field that suggests the diary's own tags). Each change is sent at
// once as the entry's next version (PATCH); words typed meanwhile are saved on top of it, as
// sending.js does after any save of ours that the server has and the page has not heard of.

import * as api from './api.js';
import * as autosave from './autosave.js';
import { h, icon, toast } from './dom.js';
import { lang, t } from './i18n.js';
import * as sending from './sending.js';

const words = {
  en: {
    star: 'Star',
    addTag: 'Add a tag',
    removeTag: (tag) => `Remove the tag ${tag}`,
    writeFirst: 'Write something first: tags and the star go with a saved entry.',
    badTag: (n) => `That tag cannot be kept: a tag is a word or a few${n ? `, at most ${n} characters` : ''}.`,
    tooLong: (n) => `A tag can have at most ${n} characters.`,
    tooMany: (n) => (n ? `An entry can have at most ${n} tags.` : 'An entry cannot have so many tags.'),
    redate: 'Change the date and time',
    openTag: (tag) => `Entries tagged ${tag}`,
    when: 'Written on',
    change: 'Change',
  },
  ko: {
    star: '즐겨찾기',
    addTag: '태그 추가',
    removeTag: (tag) => `태그 ${tag} 지우기`,
    writeFirst: '먼저 무언가를 쓰세요. 태그와 즐겨찾기는 저장된 일기에 붙어요.',
    badTag: (n) => (n ? `이 태그는 쓸 수 없어요. 태그는 ${n}자까지의 낱말이에요.` : '이 태그는 쓸 수 없어요.'),
    tooLong: (n) => `태그는 ${n}자까지 쓸 수 있어요.`,
    tooMany: (n) => (n ? `일기 하나에 태그는 ${n}개까지 붙일 수 있어요.` : '일기 하나에 태그를 너무 많이 붙였어요.'),
    redate: '날짜와 시간 바꾸기',
    openTag: (tag) => `${tag} 태그가 붙은 일기`,
    when: '쓴 날짜와 시간',
    change: '바꾸기',
  },
};
const w = words[lang] ?? words.en;

// The server's limits (Sources/DiaryCore/Entry/Tags.swift, written into the page: api.limits):
// characters as the writer counts them (grapheme clusters: an emoji is one, though it takes two
// UTF-16 units and `maxlength` counts it twice), and code points. Unknown, the server checks alone.
const { tagLength, tagScalars, tagsPerEntry } = api.limits;
let segmenter;
const characters = (text) => {
  segmenter ??= typeof Intl.Segmenter === 'function' ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : null;
  return segmenter ? [...segmenter.segment(text)].length : [...text].length;
};
const tooLong = (tag) => characters(tag) > tagLength || [...tag].length > tagScalars;
/** A tag as the server keeps it: in NFC, one space between its words, no `#` or `@` before it. */
const tidied = (text) => text.normalize('NFC').split(/\s+/u).filter(Boolean).join(' ').replace(/^[#@]+/, '').trim();

/**
 * The star button and the tags line for the entry `id`; `show(entry)` draws what the server
 * holds. Nothing can be marked before the entry has been saved once.
 */
export function marks(id) {
  let entry = null;
  let suggestions = null;
  let locked = false; // an entry in the trash: its marks are read, not changed
  // Alt+S stars from the keyboard, wherever the caret is (a Korean keyboard types ㄴ there: the key counts).
  const star = h('button', { type: 'button', class: 'icon-button star-button', 'aria-label': w.star, 'aria-pressed': 'false',
    'aria-keyshortcuts': 'Alt+S', title: `${w.star} (Alt+S)` }, icon('star'));
  const list = h('ul', { class: 'tags entry-tags', 'aria-label': t.tags });
  const choices = h('datalist', { id: `tag-choices-${id}` });
  const field = h('input', {
    type: 'text', class: 'tag-field', 'aria-label': w.addTag, placeholder: w.addTag,
    list: choices.id, enterkeyhint: 'done', autocomplete: 'off',
  });
  const line = h('div', { class: 'entry-marks' }, list, field, choices);

  function show(shown) {
    entry = shown;
    star.setAttribute('aria-pressed', String(Boolean(entry?.starred)));
    list.replaceChildren(...(entry?.tags ?? []).map((tag) => h('li', { class: 'tag' },
      h('a', { href: `#/browse?tag=${encodeURIComponent(tag)}`, class: 'tag-open', title: w.openTag(tag) }, tag),
      locked ? null : h('button', { type: 'button', class: 'tag-remove', 'aria-label': w.removeTag(tag), onclick: () => send((now) => ({ tags: (now.tags ?? []).filter((x) => x !== tag) })) }, '×'))));
  }

  /**
   * The entry is in the trash: read, not marked. Its tags show (each still opens its entries),
   * with nothing to remove or add them; its star shows if it has one, unchangeable.
   */
  function lock() {
    locked = true;
    star.disabled = field.hidden = true;
    star.hidden = !entry?.starred;
    show(entry);
  }

  // One change at a time, each worked out from the entry as the previous one left it: two tags
  // added in quick succession both stay, and neither is sent on a version already gone.
  let queue = Promise.resolve();
  function send(change) {
    const sent = queue.then(() => sendNow(change));
    queue = sent.catch(() => {}); // one that failed stops none of those after it
    return sent;
  }

  /**
   * Sends `change(entry)` on the version this page knows, once the words typed are in; resolves
   * whether the server took it.
   */
  async function sendNow(change) {
    await sending.save(id);
    const version = autosave.version(id);
    if (!entry || version == null) {
      toast(w.writeFirst);
      return false;
    }
    try {
      show(autosave.announce(await api.patchEntry(id, version, change(entry))));
      return true;
    } catch (error) {
      let refused = error;
      if (error.status === 409 && error.current) {
        // Changed elsewhere meanwhile: this mark is set on what is there now (the words stay theirs).
        autosave.known(id, error.current.version);
        try {
          show(autosave.announce(await api.patchEntry(id, error.current.version, change(error.current))));
          return true;
        } catch (again) {
          refused = again;
        }
      }
      // A tag refused (422) is said in the writer's language, and without the server's "Tag 3"
      // (its place in the list sent, which the writer never saw); a date refused, in the server's words.
      const tags = change(entry).tags;
      if (refused.status !== 422) toast(t.loadFailed);
      else if (!tags) toast(refused.message || t.loadFailed);
      else toast(tags.length > tagsPerEntry ? w.tooMany(tagsPerEntry) : w.badTag(tagLength));
      show(entry);
      return false;
    }
  }

  function addTag(tag) {
    return send((now) => ({ tags: [...(now.tags ?? []), tag] }));
  }

  star.addEventListener('click', () => send((now) => ({ starred: !now.starred })));
  field.addEventListener('keydown', (e) => {
    if ((e.key !== 'Enter' && e.key !== ',') || e.isComposing) return;
    e.preventDefault();
    const tag = tidied(field.value);
    if (!tag) return;
    // Too long: said at once, and the words stay in the field to be shortened.
    if (tooLong(tag)) {
      field.setAttribute('aria-invalid', 'true');
      return void toast(w.tooLong(tagLength));
    }
    field.value = '';
    // Refused or not sent: the tag comes back into the field (if nothing was typed there since).
    addTag(tag).then((taken) => taken || field.value || (field.value = tag), () => {});
  });
  field.addEventListener('input', () => field.removeAttribute('aria-invalid'));
  // The diary's own tags, asked for once when the field is first used.
  field.addEventListener('focus', async () => {
    if (suggestions) return;
    suggestions = [];
    try {
      suggestions = (await api.listTags()).tags.map((x) => x.tag);
      choices.replaceChildren(...suggestions.map((tag) => h('option', { value: tag })));
    } catch {} // no suggestions: typing works all the same
  });
  /**
   * Asks for the entry's own date and time (a writer backdating what they wrote the next
   * morning) and makes it the entry's next version; the list orders by it.
   */
  async function redate() {
    if (!entry) return void toast(w.writeFirst);
    if (entry.deletedAt) return;
    const at = new Date(entry.createdAt);
    const local = new Date(at.getTime() - at.getTimezoneOffset() * 60000).toISOString().slice(0, 16);
    const field = h('input', { type: 'datetime-local', value: local, required: true, class: 'dialog-field', 'aria-label': w.when });
    // Loaded when first asked: the editor opens without it.
    const dialogs = await import('./dialogs.js').catch(() => null);
    if (!dialogs) return void toast(t.loadFailed);
    const answer = dialogs.ask('redate', w.redate, field, [{ value: 'change', label: w.change }, { value: '', label: t.cancel }]);
    if ((await answer) !== 'change' || !field.value || field.value === local) return;
    // Read on the writer's own clock, by the rule the command line and jrnl imports follow
    // (DiaryCore's LocalTime): ECMAScript's Date reads a time the clocks skip with the offset
    // before the change (02:30 becomes 03:30) and a time they show twice as the first, as
    // RFC 5545 and Temporal's "compatible" do.
    const chosen = new Date(field.value);
    if (Number.isNaN(chosen.getTime())) return;
    // The entry now shows in this browser's zone, the one the time was chosen in.
    return send(() => ({ createdAt: chosen.toISOString(), timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone }));
  }

  return { star, line, show, redate, lock };
}
