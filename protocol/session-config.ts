import { z } from 'zod';
import { ErrorCodes } from './jsonrpc.js';
import { defineMethod } from './method-descriptor.js';
import { MetaSchema, SessionIdSchema } from './meta.js';

/*
 * Session modes and config options (https://agentclientprotocol.com/protocol/v1/session-modes
 * and .../session-config-options). agentd exposes its agents (build, plan, explore, ...)
 * as modes and the model choice as a `model` select option.
 */

/** One mode the session can be in. */
export const SessionModeSchema = z
  .looseObject({
    id: z.string().describe('Mode id, e.g. `build`.'),
    name: z.string().describe('Display name.'),
    description: z.string().nullish().describe('What the mode does.'),
    _meta: MetaSchema,
  })
  .describe('A session mode (an agentd agent definition).');
export type SessionMode = z.infer<typeof SessionModeSchema>;

/** The current mode and the modes available. */
export const SessionModeStateSchema = z
  .looseObject({
    currentModeId: z.string().describe('Id of the active mode.'),
    availableModes: z.array(SessionModeSchema).describe('Every mode the session may switch to.'),
    _meta: MetaSchema,
  })
  .describe('Mode state of a session.');
export type SessionModeState = z.infer<typeof SessionModeStateSchema>;

/** One value of a select option. */
export const SessionConfigSelectOptionSchema = z
  .looseObject({
    value: z.string().describe('Value id, sent back in `session/set_config_option`.'),
    name: z.string().describe('Display name.'),
    description: z.string().nullish().describe('Details.'),
    _meta: MetaSchema,
  })
  .describe('A selectable value.');
export type SessionConfigSelectOption = z.infer<typeof SessionConfigSelectOptionSchema>;

/** A named group of select values (e.g. models of one provider). */
export const SessionConfigSelectGroupSchema = z
  .looseObject({
    group: z.string().describe('Group id.'),
    name: z.string().describe('Display name.'),
    options: z.array(SessionConfigSelectOptionSchema).describe('Values in this group.'),
    _meta: MetaSchema,
  })
  .describe('A group of selectable values.');
export type SessionConfigSelectGroup = z.infer<typeof SessionConfigSelectGroupSchema>;

const configOptionBase = {
  id: z.string().describe('Option id, e.g. `model`.'),
  name: z.string().describe('Display label.'),
  description: z.string().nullish().describe('Details for the user.'),
  category: z.string().nullish().describe('UX hint: `mode`, `model`, `model_config`, `thought_level` or another.'),
  _meta: MetaSchema,
};

/** A session setting and its current value; `type` selects select or boolean. */
export const SessionConfigOptionSchema = z
  .discriminatedUnion('type', [
    z
      .looseObject({
        ...configOptionBase,
        type: z.literal('select'),
        currentValue: z.string().describe('The selected value id.'),
        options: z
          .union([z.array(SessionConfigSelectOptionSchema), z.array(SessionConfigSelectGroupSchema)])
          .describe('Values, flat or grouped.'),
      })
      .describe('A single-choice option (dropdown).'),
    z
      .looseObject({
        ...configOptionBase,
        type: z.literal('boolean'),
        currentValue: z.boolean().describe('Current value.'),
      })
      .describe('An on/off option (needs the client capability `session.configOptions.boolean`).'),
  ])
  .describe('A session configuration option.');
export type SessionConfigOption = z.infer<typeof SessionConfigOptionSchema>;

/** `session/set_mode` params. */
export const SetSessionModeRequestSchema = z
  .looseObject({
    sessionId: SessionIdSchema,
    modeId: z.string().describe('One of `availableModes[].id`.'),
    _meta: MetaSchema,
  })
  .describe('Params of `session/set_mode`.');
export type SetSessionModeRequest = z.infer<typeof SetSessionModeRequestSchema>;

/** `session/set_mode` result. */
export const SetSessionModeResponseSchema = z
  .looseObject({ _meta: MetaSchema })
  .describe('Result of `session/set_mode`.');
export type SetSessionModeResponse = z.infer<typeof SetSessionModeResponseSchema>;

const setConfigBase = {
  sessionId: SessionIdSchema,
  configId: z.string().describe('The option\'s `id`.'),
  _meta: MetaSchema,
};

/** `session/set_config_option` params: a value id, or `{type: "boolean", value}` for toggles. */
export const SetSessionConfigOptionRequestSchema = z
  .union(
    [
      z.looseObject({ ...setConfigBase, type: z.literal('boolean'), value: z.boolean().describe('New value.') }),
      z.looseObject({ ...setConfigBase, value: z.string().describe('New value id.') }),
    ],
    { error: 'expected {sessionId, configId, value: "<value id>"} or {sessionId, configId, type: "boolean", value: true|false}' },
  )
  .describe('Params of `session/set_config_option`.');
export type SetSessionConfigOptionRequest = z.infer<typeof SetSessionConfigOptionRequestSchema>;

/** `session/set_config_option` result: every option with its value after the change. */
export const SetSessionConfigOptionResponseSchema = z
  .looseObject({
    configOptions: z.array(SessionConfigOptionSchema).describe('All options and their current values.'),
    _meta: MetaSchema,
  })
  .describe('Result of `session/set_config_option`.');
export type SetSessionConfigOptionResponse = z.infer<typeof SetSessionConfigOptionResponseSchema>;

export const setSessionModeMethod = defineMethod({
  method: 'session/set_mode',
  clientMethod: 'setMode',
  direction: 'client-to-daemon',
  kind: 'request',
  params: SetSessionModeRequestSchema,
  result: SetSessionModeResponseSchema,
  summary: 'Switch the session to another mode (agent definition, e.g. build, plan, explore).',
  acp: true,
  feature: 'modes',
  errors: [ErrorCodes.InvalidParams, ErrorCodes.ResourceNotFound],
  example: { params: { sessionId: 'ses_01J9Z', modeId: 'plan' }, result: {} },
});

export const setSessionConfigOptionMethod = defineMethod({
  method: 'session/set_config_option',
  clientMethod: 'setConfigOption',
  direction: 'client-to-daemon',
  kind: 'request',
  params: SetSessionConfigOptionRequestSchema,
  result: SetSessionConfigOptionResponseSchema,
  summary: 'Change a session setting such as the model; answers with every option\'s new value.',
  acp: true,
  feature: 'modes',
  errors: [ErrorCodes.InvalidParams, ErrorCodes.ResourceNotFound, ErrorCodes.ProviderNotConfigured],
  example: {
    params: { sessionId: 'ses_01J9Z', configId: 'model', value: 'anthropic/claude-sonnet-4-5' },
    result: {
      configOptions: [
        {
          id: 'model',
          name: 'Model',
          category: 'model',
          type: 'select',
          currentValue: 'anthropic/claude-sonnet-4-5',
          options: [
            { value: 'anthropic/claude-sonnet-4-5', name: 'Claude Sonnet 4.5' },
            { value: 'openai/gpt-5', name: 'GPT-5' },
          ],
        },
      ],
    },
  },
});
