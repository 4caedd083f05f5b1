#!/bin/sh
# The `agentd` bin (copied to dist/bin/agentd by scripts/bundle-cli.mjs). `agentd serve`
# starts from a V8 startup snapshot of its serve command when one was built for the Node
# on PATH (bench/RESULTS.md, "Start-up: snapshot and a bridge that only connects"): a flag
# only a launcher can pass. Everything else, and serve whenever the snapshot cannot be used,
# runs dist/bin/agentd.cjs as `#!/usr/bin/env node` would. Node checks a snapshot's version
# only after exec, and a damaged one aborts it, so the snapshot is used only when the key
# written beside it at build time (this Node's path, inode and size, the blob's inode and
# size, this folder) is still true; nothing here reads stdin.

# The daemon's young generation at most 1 MiB per semi-space: its peak RSS after a
# 2,000-chunk reply 86 -> 79 MiB (75 without the snapshot), the relay and its start no
# slower (bench/RESULTS.md); the `acp` bridge would start ~10 ms later with it, so only
# serve gets it. The snapshot is built with the same flags (scripts/build-serve-snapshot.mjs
# reads this line): V8 refuses a snapshot built with others.
v8_flags=--max-semi-space-size=1

self=$0
while [ -L "$self" ]; do
  link=$(readlink "$self")
  case $link in
    /*) self=$link ;;
    *) self=${self%/*}/$link ;;
  esac
done
case $self in
  */*) dir=${self%/*} ;;
  *) dir=. ;;
esac

blob=$dir/serve-snapshot.blob
# Sets $key to what the build wrote to serve-snapshot.key when this Node and this blob are the
# ones it built together. One fork (ls, for the inodes and sizes) on the way to serve: each
# costs a millisecond or more of the editor's wait, so the rest uses the shell's builtins.
snapshot_key() {
  key=
  # The folder as the build saw it, symlinks resolved: a subshell only when the path as
  # reached is not already the one the key names (npm's bin symlink gives one with `..`).
  physical=$dir
  case $built in
    *" $dir") ;;
    *) physical=$(cd "$dir" && pwd -P) || return 1 ;;
  esac
  # The node a bare `node` runs: the first on PATH (an empty entry is the current folder).
  node=
  set -f
  saved_ifs=$IFS
  IFS=:
  for entry in $PATH; do
    if [ -x "${entry:-.}/node" ] && [ ! -d "${entry:-.}/node" ]; then
      node=${entry:-.}/node
      break
    fi
  done
  IFS=$saved_ifs
  set +f
  [ -n "$node" ] && [ -f "$physical/serve-snapshot.blob" ] || return 1
  stamps=
  while read -r inode mode links uid gid size rest; do stamps="$stamps$inode $size "; done <<STAMPS
$(ls -ilLn "$node" "$physical/serve-snapshot.blob" 2>/dev/null)
STAMPS
  key="$stamps$node $physical"
}

if [ -n "$AGENTD_PRINT_SNAPSHOT_KEY" ]; then
  built=
  snapshot_key || exit 1
  printf '%s\n' "$key"
  exit
fi

case $1 in
  serve | '' | -*)
    if [ -f "$blob" ] && [ -r "$blob" ] && [ -r "$dir/serve-snapshot.key" ]; then
      IFS= read -r built <"$dir/serve-snapshot.key"
      if snapshot_key && [ "$built" = "$key" ]; then
        # The node the key was checked against, not a second search of PATH.
        exec "$node" $v8_flags --snapshot-blob "$blob" "$dir/chunks/serve-snapshot.cjs" "$@"
      fi
      AGENTD_SNAPSHOT_SKIPPED="$blob was built for another Node or install"
    else
      AGENTD_SNAPSHOT_SKIPPED="no usable start-up snapshot at $blob"
    fi
    export AGENTD_SNAPSHOT_SKIPPED
    exec node $v8_flags "$dir/agentd.cjs" "$@"
    ;;
esac
exec node "$dir/agentd.cjs" "$@"
