import type { Stats } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { attachmentHeader, contentTypeOf, entityTagOf, ifRangeMatches, notModified, parseRange } from './file-stream.js';

const stat = (size: number, mtimeMs: number) => ({ size, mtimeMs }) as Stats;

describe('byte ranges', () => {
  it('reads one range in each form, clamped to the file', () => {
    expect(parseRange('bytes=0-9', 100)).toEqual({ kind: 'partial', start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ kind: 'partial', start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ kind: 'partial', start: 90, end: 99 });
    expect(parseRange('bytes=-1000', 100)).toEqual({ kind: 'partial', start: 0, end: 99 });
    expect(parseRange('bytes=50-5000', 100)).toEqual({ kind: 'partial', start: 50, end: 99 });
    expect(parseRange('bytes=99-99', 100)).toEqual({ kind: 'partial', start: 99, end: 99 });
  });

  it('is unsatisfiable past the end, for an empty suffix and for an empty file', () => {
    expect(parseRange('bytes=100-', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=100-200', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-0', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-5', 0)).toEqual({ kind: 'unsatisfiable' });
  });

  it('ignores what it does not serve: no header, other units, several ranges, malformed or reversed ranges', () => {
    for (const header of [undefined, 'items=0-1', 'bytes=0-1,3-4', 'bytes=', 'bytes=-', 'bytes=a-b', 'bytes=5-1', 'bytes=1-2-3', '0-1']) {
      expect(parseRange(header, 100), String(header)).toEqual({ kind: 'full' });
    }
  });
});

describe('validators', () => {
  const file = stat(1234, Date.UTC(2024, 0, 2, 3, 4, 5, 678));
  const lastModified = new Date(Date.UTC(2024, 0, 2, 3, 4, 5)).toUTCString();

  it('If-Range matches the strong entity tag or the exact Last-Modified date only', () => {
    expect(ifRangeMatches(entityTagOf(file), file)).toBe(true);
    expect(ifRangeMatches(`W/${entityTagOf(file)}`, file)).toBe(false);
    expect(ifRangeMatches('"4d2-0"', file)).toBe(false);
    expect(ifRangeMatches(lastModified, file)).toBe(true);
    expect(ifRangeMatches(new Date(Date.UTC(2024, 0, 2, 3, 4, 4)).toUTCString(), file)).toBe(false);
    expect(ifRangeMatches('not a date', file)).toBe(false);
    expect(entityTagOf(stat(1234, file.mtimeMs + 1000))).not.toBe(entityTagOf(file));
  });

  it('If-None-Match (weakly, or *) wins over If-Modified-Since', () => {
    expect(notModified({ 'if-none-match': `"x", W/${entityTagOf(file)}` }, file)).toBe(true);
    expect(notModified({ 'if-none-match': '*' }, file)).toBe(true);
    expect(notModified({ 'if-none-match': '"x"', 'if-modified-since': lastModified }, file)).toBe(false);
    expect(notModified({ 'if-modified-since': lastModified }, file)).toBe(true);
    expect(notModified({ 'if-modified-since': new Date(Date.UTC(2024, 0, 1)).toUTCString() }, file)).toBe(false);
    expect(notModified({}, file)).toBe(false);
  });
});

describe('names', () => {
  it('names downloads with an ASCII fallback and the UTF-8 name', () => {
    expect(attachmentHeader('Ep "1".mkv')).toBe(`attachment; filename="Ep _1_.mkv"; filename*=UTF-8''Ep%20%221%22.mkv`);
    expect(attachmentHeader('Ärger (1).mkv')).toBe(`attachment; filename="_rger (1).mkv"; filename*=UTF-8''%C3%84rger%20%281%29.mkv`);
  });

  it('types players and subtitle renderers expect, by extension in any case', () => {
    expect(['a.MKV', 'a.mp4', 'a.avi', 'a.webm', 'a.ass', 'a.ssa', 'a.srt', 'a.vtt', 'a.xyz', 'noext'].map(contentTypeOf)).toEqual([
      'video/x-matroska',
      'video/mp4',
      'video/x-msvideo',
      'video/webm',
      'text/x-ssa',
      'text/x-ssa',
      'application/x-subrip',
      'text/vtt',
      'application/octet-stream',
      'application/octet-stream',
    ]);
  });
});
