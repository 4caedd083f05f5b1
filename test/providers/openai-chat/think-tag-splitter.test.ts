import { describe, expect, it } from 'vitest';
import type { ChatContentPiece } from '../../../src/providers/openai-chat/read-openai-chat-content.js';
import { ThinkTagSplitter, type ReasoningTags } from '../../../src/providers/openai-chat/think-tag-splitter.js';

const think: ReasoningTags = { open: '<think>', close: '</think>', startsInside: false };
const opened: ReasoningTags = { ...think, startsInside: true };

/** The pieces of `chunks` fed in order, then end(), with neighbours of one kind merged. */
function split(tags: ReasoningTags, chunks: readonly string[]): ChatContentPiece[] {
  const splitter = new ThinkTagSplitter(tags);
  const pieces = [...chunks.flatMap((chunk) => splitter.push(chunk)), ...splitter.end()];
  const merged: ChatContentPiece[] = [];
  for (const piece of pieces) {
    expect(piece.text).not.toBe('');
    const last = merged.at(-1);
    if (last?.kind === piece.kind) merged[merged.length - 1] = { kind: piece.kind, text: last.text + piece.text };
    else merged.push(piece);
  }
  return merged;
}

/** Every way to cut `text` into three pieces (two cut points, empty pieces included), and one character at a time. */
function everyChunking(text: string): string[][] {
  const chunkings: string[][] = [[...text]];
  for (let a = 0; a <= text.length; a += 1) {
    for (let b = a; b <= text.length; b += 1) chunkings.push([text.slice(0, a), text.slice(a, b), text.slice(b)]);
  }
  return chunkings;
}

/** The expected pieces for `text` under every chunking (the non-streamed reading agrees with every streamed one). */
function expectAtEverySplit(tags: ReasoningTags, text: string, expected: ChatContentPiece[]): void {
  for (const chunks of everyChunking(text)) expect({ chunks, pieces: split(tags, chunks) }).toEqual({ chunks, pieces: expected });
}

const thinking = (text: string): ChatContentPiece => ({ kind: 'thinking', text });
const answer = (text: string): ChatContentPiece => ({ kind: 'text', text });

describe('ThinkTagSplitter', () => {
  it('reads a block at the start, whatever its position in the chunks, dropping the whitespace around the tags', () => {
    expectAtEverySplit(think, '<think>\nPlan it.\n</think>\n\nDone.', [thinking('Plan it.'), answer('Done.')]);
  });

  it('reads a block that starts after whitespace, and drops that whitespace', () => {
    expectAtEverySplit(think, '\n \n<think>a b</think>ok', [thinking('a b'), answer('ok')]);
  });

  it('keeps text around tags in the middle, and reads several blocks', () => {
    expectAtEverySplit(think, 'Hi <think>one</think> there<think> two </think>end', [
      answer('Hi '),
      thinking('one'),
      answer('there'),
      thinking('two'),
      answer('end'),
    ]);
  });

  it('passes a literal "<thi" that never becomes a tag as text, and a lone closing tag too', () => {
    expectAtEverySplit(think, 'a <thi b <think', [answer('a <thi b <think')]);
    expectAtEverySplit(think, 'x </think> y', [answer('x </think> y')]);
    expectAtEverySplit(think, '<thinking>no</thinking>', [answer('<thinking>no</thinking>')]);
  });

  it('flushes an unclosed block as thinking when the stream ends, including a partial closing tag', () => {
    expectAtEverySplit(think, '<think>\nstill going\n\n', [thinking('still going')]);
    expectAtEverySplit(think, 'Hm <think>cut </thi', [answer('Hm '), thinking('cut </thi')]);
  });

  it('yields nothing for an empty block (Qwen3 with thinking off)', () => {
    expectAtEverySplit(think, '<think>\n\n</think>\n\nHello.', [answer('Hello.')]);
  });

  it('starts inside a block when the template opened it, with or without the opening tag', () => {
    expectAtEverySplit(opened, 'Okay, 2+2.\n</think>\n\n4', [thinking('Okay, 2+2.'), answer('4')]);
    expectAtEverySplit(opened, '\n<think>\nOkay.\n</think>\n\n4', [thinking('Okay.'), answer('4')]);
    expectAtEverySplit(opened, '\nnever closed <thi', [thinking('never closed <thi')]);
  });

  it('reads custom tags', () => {
    const custom: ReasoningTags = { open: '[THINK]', close: '[/THINK]', startsInside: false };
    expectAtEverySplit(custom, '[THINK]why[/THINK]because <think>', [thinking('why'), answer('because <think>')]);
    expectAtEverySplit({ open: '<thought>', close: '</thought>', startsInside: false }, '<thought>x</thought>y', [thinking('x'), answer('y')]);
  });

  it('holds back only what could still start a tag', () => {
    const splitter = new ThinkTagSplitter(think);
    expect(splitter.push('Answer <th')).toEqual([answer('Answer ')]);
    expect(splitter.push('ey')).toEqual([answer('<they')]);
    expect(splitter.push('<think>Reason  ')).toEqual([thinking('Reason')]);
    expect(splitter.push(' more </')).toEqual([thinking('   more')]);
    expect(splitter.push('think>  ')).toEqual([]);
    expect(splitter.push(' after')).toEqual([answer('after')]);
    expect(splitter.end()).toEqual([]);
  });

  it('keeps leading whitespace of an answer that has no block', () => {
    expectAtEverySplit(think, '\n  code', [answer('\n  code')]);
  });
});

describe('ThinkTagSplitter when the server separates the reasoning', () => {
  it('does not start inside a block once reasoning came in a field of its own, before the answer', () => {
    const splitter = new ThinkTagSplitter(opened);
    splitter.reasoningSeparated();
    expect([...splitter.push('The answer.'), ...splitter.end()]).toEqual([answer('The answer.')]);
  });

  it('changes nothing once the answer has begun', () => {
    const splitter = new ThinkTagSplitter(opened);
    expect(splitter.push('still reasoning ')).toEqual([thinking('still reasoning')]);
    splitter.reasoningSeparated();
    expect([...splitter.push('</think>text'), ...splitter.end()]).toEqual([answer('text')]);
  });
});
