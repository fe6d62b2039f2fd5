import { describe, expect, it } from 'vitest';
import { deflateSync } from 'node:zlib';
import { decodeReply, encodeCommand, escapeValue, MalformedReplyError, parseReply, unescapeField } from './codec.js';

describe('AniDB UDP command encoding', () => {
  it('joins parameters in order, escapes values and leaves out empty ones', () => {
    expect(encodeCommand('PING')).toBe('PING');
    expect(encodeCommand('AUTH', { user: 'a&b', pass: 'x\ny', nat: true, comp: undefined, s: null })).toBe(
      'AUTH user=a&amp;b&pass=x<br />y&nat=1',
    );
    expect(escapeValue('one\r\ntwo & three')).toBe('one<br />two &amp; three');
  });
});

describe('AniDB UDP reply parsing', () => {
  it('splits code, text and unescaped data fields', () => {
    const reply = parseReply('230 ANIME\n1|Tom`s Show|line one<br />line two\n\n');
    expect(reply).toEqual({
      tag: null,
      code: 230,
      text: 'ANIME',
      lines: ['1|Tom`s Show|line one<br />line two'],
      rows: [['1', "Tom's Show", 'line one\nline two']],
    });
  });

  it('reads the tag in front of the code', () => {
    expect(parseReply('t12 200 aB3dE 127.0.0.1:4556 LOGIN ACCEPTED\n')).toMatchObject({
      tag: 't12',
      code: 200,
      text: 'aB3dE 127.0.0.1:4556 LOGIN ACCEPTED',
    });
    expect(parseReply('300 PONG\n')).toMatchObject({ tag: null, code: 300, text: 'PONG' });
  });

  it('rejects a reply without a code', () => {
    expect(() => parseReply('hello world\n')).toThrow(MalformedReplyError);
  });

  it('inflates compressed datagrams and honours byte-order marks', () => {
    const compressed = Buffer.concat([Buffer.from([0, 0]), deflateSync(Buffer.from('208 UPTIME\n5000\n'))]);
    expect(decodeReply(compressed)).toMatchObject({ code: 208, rows: [['5000']] });
    const utf16 = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('300 PONG\n', 'utf16le').swap16()]);
    expect(decodeReply(utf16)).toMatchObject({ code: 300, text: 'PONG' });
  });

  it('turns <br> variants back into newlines', () => {
    expect(unescapeField('a<br>b<br/>c<br />d')).toBe('a\nb\nc\nd');
  });
});
