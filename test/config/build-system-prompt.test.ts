import { describe, expect, it } from 'vitest';
import { BUILD_ROLE_PROMPT, buildSystemPrompt, TOOL_GUIDANCE } from '../../src/config/build-system-prompt.js';

const now = new Date(2025, 0, 15, 23, 30); // local time, late in the evening

describe('buildSystemPrompt', () => {
  it('orders role, tool guidance, skills and AGENTS.md before the cache boundary, session facts after', () => {
    const blocks = buildSystemPrompt({
      rolePrompt: 'ROLE',
      skills: [
        { name: 'pdf', description: 'Work with PDF files' },
        { name: 'release', description: 'Cut a release' },
      ],
      agentsFiles: [
        { path: '/home/u/.config/agentd/AGENTS.md', text: 'global rules' },
        { path: '/repo/AGENTS.md', text: 'repo rules' },
      ],
      cwd: '/repo/pkg',
      git: { branch: 'main', status: '3 modified, 1 untracked' },
      now,
      platform: 'linux',
    });
    expect(blocks).toEqual([
      { text: 'ROLE' },
      { text: TOOL_GUIDANCE },
      { text: 'Skills (load one with the skill tool when the task matches its description):\n- pdf: Work with PDF files\n- release: Cut a release' },
      { text: 'Instructions from /home/u/.config/agentd/AGENTS.md:\nglobal rules' },
      { text: 'Instructions from /repo/AGENTS.md:\nrepo rules', cacheBoundary: true },
      { text: 'Working directory: /repo/pkg\nDate: 2025-01-15\nPlatform: linux\nGit branch: main\nGit status: 3 modified, 1 untracked' },
    ]);
  });

  it('puts the boundary on the guidance when there are no skills or AGENTS.md, and omits git facts outside a repository', () => {
    const blocks = buildSystemPrompt({ rolePrompt: BUILD_ROLE_PROMPT, cwd: '/tmp/x', now, platform: 'darwin' });
    expect(blocks).toEqual([
      { text: BUILD_ROLE_PROMPT },
      { text: TOOL_GUIDANCE, cacheBoundary: true },
      { text: 'Working directory: /tmp/x\nDate: 2025-01-15\nPlatform: darwin' },
    ]);
    expect(blocks.filter((b) => b.cacheBoundary)).toHaveLength(1);
  });

  it('tells the model to prefer dedicated tools, read before editing and keep answers short', () => {
    expect(TOOL_GUIDANCE).toMatch(/dedicated tools/);
    expect(TOOL_GUIDANCE).toMatch(/Read a file before you edit it/);
    expect(TOOL_GUIDANCE).toMatch(/Keep answers short/);
  });
});
