// What the writer does to an entry from the list or the editor: share it (the
// Web Share API where the browser has it, the web's UIActivityViewController,
// otherwise a copy to the clipboard), or delete it with a question first and
// Undo after.

import * as api from './api.js';
import { forgetEntry } from './device.js';
import { confirmAction, toast } from './dom.js';
import { formatDate, t } from './i18n.js';

/** Says 'trashed' ({id}) when an entry went to the trash, from whichever screen. */
export const changes = new EventTarget();

/**
 * Asks, moves the entry to the trash and offers Undo.
 * `onDeleted` runs once it is in the trash, `onRestored` after an Undo.
 */
export async function deleteEntry(id, { onDeleted, onRestored } = {}) {
  if (!(await confirmAction(t.confirmDelete, t.delete))) return false;
  try {
    await api.trashEntry(id);
  } catch (error) {
    toast(error.status ? error.message : t.loadFailed);
    return false;
  }
  forgetEntry(id); // the list offline does not show it any more
  onDeleted?.();
  changes.dispatchEvent(new CustomEvent('trashed', { detail: { id } }));
  offerUndo(id, t.movedToTrash, onRestored);
  return true;
}

export function offerUndo(id, message, onRestored) {
  toast(message, {
    action: t.undo,
    onAction: async () => {
      try {
        await api.restoreEntry(id);
        onRestored?.();
      } catch (error) {
        toast(error.status ? error.message : t.loadFailed);
      }
    },
  });
}

export async function shareEntry(entry) {
  // The shared text: title, long date, then the body.
  const { title, body, createdAt } = entry;
  const text = [title.trim(), formatDate(createdAt), '', body].filter((line, i) => i || line).join('\n').trim();
  if (navigator.share) {
    try {
      await navigator.share({ title, text });
      return;
    } catch (error) {
      if (error.name === 'AbortError') return; // the writer closed the share sheet
    }
  }
  try {
    await copy(text);
    toast(t.copied);
  } catch {
    toast(t.shareFailed);
  }
}

async function copy(text) {
  if (navigator.clipboard?.writeText) return navigator.clipboard.writeText(text);
  // Plain http on a home network has no Clipboard API; the old way still works.
  const area = Object.assign(document.createElement('textarea'), { value: text, readOnly: true });
  area.className = 'offscreen';
  document.body.append(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('copy failed');
}
