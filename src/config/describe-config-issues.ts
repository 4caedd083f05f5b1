import { z } from 'zod';
import { closestMatch } from './closest-match.js';
import { formatJsonPath } from '../../protocol/index.js';
import { isIntegerSchema, knownKeys, schemaAt, unwrap } from './schema-at.js';

/** One problem found by the schema, in words: where it is and what to write instead. */
export interface ConfigIssueDescription {
  /** JSON path, e.g. `providers.local.baseUrl`. */
  path: string;
  /** What is wrong and the fix, e.g. `expected a whole number, got the string "ten"`. */
  message: string;
}

type Issue = z.core.$ZodIssue;
type Path = readonly PropertyKey[];

/**
 * Turns zod issues into one line each. zod's own messages say neither what was found nor
 * which keys were meant, so the input and schema are consulted: unknown keys get a
 * "did you mean" from the keys the schema allows at that spot.
 */
export function describeConfigIssues(
  issues: readonly Issue[],
  input: unknown,
  schema: z.ZodType,
): ConfigIssueDescription[] {
  return issues.flatMap((issue) => describeIssue(issue, [], input, schema));
}

/** `base` is where the issue's relative path starts; `baseSchema` validates the value there. */
function describeIssue(
  issue: Issue,
  base: Path,
  input: unknown,
  baseSchema: z.ZodType | undefined,
): ConfigIssueDescription[] {
  const path = [...base, ...issue.path];
  const value = valueAt(input, path);
  const at = (message: string, where: Path = path): ConfigIssueDescription[] => [
    { path: formatJsonPath(where), message },
  ];
  switch (issue.code) {
    case 'invalid_type': {
      const expected = isIntegerSchema(schemaAt(baseSchema, issue.path)) ? 'int' : issue.expected;
      if (value === undefined) return at(`required: expected ${typeName(expected)}`);
      return at(`expected ${typeName(expected)}, got ${describeValue(value)}${unquoteHint(expected, value)}`);
    }
    case 'too_small':
    case 'too_big':
      return at(describeBound(issue, value, isIntegerSchema(schemaAt(baseSchema, issue.path))));
    case 'invalid_value': {
      const options = issue.values.map((v) => JSON.stringify(v)).join(', ');
      const guess = typeof value === 'string' ? closestMatch(value, issue.values.map(String)) : undefined;
      const hint = guess === undefined ? '' : `; did you mean "${guess}"?`;
      return at(`expected one of ${options}, got ${describeValue(value)}${hint}`);
    }
    case 'unrecognized_keys': {
      const known = knownKeys(schemaAt(baseSchema, issue.path), value).filter((k) => !issue.keys.includes(k));
      return issue.keys.flatMap((key) => {
        const guess = closestMatch(key, known);
        const fix =
          guess !== undefined
            ? `did you mean "${guess}"?`
            : known.length > 0
              ? `remove it; the keys allowed here are ${known.join(', ')}`
              : 'remove it';
        return at(`unknown key; ${fix}`, [...path, key]);
      });
    }
    case 'invalid_key':
      return at(`invalid key; ${issue.issues.map((inner) => inner.message).join('; ')}`);
    case 'invalid_union':
      return describeUnion(issue, path, value, input, schemaAt(baseSchema, issue.path));
    case 'invalid_format':
      return at(`${issue.message}; got ${describeValue(value)}`);
    default:
      return at(issue.message);
  }
}

/**
 * zod reports every branch of a failed union. The branch the user was aiming at is the
 * one whose required keys are present (e.g. `command` for a local MCP server); when no
 * branch stands out, the union's own message lists the shapes it accepts.
 */
function describeUnion(
  issue: z.core.$ZodIssueInvalidUnion,
  path: Path,
  value: unknown,
  input: unknown,
  unionSchema: z.ZodType | undefined,
): ConfigIssueDescription[] {
  const options = unionSchema instanceof z.ZodUnion ? (unionSchema.options as z.ZodType[]) : [];
  const scored = issue.errors
    .map((branch, index) => ({
      branch,
      option: unwrap(options[index]),
      score: branch.reduce((sum, inner) => sum + branchCost(inner, value), 0),
    }))
    .sort((a, b) => a.score - b.score);
  const [best, second] = scored;
  if (best !== undefined && best.branch.length > 0 && (second === undefined || best.score < second.score)) {
    return best.branch.flatMap((inner) => describeIssue(inner, path, input, best.option));
  }
  return [{ path: formatJsonPath(path), message: `${issue.message}; got ${describeValue(value)}` }];
}

/** A missing required key is strong evidence the branch was not meant; anything else is a slip. */
function branchCost(issue: Issue, value: unknown): number {
  if (issue.code === 'invalid_type' && valueAt(value, issue.path) === undefined) return 100;
  if (issue.code === 'unrecognized_keys') return issue.keys.length;
  return 1;
}

function describeBound(
  issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig,
  value: unknown,
  integer: boolean,
): string {
  const small = issue.code === 'too_small';
  const limit = Number(issue.code === 'too_small' ? issue.minimum : issue.maximum);
  const bound = small ? 'at least' : 'at most';
  const got = describeValue(value);
  if (issue.origin === 'string') {
    return small && limit === 1 ? 'expected a non-empty string' : `expected ${bound} ${limit} characters, got ${got}`;
  }
  if (issue.origin === 'array') {
    return `expected ${bound} ${limit} items, got ${Array.isArray(value) ? value.length : got}`;
  }
  const op = small ? (issue.inclusive ? '>=' : '>') : issue.inclusive ? '<=' : '<';
  return `expected ${integer ? 'a whole number' : 'a number'} ${op} ${limit}, got ${got}`;
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  record: 'an object',
  array: 'an array',
  null: 'null',
};

function typeName(expected: string): string {
  return TYPE_NAMES[expected] ?? `a ${expected}`;
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') {
    return `the string ${JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value)}`;
  }
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return String(value);
}

/** `"maxTurns": "10"` is a common slip: say how to write it. */
function unquoteHint(expected: string, value: unknown): string {
  if (typeof value !== 'string') return '';
  const trimmed = value.trim();
  if ((expected === 'number' || expected === 'int') && trimmed !== '' && Number.isFinite(Number(trimmed))) {
    return `; write the number without quotes: ${Number(trimmed)}`;
  }
  if (expected === 'boolean' && (trimmed === 'true' || trimmed === 'false')) {
    return `; write it without quotes: ${trimmed}`;
  }
  return '';
}

function valueAt(input: unknown, path: Path): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
