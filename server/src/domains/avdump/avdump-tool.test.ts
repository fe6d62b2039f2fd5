import { describe, expect, it } from 'vitest';
import { avdumpArguments, parseAVDumpLine } from './avdump-tool.js';

describe('AVDump output', () => {
  it('classifies every line format the tool prints', () => {
    expect(parseAVDumpLine(' 1/2 Files | 350/700 MB |  12.5 MB/s')).toEqual({ kind: 'progress', percent: 50 });
    expect(parseAVDumpLine('ACreq(Done: 2 Failed: 1 Pending: 3)')).toEqual({ kind: 'creqs', done: 2, failed: 1, pending: 3 });
    expect(parseAVDumpLine('ed2k://|file|a b.mkv|12|0123456789ABCDEF0123456789ABCDEF|/')).toEqual({
      kind: 'ed2k',
      link: 'ed2k://|file|a b.mkv|12|0123456789ABCDEF0123456789ABCDEF|/',
    });
    expect(parseAVDumpLine('Creq failed (WrongUsernameOrApiKey)').kind).toBe('invalid-credentials');
    expect(parseAVDumpLine('Creq failed (Timeout)').kind).toBe('timeout');
    expect(parseAVDumpLine('-------------').kind).toBe('ignored');
    expect(parseAVDumpLine('Total [#####     ] 50%').kind).toBe('ignored');
    expect(parseAVDumpLine('  ').kind).toBe('ignored');
    expect(parseAVDumpLine('Hashing started')).toEqual({ kind: 'message', text: 'Hashing started' });
  });

  it("passes Shoko's arguments in order, the file paths last and unquoted", () => {
    expect(
      avdumpArguments({
        username: 'u',
        apiKey: 'k',
        localPort: 0,
        creqTimeout: 30,
        creqMaxRetries: 5,
        concurrency: 2,
        files: ['/a b/c.mkv'],
      }),
    ).toEqual([
      '--Timeout=30:5',
      '--Concurrent=2',
      '--HideBuffers=true',
      '--HideFileProgress=true',
      '--DisableFileMove=true',
      '--DisableFileRename=true',
      '--Consumers=ED2K',
      '--Auth=u:k',
      '--LPort=0',
      '--PrintEd2kLink=true',
      '/a b/c.mkv',
    ]);
  });
});
