import { describe, expect, it } from 'vitest';
import { checkDefaultModel } from '../../../src/cli/doctor/check-default-model.js';

describe('checkDefaultModel', () => {
  it('shows the model from config', () => {
    expect(checkDefaultModel({ model: 'anthropic/claude-sonnet-4-5' }, {})).toEqual({
      id: 'model',
      title: 'default model',
      status: 'ok',
      detail: 'anthropic/claude-sonnet-4-5',
    });
  });

  it('uses the model pickDefaultModel infers from OPENAI_BASE_URL and OPENAI_MODEL', () => {
    expect(checkDefaultModel({}, { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_MODEL: 'qwen3' }).detail).toBe('openai/qwen3');
  });

  it('warns when sessions must name a model themselves', () => {
    const check = checkDefaultModel({}, {});
    expect(check.status).toBe('warn');
    expect(check.fix).toContain('"model"');
  });
});
