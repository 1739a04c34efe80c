// Deleting with a question first and Undo after, from the list or the editor.

import * as api from './api.js';
import { confirmAction, toast } from './dialog.js';
import { t } from './i18n.js';

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
