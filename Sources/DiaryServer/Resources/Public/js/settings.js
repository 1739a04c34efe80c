// The settings (#/settings, from the account's menu): download the diary, change the password,
// the devices signed in and the access tokens (each can be signed out or revoked), the language,
// and what the server is set to (weather, the trash's days). It needs the server: it loads when
// first opened, with its stylesheet, never with the first visit.

import * as api from './api.js';
import { confirmAction } from './dialogs.js';
import { h, iconLink, toast } from './dom.js';
import { LANGUAGE_KEY, chosenLanguage, lang, languages, t } from './i18n.js';
import { back } from './router.js';
import { serverSettings, user } from './session.js';

// The server's rules (api.limits): said as the server holds them; one unknown goes unsaid, and a
// refusal is then said in the server's words.
const { passwordLength: least, loginWaitMinutes: wait } = api.limits;

const words = {
  en: {
    exportTitle: 'Download your diary',
    exportHint: 'Every entry, oldest first (not the trash). The JSON file and the ZIPs can be imported again, here or with {diary import}.',
    exportJSON: 'Download as JSON',
    exportMarkdown: 'Download as Markdown',
    exportZip: 'ZIP with the photos',
    exportDayOne: 'Day One ZIP',
    exportJrnl: 'jrnl JSON',
    importTitle: 'Bring entries in',
    importHint: 'From Day One (its JSON or ZIP export), jrnl (its journal file or JSON export) or a Diary download. All or nothing; a file imported twice adds nothing.',
    chooseFile: 'Choose a file to import',
    sending: (percent) => `Sending the file… ${percent}%`,
    reading: 'Reading the file…',
    keeping: (done, of) => `Keeping the photos: ${done} of ${of}`,
    saving: (n) => (n === 1 ? 'Saving 1 entry…' : `Saving ${n} entries…`),
    imported: (added, photos) => `Imported ${added === 1 ? '1 entry' : `${added} entries`}${photos ? ` and ${photos === 1 ? '1 photo' : `${photos} photos`}` : ''}.`,
    skipped: (n) => ` Skipped ${n} already in the diary.`,
    nothingNew: ' Nothing new: this file was imported before.',
    notKept: 'Not kept (Diary has no place for them):',
    // jrnl's times, read on this browser's clock, as the picker and the command line read them.
    skippedTimes: (n) => `${n === 1 ? '1 time the clocks skip was' : `${n} times the clocks skip were`} dated as far later as they go forward.`,
    repeatedTimes: (n) => `${n === 1 ? '1 time the clocks show twice was' : `${n} times the clocks show twice were`} dated the first.`,
    passwordTitle: 'Change the password',
    passwordHint: 'Every other device is signed out and every access token is revoked; this one stays signed in.',
    currentPassword: 'Current password',
    newPassword: `New password${least ? ` (at least ${least} characters)` : ''}`,
    changePassword: 'Change the password',
    passwordChanged: (sessions, tokens) => `Password changed. ${sessions === 1 ? '1 other device was' : `${sessions} other devices were`} signed out and ${tokens === 1 ? '1 access token was' : `${tokens} access tokens were`} revoked.`,
    devicesTitle: 'Signed-in devices',
    unknownDevice: 'Unknown device',
    thisDevice: 'This device',
    signedIn: (date) => `Signed in ${date}`,
    lastUsed: (date) => `last used ${date}`,
    signOut: 'Sign out',
    signOutOf: (label) => `Sign out ${label}`,
    confirmSignOut: (label) => `Sign out ${label}? It will have to log in again.`,
    signedOut: 'Signed out.',
    tokensTitle: 'Access tokens',
    tokensHint: 'Scripts and other apps use these instead of a password. Make one on the server with {diary token create NAME}.',
    noTokens: 'No access tokens.',
    created: (date) => `Made ${date}`,
    neverUsed: 'never used',
    revoke: 'Revoke',
    revokeToken: (name) => `Revoke ${name}`,
    confirmRevoke: (name) => `Revoke the access token “${name}”? Whatever uses it stops working.`,
    revoked: 'Revoked.',
    languageTitle: 'Language',
    languageHint: 'Kept in this browser.',
    browserLanguage: 'The browser’s language',
    weatherTitle: 'Weather',
    weatherOn: 'New entries record the weather where they are written (your browser asks once for a rough location).',
    weatherOff: 'The weather is not recorded: the server is set so.',
    weatherServer: 'The server’s owner sets this for everyone, with {diary serve --weather}.',
    trashTitle: 'The trash',
    trashDays: (n) => (n === 1 ? 'Entries in the trash are deleted for good after 1 day.' : `Entries in the trash are deleted for good after ${n} days.`),
    trashForever: 'Entries stay in the trash until you delete them or empty it.',
    trashServer: 'The server’s owner sets this for everyone, with {diary serve --trash-days}.',
    errors: {
      wrong_password: 'The current password is wrong.',
      bad_account: least && `The new password needs at least ${least} characters.`,
      too_many_attempts: wait && `Too many wrong passwords. Try again in ${wait} minutes.`,
    },
  },
  ko: {
    exportTitle: '일기장 내려받기',
    exportHint: '모든 일기를 오래된 것부터 담아요(휴지통은 빼고). JSON 파일과 ZIP은 여기서나 {diary import}로 다시 가져올 수 있어요.',
    exportJSON: 'JSON으로 내려받기',
    exportMarkdown: '마크다운으로 내려받기',
    exportZip: '사진까지 ZIP으로',
    exportDayOne: 'Day One ZIP',
    exportJrnl: 'jrnl JSON',
    importTitle: '일기 가져오기',
    importHint: 'Day One(JSON이나 ZIP 내보내기), jrnl(일기 파일이나 JSON 내보내기), Diary에서 내려받은 파일을 가져와요. 전부 가져오거나 하나도 가져오지 않아요. 같은 파일을 두 번 가져와도 더해지지 않아요.',
    chooseFile: '가져올 파일 고르기',
    sending: (percent) => `파일 보내는 중… ${percent}%`,
    reading: '파일 읽는 중…',
    keeping: (done, of) => `사진 저장 중: ${of}장 중 ${done}장`,
    saving: (n) => `일기 ${n}개 저장 중…`,
    imported: (added, photos) => `일기 ${added}개${photos ? `와 사진 ${photos}장을` : '를'} 가져왔어요.`,
    skipped: (n) => ` 이미 있는 ${n}개는 건너뛰었어요.`,
    nothingNew: ' 새로운 것이 없어요. 전에 가져온 파일이에요.',
    notKept: '옮기지 못한 항목(Diary에 자리가 없어요):',
    skippedTimes: (n) => `시계가 건너뛰는 시각 ${n}개는 시계가 앞당겨진 만큼 뒤의 시각으로 적었어요.`,
    repeatedTimes: (n) => `시계가 두 번 지나는 시각 ${n}개는 첫 번째 시각으로 적었어요.`,
    // The server says what was wrong in English (the record, the field): said here first in Korean.
    importErrors: {
      unknown_format: '이 파일은 Diary가 읽는 형식이 아니에요(Day One, jrnl, Diary의 JSON이나 ZIP). 아무것도 가져오지 않았어요.',
      bad_import: '파일에 가져올 수 없는 부분이 있어서 아무것도 가져오지 않았어요.',
      too_large: '파일이나 그 안의 항목이 너무 커서 아무것도 가져오지 않았어요.',
      over_quota: '사진이 이 일기장의 사진 용량을 넘어서 아무것도 가져오지 않았어요.',
      import_running: '이미 가져오는 중이에요. 끝난 뒤에 다시 해 보세요.',
      other: '가져오지 못했어요. 아무것도 바뀌지 않았어요.',
    },
    passwordTitle: '비밀번호 바꾸기',
    passwordHint: '다른 기기는 모두 로그아웃되고 액세스 토큰도 모두 폐기돼요. 이 기기는 로그인한 채로 남아요.',
    currentPassword: '지금 비밀번호',
    newPassword: `새 비밀번호${least ? `(${least}자 이상)` : ''}`,
    changePassword: '비밀번호 바꾸기',
    passwordChanged: (sessions, tokens) => `비밀번호를 바꿨어요. 다른 기기 ${sessions}대를 로그아웃하고 액세스 토큰 ${tokens}개를 폐기했어요.`,
    devicesTitle: '로그인한 기기',
    unknownDevice: '알 수 없는 기기',
    thisDevice: '이 기기',
    signedIn: (date) => `${date} 로그인`,
    lastUsed: (date) => `마지막 사용 ${date}`,
    signOut: '로그아웃',
    signOutOf: (label) => `${label} 로그아웃`,
    confirmSignOut: (label) => `${label}에서 로그아웃할까요? 다시 로그인해야 해요.`,
    signedOut: '로그아웃했어요.',
    tokensTitle: '액세스 토큰',
    tokensHint: '스크립트나 다른 앱이 비밀번호 대신 써요. 서버에서 {diary token create 이름}으로 만들어요.',
    noTokens: '액세스 토큰이 없어요.',
    created: (date) => `${date} 만듦`,
    neverUsed: '사용한 적 없음',
    revoke: '폐기',
    revokeToken: (name) => `${name} 폐기`,
    confirmRevoke: (name) => `액세스 토큰 “${name}”을 폐기할까요? 이 토큰을 쓰는 곳은 더 이상 동작하지 않아요.`,
    revoked: '폐기했어요.',
    languageTitle: '언어',
    languageHint: '이 브라우저에 저장돼요.',
    browserLanguage: '브라우저 언어',
    weatherTitle: '날씨',
    weatherOn: '새 일기에 쓴 곳의 날씨를 기록해요(브라우저가 대략적인 위치를 한 번 물어봐요).',
    weatherOff: '날씨를 기록하지 않아요. 서버가 그렇게 설정되어 있어요.',
    weatherServer: '서버 관리자가 모두에게 적용되도록 {diary serve --weather}로 정해요.',
    trashTitle: '휴지통',
    trashDays: (n) => `휴지통의 일기는 ${n}일이 지나면 영구히 삭제돼요.`,
    trashForever: '휴지통의 일기는 직접 삭제하거나 휴지통을 비울 때까지 남아 있어요.',
    trashServer: '서버 관리자가 모두에게 적용되도록 {diary serve --trash-days}로 정해요.',
    errors: {
      wrong_password: '지금 비밀번호가 틀렸어요.',
      bad_account: least && `새 비밀번호는 ${least}자 이상이어야 해요.`,
      too_many_attempts: wait && `비밀번호가 여러 번 틀렸어요. ${wait}분 뒤에 다시 해 보세요.`,
    },
  },
};
const w = words[lang] ?? words.en;

// The screen's styles come with it, before anything is drawn.
await new Promise((resolve) => document.head.append(h('link', { rel: 'stylesheet', href: 'settings.css', onload: resolve, onerror: resolve })));

/** Keeps the language chosen ('en', 'ko', or null for the browser's) for this browser; a reload applies it. */
function chooseLanguage(code) {
  if (code) localStorage.setItem(LANGUAGE_KEY, code);
  else localStorage.removeItem(LANGUAGE_KEY);
}

const moment = new Intl.DateTimeFormat(languages, { dateStyle: 'medium', timeStyle: 'short' });
const when = (iso) => moment.format(new Date(iso));
const zone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
const failed = (error) => toast(error.status ? (w.errors[error.code] ?? error.message) : t.loadFailed);

let serial = 0;

export function showSettings(root) {
  const drawing = ++serial;
  const backLink = iconLink('back', t.back, '#/');
  backLink.addEventListener('click', (e) => {
    e.preventDefault();
    back();
  });
  const devices = h('ul', { class: 'settings-list', 'aria-labelledby': 'settings-devices' });
  const tokens = h('ul', { class: 'settings-list', 'aria-labelledby': 'settings-tokens' });
  const load = () => {
    loadDevices(devices, drawing);
    loadTokens(tokens, drawing);
  };
  root.append(
    h('header', { class: 'bar' },
      h('div', { class: 'bar-inner' }, backLink, h('h1', {}, t.settings))),
    h('main', { class: 'column settings' },
      importSection(),
      exportSection(),
      passwordSection(load),
      section('settings-devices', w.devicesTitle, null, devices),
      section('settings-tokens', w.tokensTitle, w.tokensHint, tokens),
      languageSection(),
      section('settings-weather', w.weatherTitle, null,
        h('p', {}, serverSettings.weather ? w.weatherOn : w.weatherOff), h('p', { class: 'settings-hint' }, ...code(w.weatherServer))),
      serverSettings.trashDays === undefined ? null : section('settings-trash', w.trashTitle, null,
        h('p', {}, serverSettings.trashDays ? w.trashDays(serverSettings.trashDays) : w.trashForever),
        h('p', { class: 'settings-hint' }, ...code(w.trashServer)))));
  load();
  return () => { serial++; };
}

function section(id, title, hint, ...content) {
  return h('section', { class: 'settings-section', 'aria-labelledby': id },
    h('h2', { id }, title),
    hint ? h('p', { class: 'settings-hint' }, ...code(hint)) : null,
    ...content);
}

/** Text whose {commands} are set as code: the words as text nodes, never markup. */
function code(text) {
  return text.split(/[{}]/).map((part, i) => (i % 2 ? h('code', {}, part) : part));
}

// Plain links: the browser downloads the file as the server writes it (Content-Disposition:
// attachment), a page of entries at a time, never whole in this page's memory.
function exportSection() {
  const link = (format, label) => h('a', {
    class: 'button', download: '',
    href: `api/v1/export?format=${format}&timeZone=${encodeURIComponent(zone())}&language=${lang}`,
  }, label);
  return section('settings-export', w.exportTitle, w.exportHint,
    h('div', { class: 'settings-buttons' }, link('json', w.exportJSON), link('markdown', w.exportMarkdown),
      link('zip', w.exportZip), link('dayone', w.exportDayOne), link('jrnl', w.exportJrnl)));
}

// The file goes to the server as it is (never read whole here); the upload's progress is the
// browser's, then the server tells how far the import has got, a line of JSON at a time. The
// import and its outcome live here, not in the screen: a screen drawn again (the session came
// after the screen was drawn) shows them as they are, and the import goes on.
const importing = { user: null, running: false, text: '', fraction: 0, report: null, error: null, open: false };
let importView = null;

function importSection() {
  const input = h('input', { type: 'file', class: 'visually-hidden', accept: '.json,.zip,.txt,application/json,application/zip,text/plain' });
  const view = {
    input,
    choose: h('label', { class: 'button' }, input, w.chooseFile),
    bar: h('progress', { max: 1, value: 0, hidden: true, 'aria-label': w.importTitle }),
    status: h('p', { class: 'settings-status', role: 'status' }),
    error: h('p', { class: 'settings-error', role: 'alert' }),
    report: h('div', { class: 'settings-report' }),
    reportShown: null,
  };
  importView = view;
  input.addEventListener('change', () => input.files[0] && start(input.files[0]));
  showImport();
  return section('settings-import', w.importTitle, w.importHint,
    h('div', { class: 'settings-buttons' }, view.choose), view.bar, view.status, view.error, view.report);
}

/** Draws `importing` into the screen on show (another writer's import is not shown). */
function showImport() {
  const v = importView;
  if (!v) return;
  const state = importing.user === user ? importing : { running: false, report: null, error: null };
  v.input.disabled = state.running;
  v.choose.classList.toggle('disabled', state.running);
  v.status.textContent = state.running ? state.text : '';
  v.bar.hidden = !state.running;
  if (state.fraction === undefined) v.bar.removeAttribute('value');
  else v.bar.value = state.fraction ?? 0;
  const { code, message } = state.error || {};
  v.error.replaceChildren(...(!message ? [] : code && w.importErrors ? [
    w.importErrors[code] ?? w.importErrors.other, h('span', { class: 'settings-detail', lang: 'en' }, message),
  ] : [message]));
  if (v.reportShown !== state.report) {
    v.reportShown = state.report;
    v.report.replaceChildren(...(state.report ? reportOf(state.report) : []));
  }
}

async function start(file) {
  if (importing.running) return;
  Object.assign(importing, { user, running: true, text: w.sending(0), fraction: 0, report: null, error: null, open: false });
  showImport();
  const show = (text, fraction) => {
    Object.assign(importing, { text, fraction });
    showImport();
  };
  try {
    importing.report = await importFile(file, (line) => {
      if (line.stage === 'sent') show(line.fraction < 1 ? w.sending(Math.floor(line.fraction * 100)) : w.reading, line.fraction < 1 ? line.fraction : undefined);
      else if (line.stage === 'photos' && line.of) show(w.keeping(line.done, line.of), line.done / line.of);
      else if (line.stage === 'saving') show(w.saving(line.entries), undefined);
    });
  } catch (e) {
    importing.error = e.status ? { code: e.code, message: e.message } : { message: t.loadFailed };
  } finally {
    importing.running = false;
    if (importView) importView.input.value = '';
    showImport();
  }
}

function reportOf({ added, skipped, photos, notKept, clockChanges }) {
  const kept = Object.entries(notKept).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const clocks = [clockChanges.skipped && w.skippedTimes(clockChanges.skipped), clockChanges.repeated && w.repeatedTimes(clockChanges.repeated)];
  return [
    h('p', {}, w.imported(added, photos) + (skipped ? w.skipped(skipped) : '') + (!added && skipped ? w.nothingNew : '')),
    clocks.some(Boolean) ? h('p', {}, clocks.filter(Boolean).join(' ')) : null,
    // Open or closed as the writer left it, should the screen be drawn again.
    kept.length ? h('details', { open: importing.open, ontoggle: (e) => { importing.open = e.target.open; } },
      h('summary', {}, w.notKept),
      h('ul', {}, ...kept.map(([field, count]) => h('li', {}, `${count.toLocaleString(languages)} × ${field}`)))) : null,
  ].filter(Boolean); // (replaceChildren would write a null as the word)
}

/** Sends `file` to POST /api/v1/import; `told` hears the upload ({stage: 'sent', fraction}) and
 * the server's lines. Resolves with the report; an ApiError as api.js's requests give. */
function importFile(file, told) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    // A jrnl journal's hours are its writer's clock's: the server reads them in this zone.
    xhr.open('POST', `api/v1/import?timeZone=${encodeURIComponent(zone())}`);
    xhr.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    xhr.setRequestHeader('Accept', 'application/x-ndjson');
    const token = api.csrf();
    if (token) xhr.setRequestHeader('X-CSRF-Token', token);
    xhr.upload.onprogress = (e) => e.lengthComputable && told({ stage: 'sent', fraction: e.loaded / e.total });
    xhr.upload.onload = () => told({ stage: 'sent', fraction: 1 });
    let read = 0;
    let last = null;
    const lines = () => {
      if (xhr.status !== 200) return;
      const text = xhr.responseText;
      const end = text.lastIndexOf('\n') + 1;
      for (const line of text.slice(read, end).split('\n')) {
        if (!line) continue;
        last = JSON.parse(line);
        told(last);
      }
      read = Math.max(read, end);
    };
    xhr.onprogress = lines;
    xhr.onload = () => {
      if (xhr.status === 401) api.sessionEvents.dispatchEvent(new Event('ended'));
      if (xhr.status !== 200) {
        let data = null;
        try {
          data = JSON.parse(xhr.responseText);
        } catch {}
        return reject(new api.ApiError(xhr.status, data));
      }
      lines();
      if (last?.stage === 'done') resolve(last.report);
      else reject(new api.ApiError(last?.stage === 'failed' ? 422 : 0, last ? { error: last.error, message: last.message } : null));
    };
    xhr.onerror = xhr.onabort = xhr.ontimeout = () => reject(new api.ApiError(0, null));
    xhr.send(file);
  });
}

function passwordSection(changed) {
  const field = (label, autocomplete) => {
    const input = h('input', { type: 'password', required: true, autocomplete });
    return { label: h('label', {}, h('span', {}, label), input), input };
  };
  const current = field(w.currentPassword, 'current-password');
  const fresh = field(w.newPassword, 'new-password');
  if (least) fresh.input.minLength = least;
  const error = h('p', { class: 'settings-error', role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'button primary' }, w.changePassword);
  // A hidden name field tells password managers whose password this is.
  const form = h('form', { class: 'settings-form' },
    h('input', { type: 'text', autocomplete: 'username', hidden: true, value: user ?? '' }),
    current.label, fresh.label, error, submit);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    submit.disabled = true;
    error.textContent = '';
    try {
      const ended = await api.post('account/password', { currentPassword: current.input.value, newPassword: fresh.input.value });
      form.reset();
      toast(w.passwordChanged(ended.endedSessions, ended.endedTokens), { duration: 8000 });
      changed();
    } catch (e) {
      error.textContent = e.status ? (w.errors[e.code] ?? e.message) : t.loadFailed;
    } finally {
      submit.disabled = false;
    }
  });
  return section('settings-password', w.passwordTitle, w.passwordHint, form);
}

// What the lists showed last: a screen drawn again (the window crossed the wide layout's width)
// shows them at once while they are asked for again. Only to the writer they were shown to.
const shown = { devices: null, tokens: null, user: null };
const kept = (what) => (shown.user === user ? shown[what] : null);
const keep = (what, answer) => {
  if (shown.user !== user) Object.assign(shown, { devices: null, tokens: null, user });
  shown[what] = answer;
};

async function loadDevices(list, drawing) {
  if (kept('devices')) drawDevices(list, drawing, kept('devices'));
  let answer;
  try {
    answer = await api.get('account/sessions');
  } catch (e) {
    return e.status !== 401 && drawing === serial && failed(e);
  }
  if (drawing !== serial) return;
  keep('devices', answer);
  drawDevices(list, drawing, answer);
}

function drawDevices(list, drawing, answer) {
  list.replaceChildren(...answer.sessions.map((s) => {
    const label = s.label || w.unknownDevice;
    return h('li', { class: 'settings-row' },
      h('div', { class: 'settings-row-text' },
        h('span', { class: 'settings-row-name' }, label, s.current ? h('span', { class: 'settings-badge' }, w.thisDevice) : null),
        h('span', { class: 'settings-row-detail' }, `${w.signedIn(when(s.createdAt))} · ${w.lastUsed(when(s.lastUsedAt))}`)),
      s.current ? null : h('button', {
        type: 'button', class: 'button danger', 'aria-label': w.signOutOf(label),
        onclick: async () => {
          if (!(await confirmAction(w.confirmSignOut(label), w.signOut))) return;
          try {
            await api.remove(`account/sessions/${encodeURIComponent(s.id)}`);
            toast(w.signedOut);
          } catch (e) {
            if (e.status !== 404) failed(e); // 404: signed out already
          }
          loadDevices(list, drawing);
        },
      }, w.signOut));
  }));
}

async function loadTokens(list, drawing) {
  if (kept('tokens')) drawTokens(list, drawing, kept('tokens'));
  let answer;
  try {
    answer = await api.get('account/tokens');
  } catch (e) {
    return e.status !== 401 && drawing === serial && failed(e);
  }
  if (drawing !== serial) return;
  keep('tokens', answer);
  drawTokens(list, drawing, answer);
}

function drawTokens(list, drawing, answer) {
  if (!answer.tokens.length) return list.replaceChildren(h('li', { class: 'settings-empty' }, w.noTokens));
  list.replaceChildren(...answer.tokens.map((token) => h('li', { class: 'settings-row' },
    h('div', { class: 'settings-row-text' },
      h('span', { class: 'settings-row-name' }, token.name),
      h('span', { class: 'settings-row-detail' },
        `${w.created(when(token.createdAt))} · ${token.lastUsedAt ? w.lastUsed(when(token.lastUsedAt)) : w.neverUsed}`)),
    h('button', {
      type: 'button', class: 'button danger', 'aria-label': w.revokeToken(token.name),
      onclick: async () => {
        if (!(await confirmAction(w.confirmRevoke(token.name), w.revoke))) return;
        try {
          await api.remove(`account/tokens/${encodeURIComponent(token.id)}`);
          toast(w.revoked);
        } catch (e) {
          if (e.status !== 404) failed(e);
        }
        loadTokens(list, drawing);
      },
    }, w.revoke))));
}

// The page's words and dates come in the chosen language once it has loaded again.
function languageSection() {
  const choices = [['', w.browserLanguage], ['en', 'English'], ['ko', '한국어']];
  const group = h('fieldset', { class: 'settings-choices' },
    h('legend', { class: 'visually-hidden' }, w.languageTitle),
    ...choices.map(([code, label]) => h('label', {},
      h('input', {
        type: 'radio', name: 'language', value: code, checked: (chosenLanguage ?? '') === code,
        onchange: () => {
          chooseLanguage(code || null);
          location.reload();
        },
      }),
      // Each language is named in itself, and marked as such for screen readers.
      h('span', { lang: code || null }, label))));
  return section('settings-language', w.languageTitle, w.languageHint, group);
}
