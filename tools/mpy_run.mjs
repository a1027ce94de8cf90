// Run a Python script under a real MicroPython interpreter (the WebAssembly build from npm).
//
//   node tools/mpy_run.mjs [--tree DIR]... [--file PATH]... [--heap BYTES] SCRIPT [ARG]...
//
// Each --tree copies a folder of this project (for example rolit_core) and each --file one file
// into the interpreter's file system under the same relative path; the script then runs with
// that folder as its working directory, sys.path[0] = "" and sys.argv = [SCRIPT, ARG...].
// Exit status: 0 on success, 1 on any uncaught Python exception (traceback on stderr),
// 2 on bad usage. The package's own command line exits 0 on errors, hence this runner.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const pkg = path.join(root, "node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs");

const args = process.argv.slice(2);
const trees = [];
const files = [];
let heap = 64 * 1024 * 1024;
while (args.length && args[0].startsWith("--")) {
  const flag = args.shift();
  const value = args.shift();
  if (value === undefined) usage(`${flag} needs a value`);
  if (flag === "--tree") trees.push(value);
  else if (flag === "--file") files.push(value);
  else if (flag === "--heap") heap = parseInt(value, 10);
  else usage(`unknown option ${flag}`);
}
if (!args.length) usage("no script given");
const [script, ...scriptArgs] = args;

function usage(message) {
  process.stderr.write(`mpy_run: ${message}\n`);
  process.exit(2);
}

const { loadMicroPython } = await import(pkg);
const out = (text) => process.stdout.write(text);
const err = (text) => process.stderr.write(text);
const mp = await loadMicroPython({ stdout: out, stderr: err, linebuffer: false, heapsize: heap });

const work = "/work";
mp.FS.mkdirTree(work);
function copy(hostPath, relPath) {
  const stat = fs.statSync(hostPath);
  const target = path.posix.join(work, relPath);
  if (stat.isDirectory()) {
    mp.FS.mkdirTree(target);
    for (const name of fs.readdirSync(hostPath)) {
      if (name === "__pycache__") continue;
      copy(path.join(hostPath, name), path.posix.join(relPath, name));
    }
  } else {
    mp.FS.mkdirTree(path.posix.dirname(target));
    mp.FS.writeFile(target, fs.readFileSync(hostPath));
  }
}
for (const tree of trees) copy(path.resolve(tree), path.relative(process.cwd(), path.resolve(tree)) || ".");
for (const file of files) copy(path.resolve(file), path.relative(process.cwd(), path.resolve(file)));
const scriptName = path.basename(script);
mp.FS.writeFile(path.posix.join(work, scriptName), fs.readFileSync(script));

const setup = [
  "import os, sys",
  `os.chdir(${JSON.stringify(work)})`,
  "sys.path.insert(0, '')",
  `sys.argv[:] = ${JSON.stringify([scriptName, ...scriptArgs])}`,
].join("\n");
try {
  mp.runPython(setup);
  // exec with the file's own name, so that tracebacks point into the script.
  mp.runPython(`exec(compile(open(${JSON.stringify(scriptName)}).read(), ${JSON.stringify(scriptName)}, "exec"), {"__name__": "__main__"})`);
} catch (error) {
  err(String(error.message || error).trimEnd() + "\n");
  process.exit(1);
}
process.exit(0);
