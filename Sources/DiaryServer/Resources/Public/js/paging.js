// Infinite scroll, for the list, the browse views and the trash: the next page loads when the
// end of the rows comes near.

import * as autosave from './autosave.js';
import { h } from './dom.js';
import { t } from './i18n.js';

/**
 * fetchPage(cursor) -> {entries, nextCursor}; append(entries) puts their rows after `end`'s
 * last one and returns them. onFirst(page) runs after the first page (for the empty state),
 * onError(error) if the first page fails. A later page that fails is said at the end of the
 * rows, where it would have come, with a way to try again; the rows shown stay.
 * `scroller`: the element that scrolls the rows (null: the page). `resume`: the cursor of the
 * next page, for rows put back as they were (the first page is not fetched again). `evenHeld`:
 * pages come while sending is held too (the device's copy, offline at start).
 * Returns a function that stops it.
 */
export function paged(end, { fetchPage, append, onFirst, onError, scroller = null, resume, evenHeld = false }) {
  let cursor = resume ?? null;
  let first = resume === undefined;
  let loading = false;
  let done = resume === null;
  const sentinel = h('div', { class: 'sentinel', 'aria-hidden': 'true' });
  const retry = () => {
    done = false;
    more();
  };
  const failed = h('p', { class: 'offline-note stale-note', role: 'status' },
    h('span', {}, t.moreFailed),
    h('button', { type: 'button', onclick: retry }, t.tryAgain));
  end.after(sentinel);
  const observer = new IntersectionObserver(
    (seen) => seen.some((s) => s.isIntersecting) && more(),
    { root: scroller, rootMargin: '0px 0px 600px 0px' },
  );

  async function more() {
    // Held: its writer is logging out, or has (the next login draws the list again).
    if (loading || done || (autosave.isHeld() && !evenHeld)) return;
    loading = true;
    try {
      const page = await fetchPage(cursor);
      // Focus on Try again moves on to the first row that came, not to the top of the page.
      const refocus = failed.contains(document.activeElement);
      failed.remove();
      const rows = append(page.entries);
      if (refocus) rows[0]?.querySelector('a, button')?.focus();
      cursor = page.nextCursor;
      done = !cursor;
      if (first) onFirst?.(page);
      first = false;
    } catch (error) {
      done = true; // the error view or the note offers to try again
      if (first) onError?.(error);
      else sentinel.before(failed);
    } finally {
      loading = false;
    }
    // Observing again reports the sentinel afresh if it is still in view.
    observer.unobserve(sentinel);
    if (!done) observer.observe(sentinel);
  }

  if (!done) observer.observe(sentinel);
  return () => {
    observer.disconnect();
    sentinel.remove(); // the list may page again from its start, with a sentinel of its own
    failed.remove();
  };
}
