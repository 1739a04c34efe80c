// What the writer does to an entry, from a row or from the editor: share it, or delete it with
// a question first and Undo after. Sharing uses the Web Share API where the browser has it (the
// web's UIActivityViewController), otherwise a copy to the clipboard. Loaded with the editor, or
// when a row's Share or Delete is first used: a first visit does not need it.

import * as api from './api.js';
import * as device from './device.js';
import { confirmAction } from './dialogs.js';
import { toast } from './dom.js';
import { formatDate, t } from './i18n.js';

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
  device.forgetEntry(id); // the list offline does not show it any more
  onDeleted?.();
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
  // The shared text: title, long date (the day where it was written), then the body.
  const { title, body, createdAt, timeZone } = entry;
  const text = [title.trim(), formatDate(createdAt, timeZone), '', body].filter((line, i) => i || line).join('\n').trim();
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
