import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const file = fileURLToPath(new URL('../../src/session/session.ts', import.meta.url));

/** The fields of `class Session` that code outside it can reach, with how. */
function reachableFields(): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visitClass = (node: ts.ClassDeclaration): void => {
    for (const member of node.members) {
      const isPrivate = (m: ts.Node): boolean =>
        (ts.canHaveModifiers(m) && ts.getModifiers(m)?.some((x) => x.kind === ts.SyntaxKind.PrivateKeyword || x.kind === ts.SyntaxKind.ProtectedKeyword)) === true;
      const isReadonly = (m: ts.Node): boolean => (ts.canHaveModifiers(m) && ts.getModifiers(m)?.some((x) => x.kind === ts.SyntaxKind.ReadonlyKeyword)) === true;
      if (ts.isPropertyDeclaration(member) && !isPrivate(member) && !ts.isPrivateIdentifier(member.name)) {
        out.push(`${member.name.getText()}${isReadonly(member) ? ' (readonly)' : ''}`);
      }
      if (ts.isConstructorDeclaration(member)) {
        for (const param of member.parameters) {
          if (ts.getModifiers(param)?.length && !isPrivate(param)) out.push(`${param.name.getText()}${isReadonly(param) ? ' (readonly)' : ''} (constructor)`);
        }
      }
    }
  };
  source.forEachChild((node) => {
    if (ts.isClassDeclaration(node) && node.name?.text === 'Session') visitClass(node);
  });
  return out;
}

describe('Session keeps its state to itself', () => {
  it('has no public fields; callers use its methods and getters', () => {
    // `services` (the project's shared toolbox as last taken up) is a getter now.
    expect(reachableFields()).toEqual([]);
  });
});
