// The door: the first account's setup on a new diary, then a login form, and the way out
// (the account's menu, with Log out). Nothing of the diary on the server is drawn before the
// server knows who is asking (a page opened while the server cannot be reached shows only the
// drafts kept in this browser).

import * as api from './api.js';
import * as autosave from './autosave.js';
import * as device from './device.js';
import { chooseAction, confirmAction } from './dialogs.js';
import { h, hideToast, toast } from './dom.js';
import { lang, t } from './i18n.js';

// How long logging out waits for the drafts to reach the server before asking, and after how
// long of it the wait is said (a quick send shows nothing).
const SEND_MS = 5000;
const SAY_SENDING_MS = 300;

// The server's rules (api.limits): said here as the server holds them; one unknown goes unsaid,
// and a refusal is then said in the server's words.
const { passwordLength: least, loginWaitMinutes: wait } = api.limits;

const words = {
  en: {
    setupTitle: 'Welcome to your diary',
    setupHint: `Choose a name and a password${least ? ` (at least ${least} characters)` : ''}. Only you will read this diary.`,
    loginTitle: 'Diary',
    loginHint: 'Log in to read and write your diary.',
    name: 'Name', password: 'Password',
    setupCode: 'Setup code',
    setupCodeHint: 'From another computer, also enter the setup code that `diary serve` printed in its terminal.',
    create: 'Create the account', logIn: 'Log in',
    logOut: 'Log out',
    loggedInAs: (name) => `Logged in as ${name}`,
    unsent: 'Some changes are not saved yet. Logging out deletes them from this device. Log out anyway?',
    sending: 'Saving your changes before logging out…',
    errors: { offline: 'The server could not be reached. Try again in a moment.' },
  },
  ko: {
    setupTitle: '일기장에 오신 걸 환영해요',
    setupHint: `이름과 비밀번호${least ? `(${least}자 이상)` : ''}를 정하세요. 이 일기장은 당신만 읽을 수 있어요.`,
    loginTitle: '일기장',
    loginHint: '일기장을 보려면 로그인하세요.',
    name: '이름', password: '비밀번호',
    setupCode: '설정 코드',
    setupCodeHint: '다른 컴퓨터에서 설정할 때는 `diary serve`가 터미널에 보여 준 설정 코드도 입력하세요.',
    create: '계정 만들기', logIn: '로그인',
    logOut: '로그아웃',
    loggedInAs: (name) => `${name} 계정으로 로그인했어요`,
    unsent: '아직 저장하지 못한 글이 있어요. 로그아웃하면 이 기기에서 지워져요. 그래도 로그아웃할까요?',
    sending: '로그아웃하기 전에 쓴 글을 저장하고 있어요…',
    // The server's messages are English; the usual ones are said here in Korean.
    errors: {
      bad_login: '이름이나 비밀번호가 틀렸어요.',
      too_many_attempts: wait && `로그인에 여러 번 실패했어요. ${wait}분 뒤에 다시 해 보세요.`,
      setup_code: '설정 코드가 맞지 않아요. `diary serve`가 터미널에 보여 준 코드를 입력하세요.',
      offline: '서버에 연결하지 못했어요. 잠시 뒤에 다시 해 보세요.',
    },
  },
};
const w = words[lang] ?? words.en;

// The form's styles come with it, before anything is drawn (a first visit of someone logged in
// needs none of them).
await new Promise((resolve) => document.head.append(h('link', { rel: 'stylesheet', href: 'account.css', onload: resolve, onerror: resolve })));

/**
 * Draws the setup form (`setupNeeded`, from the server's answer that no one is logged in) or
 * the login form; resolves with the session once someone is logged in. `codeNeeded`: the server
 * says this browser is on another computer, so the setup must carry the code `diary serve`
 * printed.
 */
export function logIn(root, setupNeeded, codeNeeded = false) {
  return new Promise((resolve) => drawForm(root, setupNeeded, resolve, codeNeeded));
}

function drawForm(root, isSetup, done, codeNeeded = false) {
  const form = document.createElement('form');
  form.className = 'account column';
  const heading = document.createElement('h1');
  heading.textContent = isSetup ? w.setupTitle : w.loginTitle;
  const hint = document.createElement('p');
  hint.textContent = isSetup ? w.setupHint : w.loginHint;
  const name = field(w.name, 'text', 'username');
  const password = field(w.password, 'password', isSetup ? 'new-password' : 'current-password');
  if (isSetup && least) password.input.minLength = least;
  const code = isSetup && codeNeeded ? field(w.setupCode, 'text', 'off') : null;
  if (code) {
    hint.textContent += ' ' + w.setupCodeHint;
    code.input.spellcheck = false;
    code.input.autocapitalize = 'characters';
  }
  const error = document.createElement('p');
  error.className = 'account-error';
  error.setAttribute('role', 'alert');
  const submit = document.createElement('button');
  submit.type = 'submit';
  submit.className = 'primary';
  submit.textContent = isSetup ? w.create : w.logIn;
  form.append(heading, hint, name.label, password.label, ...(code ? [code.label] : []), error, submit);
  const main = document.createElement('main'); // the page's one landmark
  main.append(form);
  root.replaceChildren(main);
  name.input.focus();

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    submit.disabled = true;
    error.textContent = '';
    try {
      const session = isSetup
        ? await api.setUp(name.input.value.trim(), password.input.value, code?.input.value.trim())
        : await api.logIn(name.input.value.trim(), password.input.value);
      api.setCsrfToken(session.csrfToken);
      done(session);
    } catch (e) {
      // The server's message says what was wrong (and never whether a name exists).
      error.textContent = w.errors[e.status ? e.code : 'offline'] ?? e.message;
      submit.disabled = false;
      if (isSetup && e.status === 404) drawForm(root, false, done);
    }
  });
}

/** The account's menu, from the list: who is logged in (`name`), the settings, and Log out. */
export async function showAccount(name) {
  const choice = await chooseAction(name ? w.loggedInAs(name) : t.account,
    [{ value: 'settings', label: t.settings }, { value: 'logOut', label: w.logOut }]);
  if (choice === 'settings') location.hash = '#/settings';
  if (choice === 'logOut') await logOut();
}

/**
 * Logs out and leaves nothing of the writer's diary on this device: what waits in the drafts is
 * sent first; what still cannot be sent is asked about (logging out deletes it); then the
 * entries kept on the device, the drafts and the outbox of every tab go.
 */
async function logOut() {
  autosave.saveAll();
  let said = false;
  const saying = setTimeout(() => ((said = true), toast(w.sending, { duration: SEND_MS })), SAY_SENDING_MS);
  await Promise.race([autosave.settled(), new Promise((done) => setTimeout(done, SEND_MS))]);
  clearTimeout(saying);
  if (said) hideToast();
  if (autosave.drafts.waiting().size && !(await confirmAction(w.unsent, w.logOut))) return;
  autosave.hold(); // a save sent after the session ended would only be refused
  await Promise.race([api.quiet(), new Promise((done) => setTimeout(done, SEND_MS))]);
  try {
    await api.logOut();
  } catch {
    autosave.resume();
    return toast(t.loadFailed);
  }
  api.setCsrfToken(null);
  const user = device.writer();
  await autosave.drafts.forgetWriter(user);
  await device.forgetWriter(user);
  device.loggedOut();
  autosave.loggedOutEverywhere(user);
  // The session is over, as if it had ended elsewhere: session.js brings the login form.
  api.sessionEvents.dispatchEvent(new Event('ended'));
}

function field(text, type, autocomplete) {
  const label = document.createElement('label');
  const caption = document.createElement('span');
  caption.textContent = text;
  const input = document.createElement('input');
  input.type = type;
  input.required = true;
  input.autocomplete = autocomplete;
  label.append(caption, input);
  return { label, input };
}
