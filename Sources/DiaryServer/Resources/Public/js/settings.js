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

const words = {
  en: {
    exportTitle: 'Download your diary',
    exportHint: 'Every entry, oldest first (not the trash). The JSON file can be imported again with {diary import}.',
    exportJSON: 'Download as JSON',
    exportMarkdown: 'Download as Markdown',
    passwordTitle: 'Change the password',
    passwordHint: 'Every other device is signed out and every access token is revoked; this one stays signed in.',
    currentPassword: 'Current password',
    newPassword: 'New password (at least 8 characters)',
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
      bad_account: 'The new password needs at least 8 characters.',
      too_many_attempts: 'Too many wrong passwords. Try again in 15 minutes.',
    },
  },
  ko: {
    exportTitle: '일기장 내려받기',
    exportHint: '모든 일기를 오래된 것부터 담아요(휴지통은 빼고). JSON 파일은 {diary import}로 다시 가져올 수 있어요.',
    exportJSON: 'JSON으로 내려받기',
    exportMarkdown: '마크다운으로 내려받기',
    passwordTitle: '비밀번호 바꾸기',
    passwordHint: '다른 기기는 모두 로그아웃되고 액세스 토큰도 모두 폐기돼요. 이 기기는 로그인한 채로 남아요.',
    currentPassword: '지금 비밀번호',
    newPassword: '새 비밀번호(8자 이상)',
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
      bad_account: '새 비밀번호는 8자 이상이어야 해요.',
      too_many_attempts: '비밀번호가 여러 번 틀렸어요. 15분 뒤에 다시 해 보세요.',
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
      exportSection(),
      passwordSection(load),
      section('settings-devices', w.devicesTitle, null, devices),
      section('settings-tokens', w.tokensTitle, w.tokensHint, tokens),
      languageSection(),
      section('settings-weather', w.weatherTitle, null,
        h('p', {}, serverSettings.weather ? w.weatherOn : w.weatherOff), h('p', { class: 'settings-hint' }, ...code(w.weatherServer))),
      section('settings-trash', w.trashTitle, null,
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
    h('div', { class: 'settings-buttons' }, link('json', w.exportJSON), link('markdown', w.exportMarkdown)));
}

function passwordSection(changed) {
  const field = (label, autocomplete) => {
    const input = h('input', { type: 'password', required: true, autocomplete });
    return { label: h('label', {}, h('span', {}, label), input), input };
  };
  const current = field(w.currentPassword, 'current-password');
  const fresh = field(w.newPassword, 'new-password');
  fresh.input.minLength = 8;
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
