// Stands in for the `bindings` package in the start-up snapshot's bundle
// (scripts/build-serve-snapshot.mjs): better-sqlite3's JavaScript is evaluated into the
// snapshot, and its native addon, which a snapshot cannot hold, is loaded from beside the
// installed package when the first database opens. `bindings` itself finds a package's root
// from its caller's file, which in a bundle is the bundle: the root is better-sqlite3's here.
const { dirname, join } = require('node:path');
const { createRequire } = require('node:module');

module.exports = function loadSqliteAddon(name) {
  const root = dirname(globalThis.agentdSnapshotRequire.resolve('better-sqlite3/package.json'));
  try {
    return globalThis.agentdSnapshotRequire(join(root, 'build', 'Release', name));
  } catch (error) {
    if (error?.code !== 'MODULE_NOT_FOUND') throw error;
  }
  // Built elsewhere (a debug build, another layout): bindings' own search, from the package's root.
  return createRequire(join(root, 'package.json'))('bindings')({ bindings: name, module_root: root });
};
