// Appends to the serve bundle the code that, while the start-up snapshot is built, compiles
// the functions a start runs (listed by train-serve-snapshot.mjs in serve-snapshot.hot.json),
// so that their bytecode is in the snapshot and a start does not compile them on their first
// call (bench/RESULTS.md, "Compiled ahead"). V8 compiles a function only when it is first
// called; its `%CompileLazy` does it without a call, and is reachable from JavaScript only
// with --allow-natives-syntax, which the appended code turns on just to make three small
// functions and turns off again (a snapshot is refused under flags other than its build's).
// It reaches the functions the bundle names at its top level (declarations and classes,
// with their methods and accessors) and those Node's already loaded modules export (Node's
// own functions are in the snapshot's heap too); closures made inside other functions, and
// what a module keeps private, stay lazy.
import { readFileSync, writeFileSync } from 'node:fs';

const RESERVED = new Set(
  'await break case catch class const continue debugger default delete do else enum export extends false finally for function if implements import in instanceof interface let new null package private protected public return static super switch this throw true try typeof var void while with yield async get set of arguments eval undefined'.split(' '),
);

/** Appends the compile-ahead code to `bundle`, for the top-level names that may hold one of `hot`'s functions. */
export function appendCompileAhead(bundle, hot) {
  const text = readFileSync(bundle, 'utf8');
  const listed = new Set(hot);
  const names = new Set();
  // A declared function's offset in V8's log is that of its parameter list.
  for (const match of text.matchAll(/(?:^|[^.\w$])function\*?\s*([A-Za-z_$][\w$]*)\s*\(/g)) {
    if (listed.has(match.index + match[0].length - 1)) names.add(match[1]);
  }
  for (const match of text.matchAll(/(?:^|[^.\w$])(?:class\s+([A-Za-z_$][\w$]*)|([A-Za-z_$][\w$]*)\s*=\s*class\b)/g)) names.add(match[1] ?? match[2]);
  // A global's getter may load a module (fetch loads undici, which a snapshot cannot hold): only the bundle's own names.
  for (const name of [...names]) if (RESERVED.has(name) || Object.hasOwn(globalThis, name)) names.delete(name);
  const candidates = [...names].map((name) => `typeof ${name}=="function"&&${name}`).join(',');
  writeFileSync(bundle, `${text}\n;(${compileAhead.toString()})([${candidates}]);\n`);
}

/** Runs in the snapshot builder, in the bundle's scope (its source is appended there). */
function compileAhead(candidates) {
  // Only while the snapshot is built: the bundle run by plain node (the training) compiles nothing ahead.
  if (!require('node:v8').startupSnapshot.isBuildingSnapshot()) return;
  const { existsSync, readFileSync } = require('node:fs');
  const list = require('node:path').join(__dirname, '..', 'serve-snapshot.hot.json');
  if (!existsSync(list)) return;
  const listed = JSON.parse(readFileSync(list, 'utf8'));
  const hot = new Set(listed.bundle);
  const builtinHot = new Set(listed.builtins);
  const v8 = require('node:v8');
  v8.setFlagsFromString('--allow-natives-syntax');
  let natives;
  try {
    // Each its own Function, compiled whole now: an inner function would be compiled on its first call, with the flag off.
    natives = {
      position: new Function('f', 'return %FunctionGetScriptSourcePosition(f)'),
      script: new Function('f', 'return %FunctionGetScriptId(f)'),
      compile: new Function('f', '%CompileLazy(f)'),
    };
  } finally {
    v8.setFlagsFromString('--no-allow-natives-syntax');
  }
  const NATIVE_CODE = /\{\s*\[native code\]\s*\}$/;
  const bundleScript = natives.script(compileAhead);
  const seen = new Set();
  let compiled = 0;
  const consider = (value) => {
    if (typeof value !== 'function' || seen.has(value)) return;
    seen.add(value);
    // Node's built-ins written in C++ and bound functions have no script to compile (the natives would crash on them).
    if (NATIVE_CODE.test(Function.prototype.toString.call(value))) return;
    const ours = natives.script(value) === bundleScript;
    if (!(ours ? hot : builtinHot).has(natives.position(value))) return;
    natives.compile(value);
    if (ours) compiled++;
  };
  // A function or object, the functions among its own members, and their prototypes' methods
  // and accessors (no getter is called: one may load a module).
  const walked = new Set();
  const considerWithMembers = (value) => {
    if ((typeof value !== 'function' && (typeof value !== 'object' || value === null)) || walked.has(value)) return;
    walked.add(value);
    consider(value);
    for (const holder of [value, typeof value === 'function' ? value.prototype : undefined]) {
      if (holder === null || (typeof holder !== 'object' && typeof holder !== 'function')) continue;
      for (const key of Reflect.ownKeys(holder)) {
        const property = Object.getOwnPropertyDescriptor(holder, key);
        consider(property?.get);
        consider(property?.set);
        if (typeof property?.value === 'function') (holder === value ? considerWithMembers : consider)(property.value);
      }
    }
  };
  for (const candidate of candidates) considerWithMembers(candidate);
  // Node's own modules this build already loaded (loading another would only grow the snapshot), by what they export.
  for (const entry of process.moduleLoadList) {
    const name = /^NativeModule (?!internal\/)(\S+)$/.exec(entry)?.[1];
    if (name === undefined) continue;
    considerWithMembers(require(`node:${name}`));
  }
  // Far fewer means the list was made for another bundle: its offsets name nothing here.
  if (compiled < hot.size / 4) throw new Error(`compiled ahead ${compiled} of the ${hot.size} functions serve-snapshot.hot.json lists: it was made from another bundle`);
}
