// Build step, never shipped: runs Pyodide itself under Node to compile Python to .pyc.
//
// Usage: node precompile.mjs SPEC, a JSON file that build.py writes (host paths): the npm
// pyodide folder, PyScript's generated stdlib/pyscript.js, our package's name and files,
// the page scripts, and where the standard library and the two archives go. With
// "task": "kernel", it compiles the notebook kernel's full standard library and wheels
// instead (src/course_build/kernel.py writes that spec). No CPython
// 3.14 is needed: the bytecode comes from the very interpreter that will run it. The
// Python side is precompile.py beside this file.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const spec = JSON.parse(readFileSync(process.argv[2], "utf8"));
const here = dirname(fileURLToPath(import.meta.url));
const { loadPyodide } = await import(pathToFileURL(join(spec.pyodide, "pyodide.mjs")).href);

// A fixed hash seed makes set and frozenset constants marshal in the same order on every
// build, so unchanged sources give unchanged bytes and the site's content hash holds.
const pyodide = await loadPyodide({ indexURL: spec.pyodide, env: { PYTHONHASHSEED: "0" } });
// The whole host file system under /host, so host paths work with a prefix.
pyodide.FS.mkdirTree("/host");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: "/" }, "/host");

// PyScript writes its Python package from this same literal at every start; write it
// the same way, so the bytecode matches the source the browser will hold.
const writeTree = (base, tree) => {
  pyodide.FS.mkdirTree(base);
  for (const [name, value] of Object.entries(tree)) {
    if (typeof value === "string") pyodide.FS.writeFile(`${base}/${name}`, value);
    else writeTree(`${base}/${name}`, value);
  }
};
// The kernel's task (spec.task "kernel") needs no PyScript.
if (spec.pyscript) {
  const { default: pyscriptFiles } = await import(pathToFileURL(spec.pyscript).href);
  writeTree("/pyscript-src", pyscriptFiles);
}

pyodide.globals.set("spec_json", JSON.stringify(spec));
try {
  console.log(pyodide.runPython(readFileSync(join(here, "precompile.py"), "utf8")));
} catch (error) {
  // A Python traceback, without the minified runtime that Node would print around it.
  console.error(error.message);
  process.exit(1);
}
