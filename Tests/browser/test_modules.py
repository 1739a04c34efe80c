"""The web app's modules: one per screen, and no import cycle (no module imports, even through
others, a module that imports it). Read from the files themselves; no browser needed."""

import re
from pathlib import Path

JS = Path(__file__).resolve().parents[2] / "Sources/DiaryServer/Resources/Public/js"

# `import … from './x.js'`, `import './x.js'`, `export … from './x.js'` and `import('./x.js')`:
# a module loaded on demand still runs the importer's importer, so it counts as an import too.
IMPORT = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(?\s*)['"]\./([\w-]+\.js)['"]""")


def imports():
    return {path.name: sorted(set(IMPORT.findall(path.read_text()))) for path in sorted(JS.glob("*.js"))}


def cycles(graph):
    """Every import cycle, each as the path of modules that closes it."""
    found, done = [], set()

    def visit(module, path):
        if module in path:
            found.append(path[path.index(module):] + [module])
            return
        if module in done:
            return
        for imported in graph.get(module, []):
            visit(imported, path + [module])
        done.add(module)

    for module in graph:
        visit(module, [])
    return found


def test_the_import_reader_sees_a_cycle():
    assert cycles({"a.js": ["b.js"], "b.js": ["c.js"], "c.js": ["a.js"]}) == [["a.js", "b.js", "c.js", "a.js"]]
    assert cycles({"a.js": ["b.js", "c.js"], "b.js": ["c.js"], "c.js": []}) == []


def test_every_import_names_a_module_that_exists():
    graph = imports()
    assert "main.js" in graph and graph["main.js"], "the imports were read"
    missing = {m: [i for i in found if i not in graph] for m, found in graph.items()}
    assert {m: i for m, i in missing.items() if i} == {}


def test_no_module_imports_main_and_there_is_no_import_cycle():
    graph = imports()
    assert [m for m, found in graph.items() if "main.js" in found] == []
    assert cycles(graph) == []
