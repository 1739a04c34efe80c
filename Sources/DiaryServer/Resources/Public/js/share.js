// Sharing an entry: the Web Share API where the browser has it (the web's
// UIActivityViewController), otherwise a copy to the clipboard.

import { toast } from './dialog.js';
import { formatDate, t } from './i18n.js';

/** The shared text: title, long date, then the body. */
export function shareText({ title, body, createdAt }) {
  return [title.trim(), formatDate(createdAt), '', body].filter((line, i) => i || line).join('\n').trim();
}

export async function shareEntry(entry) {
  const text = shareText(entry);
  if (navigator.share) {
    try {
      await navigator.share({ title: entry.title, text });
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
