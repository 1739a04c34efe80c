// Swipe a row left on a touch screen to reveal its Share and Delete buttons, as in the iOS
// app. Mouse and keyboard use the row's menu instead.

/** Lets the rows (.row, each a .row-main over its .row-actions) inside `list` be swiped. */
export function enableSwipe(list) {
  let drag = null;
  let openRow = null;
  let suppressClickUntil = 0;

  const actionsWidth = (row) => row.querySelector('.row-actions').offsetWidth;
  const setOffset = (row, px) => row.querySelector('.row-main').style.setProperty('--dx', `${px}px`);

  function close(row) {
    row.classList.remove('open');
    setOffset(row, 0);
    if (openRow === row) openRow = null;
  }

  function open(row) {
    if (openRow && openRow !== row) close(openRow);
    row.classList.add('open');
    setOffset(row, -actionsWidth(row));
    openRow = row;
  }

  list.addEventListener('pointerdown', (e) => {
    if (e.pointerType === 'mouse') return;
    const row = e.target.closest('.row');
    if (openRow && openRow !== row) close(openRow);
    if (!row || e.target.closest('.row-actions')) return;
    const start = row.classList.contains('open') ? -actionsWidth(row) : 0;
    drag = { row, id: e.pointerId, x: e.clientX, y: e.clientY, start, offset: start, swiping: false };
  });

  list.addEventListener('pointermove', (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    const dx = e.clientX - drag.x;
    const dy = e.clientY - drag.y;
    if (!drag.swiping) {
      if (Math.abs(dx) < 8 && Math.abs(dy) < 8) return;
      if (Math.abs(dy) > Math.abs(dx)) return void (drag = null); // a scroll, not a swipe
      drag.swiping = true;
      drag.row.classList.add('dragging');
    }
    drag.offset = Math.min(0, Math.max(-actionsWidth(drag.row), drag.start + dx));
    setOffset(drag.row, drag.offset);
  });

  function end(e) {
    if (!drag || e.pointerId !== drag.id) return;
    const { row, swiping, offset, start } = drag;
    drag = null;
    row.classList.remove('dragging');
    if (swiping) {
      suppressClickUntil = performance.now() + 500; // the lift is not a tap on the link
      if (offset < -actionsWidth(row) / 3) open(row);
      else close(row);
    } else if (start && e.type === 'pointerup') {
      suppressClickUntil = performance.now() + 500; // a tap on an open row closes it
      close(row);
    }
  }
  list.addEventListener('pointerup', end);
  list.addEventListener('pointercancel', end);

  list.addEventListener('click', (e) => {
    if (performance.now() < suppressClickUntil && !e.target.closest('.row-actions')) {
      e.preventDefault();
      e.stopPropagation();
    }
  }, true);

  return { close: () => openRow && close(openRow) };
}
