// Run tests/lite/check_in_pyodide.py inside real Pyodide under Node, offline.
// usage: PYODIDE_DIR=<folder with node_modules/pyodide> node run_in_pyodide.mjs CHECK.py INPUT.json WHEEL...
// The wheels are pure Python: they are unpacked into site-packages (what installing a pure
// wheel amounts to), so no network and no micropip are needed. Prints the check's JSON answer.
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";

const where = join(process.env.PYODIDE_DIR, "node_modules", "pyodide", "pyodide.mjs");
const { loadPyodide } = await import(pathToFileURL(where).href);

const [check, input, ...wheels] = process.argv.slice(2);
const pyodide = await loadPyodide();
pyodide.FS.mkdirTree("/check");
for (const wheel of wheels) {
  pyodide.FS.writeFile(`/check/${basename(wheel)}`, readFileSync(wheel));
}
pyodide.FS.writeFile("/check/input.json", readFileSync(input));
pyodide.FS.writeFile("/check/fake_xlwings.py", readFileSync(new URL("../fake_xlwings.py", import.meta.url)));
const answer = await pyodide.runPythonAsync(readFileSync(check, "utf8"));
console.log(answer);
