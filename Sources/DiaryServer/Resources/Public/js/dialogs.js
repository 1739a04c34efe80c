// The dialogs: a question before something that cannot be taken back, a menu of actions (like
// the iOS action sheet), and the forms the screens ask with. They are <dialog>, so focus, Escape
// and the backdrop come from the browser. Loaded with the screens that ask, or when a row's menu
// is first opened: a first visit needs none of it.

import { h } from './dom.js';
import { t } from './i18n.js';

let serial = 0;

// Their styles are asked for as this module loads, and waited for only by the first dialog: an
// entry opening offline or at once is never held up by them.
const styled = new Promise((resolve) => document.head.append(h('link', { rel: 'stylesheet', href: 'dialogs.css', onload: resolve, onerror: resolve })));

/** A modal dialog whose buttons close it with their value; resolves the chosen value or ''. */
export async function ask(className, label, content, buttons) {
  await styled;
  const id = `dialog-${++serial}`;
  const dialog = h(
    'dialog',
    { class: className, 'aria-labelledby': id },
    h('form', { method: 'dialog' },
      h('p', { id, class: 'dialog-label' }, label),
      content,
      h('div', { class: 'dialog-buttons' }, buttons.map((b) =>
        h('button', { value: b.value, class: b.danger ? 'danger' : '', autofocus: b.autofocus }, b.label)))));
  // A click on the backdrop (the dialog element itself) dismisses it.
  dialog.addEventListener('click', (e) => e.target === dialog && dialog.close(''));
  document.body.append(dialog);
  dialog.showModal();
  // A field's words are chosen, ready to be typed over (a tag's new name).
  dialog.querySelector('input[type=text]')?.select();
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => {
      dialog.remove();
      resolve(dialog.returnValue);
    });
  });
}

/** Asks a yes/no question (yes does harm: delete, say); resolves true for yes. */
export async function confirmAction(message, yesLabel) {
  const answer = await ask('alert', message, null, [
    { value: 'yes', label: yesLabel, danger: true },
    { value: 'no', label: t.cancel, autofocus: true },
  ]);
  return answer === 'yes';
}

/** A menu of actions plus Cancel, like the iOS action sheet; resolves the chosen value or ''. */
export function chooseAction(label, actions) {
  return ask('sheet', label, null, [...actions, { value: '', label: t.cancel }]);
}
