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

// Pyodide 0.29 starts the wasm download early and, once it is compiling it, catches a
// failure of that download, warns on the console and never settles: the page would wait out
// boot.js's timeout. So the compile is watched here (and marked "wasm-compile" in the
// performance timeline), and a failed one fails loadPyodide, which PyScript reports as a
// runtime that did not load.
export const loadPyodide = (options = {}) => {
  const { instantiateStreaming } = WebAssembly;
  let fail;
  const failed = new Promise((_, reject) => { fail = reject; });
  WebAssembly.instantiateStreaming = (source, imports) => {
    performance.mark("wasm-compile");
    const compiling = instantiateStreaming.call(WebAssembly, source, imports);
    compiling.catch(fail);
    return compiling;
  };
  const loading = loadFullPyodide({
    ...options,
    indexURL: here("../pyodide/"),
    stdLibURL: here("./python_stdlib.zip"),
  });
  return Promise.race([loading, failed]).finally(() => {
    WebAssembly.instantiateStreaming = instantiateStreaming;
  });
};
