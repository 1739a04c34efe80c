// Dialogs (<dialog>, so focus, Escape and the backdrop come from the browser),
// the action menu and the toast.

import { h } from './dom.js';
import { t } from './i18n.js';

let serial = 0;

// Opens a modal dialog whose buttons close it with their value.
function open(className, label, content, buttons) {
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
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => {
      dialog.remove();
      resolve(dialog.returnValue);
    });
  });
}

/** Asks a yes/no question; resolves true for yes. */
export async function confirmAction(message, yesLabel, { danger = true } = {}) {
  const answer = await open('alert', message, null, [
    { value: 'yes', label: yesLabel, danger },
    { value: 'no', label: t.cancel, autofocus: true },
  ]);
  return answer === 'yes';
}

/** A menu of actions plus Cancel, like the iOS action sheet; resolves the chosen value or ''. */
export function chooseAction(label, actions) {
  return open('sheet', label, null, [...actions, { value: '', label: t.cancel }]);
}

/** A dialog with custom content and buttons; resolves the chosen value or ''. */
export const ask = open;

let toastTimer = null;

/** A short message at the bottom, with an optional action such as Undo. */
export function toast(message, { action, onAction, duration = 5000 } = {}) {
  const box = document.getElementById('toast');
  clearTimeout(toastTimer);
  const hide = () => {
    box.hidden = true;
    box.replaceChildren();
  };
  box.replaceChildren(h('span', {}, message));
  if (action) {
    box.append(h('button', { type: 'button', onclick: () => (hide(), onAction()) }, action));
  }
  box.hidden = false;
  toastTimer = setTimeout(hide, duration);
}
