import { readFileSync } from 'node:fs';

/**
 * The live heap a V8 heap snapshot holds (it is taken after a full GC): the sum of its
 * nodes' self sizes, and the part of it that is strings, in MiB. Reads the snapshot's
 * documented layout: `snapshot.meta.node_fields` names each node's fields in `nodes`.
 */
export function heapSnapshotSize(path: string): { liveMiB: number; stringsMiB: number } {
  const snapshot = JSON.parse(readFileSync(path, 'utf8')) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
    nodes: number[];
  };
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const sizeAt = fields.indexOf('self_size');
  let live = 0;
  let strings = 0;
  for (let i = 0; i < snapshot.nodes.length; i += width) {
    const size = snapshot.nodes[i + sizeAt]!;
    live += size;
    if (/string/.test(types[snapshot.nodes[i + typeAt]!]!)) strings += size;
  }
  return { liveMiB: live / 2 ** 20, stringsMiB: strings / 2 ** 20 };
}
