// Infinite scroll: loads the next page when the end of a list comes near.

import { h } from './dom.js';

/**
 * fetchPage(cursor) -> {entries, nextCursor}; renderRow(entry) -> <li>.
 * onFirst(page) runs after the first page (for the empty state), onError(error) on failure.
 */
export function paged(list, { fetchPage, renderRow, onFirst, onError }) {
  let cursor = null;
  let first = true;
  let loading = false;
  let done = false;
  const sentinel = h('div', { class: 'sentinel', 'aria-hidden': 'true' });
  list.after(sentinel);
  const observer = new IntersectionObserver(
    (seen) => seen.some((s) => s.isIntersecting) && more(),
    { rootMargin: '0px 0px 600px 0px' },
  );

  async function more() {
    if (loading || done) return;
    loading = true;
    try {
      const page = await fetchPage(cursor);
      list.append(...page.entries.map(renderRow));
      cursor = page.nextCursor;
      done = !cursor;
      if (first) onFirst?.(page);
      first = false;
    } catch (error) {
      done = true; // the error view offers to try again
      onError?.(error);
    } finally {
      loading = false;
    }
    // Observing again reports the sentinel afresh if it is still in view.
    observer.unobserve(sentinel);
    if (!done) observer.observe(sentinel);
  }

  observer.observe(sentinel);
  return () => observer.disconnect();
}
