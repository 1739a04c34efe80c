// Hash routes: #/ the list, #/new a new entry, #/entry/<id> an entry, #/trash.
// Each screen draws itself into #app and returns a function that tears it down.

const routes = [];
let teardown = null;

export function route(pattern, show) {
  routes.push([pattern, show]);
}

export function start() {
  addEventListener('hashchange', render);
  render();
}

/** Draws the current screen again, e.g. after an Undo changed its data. */
export const refresh = render;

function render() {
  teardown?.();
  teardown = null;
  const hash = location.hash || '#/';
  const root = document.getElementById('app');
  root.replaceChildren();
  scrollTo(0, 0);
  for (const [pattern, show] of routes) {
    const match = hash.match(pattern);
    if (match) {
      teardown = show(root, ...match.slice(1)) ?? null;
      return;
    }
  }
  location.replace('#/'); // an unknown route: go to the list
}
