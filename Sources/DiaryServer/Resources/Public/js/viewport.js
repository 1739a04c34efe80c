// On phones the on-screen keyboard covers the bottom of the layout viewport.
// The editor is sized to the visual viewport (CSS --vv-height, --vv-top), so
// its body ends just above the keyboard, and the caret line is scrolled into
// what remains.

const vv = window.visualViewport;
let focused = null;

function fit() {
  const style = document.documentElement.style;
  style.setProperty('--vv-height', `${vv.height}px`);
  style.setProperty('--vv-top', `${vv.offsetTop}px`);
  if (focused && document.activeElement === focused) scrollToCaret(focused);
}

export function watchViewport() {
  if (!vv) return;
  vv.addEventListener('resize', fit);
  vv.addEventListener('scroll', fit);
  fit();
}

/** Keeps the caret of this textarea in view whenever the viewport changes. */
export function keepCaretVisible(area) {
  focused = area;
}

// Where the caret's line is inside the textarea: measured on an invisible copy
// of it, since a textarea does not tell.
function caretTop(area) {
  const style = getComputedStyle(area);
  const mirror = document.createElement('div');
  for (const p of ['font', 'lineHeight', 'letterSpacing', 'padding', 'wordBreak', 'overflowWrap', 'tabSize']) {
    mirror.style[p] = style[p];
  }
  mirror.className = 'caret-mirror';
  mirror.style.width = `${area.clientWidth}px`; // padding included, scrollbar not
  mirror.textContent = area.value.slice(0, area.selectionEnd);
  const marker = document.createElement('span');
  marker.textContent = '\u200b';
  mirror.append(marker);
  document.body.append(mirror);
  const top = marker.offsetTop;
  mirror.remove();
  return { top, line: parseFloat(style.lineHeight) || 24 };
}

function scrollToCaret(area) {
  const { top, line } = caretTop(area);
  if (top + line > area.scrollTop + area.clientHeight) area.scrollTop = top + 2 * line - area.clientHeight;
  else if (top < area.scrollTop) area.scrollTop = top - line;
}
