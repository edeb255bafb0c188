// Run tests/lite/check_in_pyodide.py inside real Pyodide under Node, offline, as xlwings Lite
// runs main.py: with XLWINGS_ON_SERVER=true (without it xlwings' decorators do nothing) and
// the `noncommercial` licence key that xlwings' own CI uses for its remote engine.
// usage: PYODIDE_DIR=<folder with node_modules/pyodide> node run_in_pyodide.mjs CHECK.py INPUT.json MAIN.py WHEEL...
// The wheels are pure Python: they are unpacked into site-packages (what installing a pure
// wheel amounts to), so no network and no micropip are needed. Prints the check's JSON answer.
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";

const where = join(process.env.PYODIDE_DIR, "node_modules", "pyodide", "pyodide.mjs");
const { loadPyodide } = await import(pathToFileURL(where).href);

const [check, input, main, ...wheels] = process.argv.slice(2);
const pyodide = await loadPyodide({
  env: { XLWINGS_ON_SERVER: "true", XLWINGS_LICENSE_KEY: "noncommercial", HOME: "/home/pyodide" },
});
pyodide.FS.mkdirTree("/check");
for (const wheel of wheels) {
  pyodide.FS.writeFile(`/check/${basename(wheel)}`, readFileSync(wheel));
}
pyodide.FS.writeFile("/check/input.json", readFileSync(input));
pyodide.FS.writeFile("/check/main.py", readFileSync(main));
const answer = await pyodide.runPythonAsync(readFileSync(check, "utf8"));
console.log(answer);
