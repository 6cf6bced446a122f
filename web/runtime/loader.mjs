// The module that each page's PyScript config names as its `interpreter`.
//
// PyScript 0.7.31 imports it in place of pyodide.mjs, reads `version` and calls
// `loadPyodide(options)`. Its config cannot pass `stdLibURL`, so this module adds it:
// the standard library trimmed to what the pages import and precompiled to .pyc by
// build.py, which spares the browser compiling it from source at every start.
// `indexURL` points back at the untouched runtime, whose full python_stdlib.zip stays
// there for anything else that loads Pyodide (a notebook, for one).
import { loadPyodide as loadFullPyodide, version } from "../pyodide/pyodide.mjs";

export { version };

const here = (path) => new URL(path, import.meta.url).href;

export const loadPyodide = (options = {}) =>
  loadFullPyodide({
    ...options,
    indexURL: here("../pyodide/"),
    stdLibURL: here("./python_stdlib.zip"),
  });
