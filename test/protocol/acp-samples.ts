/*
 * Hand-made ACP messages for the conformance tests. `sessionUpdates` has one realistic
 * daemon-emitted update per SessionUpdate variant; `acpEdgeCases` are messages ACP's
 * schema accepts that stress openness: nulls for optional fields, unknown fields,
 * untyped stdio MCP servers, grouped selects, boolean options, open string enums.
 */

export const sessionUpdates: Record<string, Record<string, unknown>> = {
  user_message_chunk: { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'Fix the test' } },
  agent_message_chunk: {
    sessionUpdate: 'agent_message_chunk',
    content: { type: 'text', text: 'Looking at ' },
    messageId: 'msg_1',
  },
  agent_thought_chunk: { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'The parser…' } },
  tool_call: {
    sessionUpdate: 'tool_call',
    toolCallId: 'call_1',
    title: 'Edit src/parser.ts',
    name: 'edit',
    kind: 'edit',
    status: 'pending',
    locations: [{ path: '/home/ada/project/src/parser.ts', line: 12 }],
    rawInput: { path: 'src/parser.ts', old: 'a', new: 'b' },
  },
  tool_call_update: {
    sessionUpdate: 'tool_call_update',
    toolCallId: 'call_1',
    status: 'completed',
    content: [
      { type: 'diff', path: '/home/ada/project/src/parser.ts', oldText: 'a', newText: 'b' },
      { type: 'content', content: { type: 'text', text: 'Edited 1 line.' } },
    ],
    rawOutput: { ok: true },
  },
  plan: {
    sessionUpdate: 'plan',
    entries: [
      { content: 'Reproduce the failure', priority: 'high', status: 'completed' },
      { content: 'Fix the tokenizer', priority: 'medium', status: 'in_progress' },
    ],
  },
  available_commands_update: {
    sessionUpdate: 'available_commands_update',
    availableCommands: [
      { name: 'review', description: 'Review the diff', input: { hint: 'what to focus on' } },
      { name: 'compact', description: 'Compact the context', input: null },
    ],
  },
  current_mode_update: { sessionUpdate: 'current_mode_update', currentModeId: 'plan' },
  config_option_update: {
    sessionUpdate: 'config_option_update',
    configOptions: [
      {
        id: 'model',
        name: 'Model',
        category: 'model',
        type: 'select',
        currentValue: 'openai/gpt-5',
        options: [
          { group: 'openai', name: 'OpenAI', options: [{ value: 'openai/gpt-5', name: 'GPT-5' }] },
          { group: 'anthropic', name: 'Anthropic', options: [{ value: 'anthropic/claude-sonnet-4-5', name: 'Sonnet' }] },
        ],
      },
      { id: 'thinking', name: 'Extended thinking', type: 'boolean', currentValue: true },
    ],
  },
  session_info_update: { sessionUpdate: 'session_info_update', title: 'Fix the parser test', updatedAt: null },
  usage_update: { sessionUpdate: 'usage_update', used: 53000, size: 200000, cost: { amount: 0.42, currency: 'USD' } },
  notice: { sessionUpdate: 'notice', severity: 'warning', title: 'Retrying after rate limit', description: null },
  compaction_update: {
    sessionUpdate: 'compaction_update',
    compactionId: 'cmp_1',
    status: 'completed',
    summary: [{ type: 'text', text: 'Earlier: reproduced the failure.' }],
  },
  compaction_summary_chunk: {
    sessionUpdate: 'compaction_summary_chunk',
    compactionId: 'cmp_1',
    content: { type: 'text', text: 'Earlier: ' },
  },
};

/** [ACP `$defs` name, a value ACP accepts]. The zod schema of the same name must accept it too. */
export const acpEdgeCases: Array<[string, unknown]> = [
  [
    'InitializeRequest',
    {
      protocolVersion: 1,
      clientCapabilities: {
        fs: { readTextFile: true, writeTextFile: true, _meta: null },
        terminal: true,
        session: { compaction: {}, notices: {}, configOptions: { boolean: {} } },
        auth: { terminal: false },
        elicitation: { form: {}, url: null },
        futureCapability: { x: 1 },
      },
      clientInfo: null,
      _meta: null,
      futureField: 'ignored',
    },
  ],
  [
    'InitializeResponse',
    {
      protocolVersion: 1,
      agentCapabilities: {
        loadSession: true,
        sessionCapabilities: { list: null, delete: {}, resume: null, close: {}, additionalDirectories: null },
        auth: { logout: null },
      },
      authMethods: [
        { id: 'login', name: 'Log in', type: 'terminal', args: ['--login'], env: { A: 'b' } },
        { id: 'agent', name: 'Agent', description: null },
      ],
      agentInfo: { name: 'x', version: '1', title: null },
    },
  ],
  [
    'NewSessionRequest',
    {
      cwd: '/home/ada/project',
      additionalDirectories: ['/home/ada/lib'],
      mcpServers: [
        { name: 'fs', command: '/usr/bin/mcp-fs', args: [], env: [{ name: 'A', value: 'b' }] },
        { type: 'stdio', name: 'fs2', command: '/usr/bin/mcp-fs', args: ['--ro'], env: [] },
        { type: 'http', name: 'web', url: 'http://127.0.0.1:9000/mcp', headers: [{ name: 'X-Key', value: 'v' }] },
        { type: 'sse', name: 'old', url: 'http://127.0.0.1:9001/sse', headers: [] },
      ],
    },
  ],
  ['ResumeSessionRequest', { sessionId: 's', cwd: '/home/ada/project' }],
  ['ListSessionsRequest', { cwd: null, cursor: null }],
  [
    'ListSessionsResponse',
    { sessions: [{ sessionId: 's', cwd: '/p', title: null, updatedAt: null, additionalDirectories: [] }], nextCursor: null },
  ],
  [
    'NewSessionResponse',
    {
      sessionId: 's',
      modes: { currentModeId: 'build', availableModes: [{ id: 'build', name: 'Build', description: null }] },
      configOptions: [
        {
          id: 'model',
          name: 'Model',
          description: null,
          category: 'some_future_category',
          type: 'select',
          currentValue: 'a',
          options: [{ value: 'a', name: 'A', description: null }],
        },
      ],
    },
  ],
  ['LoadSessionResponse', { modes: null, configOptions: null, _meta: null }],
  ['SetSessionConfigOptionRequest', { sessionId: 's', configId: 'thinking', type: 'boolean', value: false }],
  ['SetSessionConfigOptionRequest', { sessionId: 's', configId: 'model', value: 'openai/gpt-5' }],
  [
    'PromptRequest',
    {
      sessionId: 's',
      prompt: [
        { type: 'text', text: 'see', annotations: { audience: ['user'], priority: 0.5, lastModified: null } },
        { type: 'image', data: 'aGk=', mimeType: 'image/png', uri: null },
        { type: 'audio', data: 'aGk=', mimeType: 'audio/wav', annotations: null },
        { type: 'resource_link', uri: 'file:///a.ts', name: 'a.ts', size: 12, title: null, description: 'file' },
        { type: 'resource', resource: { uri: 'file:///b.ts', text: 'x', mimeType: 'text/plain' } },
        { type: 'resource', resource: { uri: 'file:///c.bin', blob: 'AAE=' } },
      ],
      _meta: { someOtherExtension: { a: 1 } },
    },
  ],
  ['PromptResponse', { stopReason: 'max_turn_requests', _meta: { agentd: { anything: 1 } } }],
  [
    'RequestPermissionRequest',
    {
      sessionId: 's',
      toolCall: { toolCallId: 'c', title: null, kind: null, status: null, content: null, locations: null },
      options: [{ optionId: 'r', name: 'Reject always', kind: 'reject_always' }],
    },
  ],
  ['RequestPermissionResponse', { outcome: { outcome: 'cancelled' } }],
  ['CancelRequestNotification', { requestId: null }],
  ['CancelRequestNotification', { requestId: 'req-7' }],
  [
    'SessionNotification',
    { sessionId: 's', update: { sessionUpdate: 'notice', severity: 'custom_hint', title: 'x', _meta: null } },
  ],
  [
    'SessionNotification',
    { sessionId: 's', update: { sessionUpdate: 'compaction_update', compactionId: 'c', status: 'queued', summary: null } },
  ],
];
