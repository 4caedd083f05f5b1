import { describe, expect, it } from 'vitest';
import { formatRelativeTime } from '../../../../clients/web/src/format/format-relative-time.js';
import { lineDiff } from '../../../../clients/web/src/format/line-diff.js';
import { projectName } from '../../../../clients/web/src/format/project-name.js';

describe('the page formatting', () => {
  it('says how long ago in words', () => {
    const now = Date.parse('2026-11-27T12:00:00Z');
    const ago = (seconds: number) => formatRelativeTime(new Date(now - seconds * 1000).toISOString(), now);
    expect([ago(-30), ago(10), ago(300), ago(3 * 3600), ago(26 * 3600), ago(5 * 86400)]).toEqual(['just now', 'just now', '5 min ago', '3 h ago', '1 day ago', '5 days ago']);
    expect(formatRelativeTime('not a time', now)).toBe('not a time');
  });

  it('names a project by its last folder', () => {
    expect([projectName('/home/ada/src/engine'), projectName('/home/ada/src/engine/'), projectName('C:\\work\\site'), projectName('/')]).toEqual(['engine', 'engine', 'site', '/']);
  });

  it('diffs lines: kept, removed before added, a new file all added', () => {
    expect(lineDiff('a\nb\nc', 'a\nx\nc\nd')).toEqual([
      { op: ' ', text: 'a' },
      { op: '-', text: 'b' },
      { op: '+', text: 'x' },
      { op: ' ', text: 'c' },
      { op: '+', text: 'd' },
    ]);
    expect(lineDiff(null, 'new\nfile')).toEqual([
      { op: '+', text: 'new' },
      { op: '+', text: 'file' },
    ]);
    expect(lineDiff('same', 'same')).toEqual([{ op: ' ', text: 'same' }]);
  });
});
