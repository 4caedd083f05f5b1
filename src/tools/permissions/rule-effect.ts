import type { PermissionRule } from '../../config/parse-permission-rule.js';

/** What a matching rule decides. */
export type RuleEffect = 'allow' | 'ask' | 'deny';

/** The rules that cover one tool, from every source, grouped by what they decide. */
export type RulesByEffect = Record<RuleEffect, PermissionRule[]>;
