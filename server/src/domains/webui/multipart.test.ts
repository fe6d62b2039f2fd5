import { describe, expect, it } from 'vitest';
import { MultipartError, parseMultipart } from './multipart.js';

const body = (boundary: string, parts: string[]) =>
  Buffer.from(`${parts.map((part) => `--${boundary}\r\n${part}\r\n`).join('')}--${boundary}--\r\n`);

describe('parseMultipart', () => {
  it('reads files and fields, keeping CRLF inside file data', () => {
    const form = parseMultipart(
      body('XyZ', [
        'Content-Disposition: form-data; name="file"; filename="My \\"Theme\\".css"\r\nContent-Type: text/css\r\n\r\na{}\r\nb{}',
        'Content-Disposition: form-data; name="preview"\r\n\r\ntrue',
      ]),
      'multipart/form-data; boundary="XyZ"',
    );
    expect(form.file('file')).toMatchObject({ fileName: 'My "Theme".css', contentType: 'text/css' });
    expect(form.file('file')!.data.toString()).toBe('a{}\r\nb{}');
    expect(form.field('Preview')).toBe('true');
    expect(form.file('preview')).toBeUndefined();
  });

  it('decodes RFC 5987 file names', () => {
    const form = parseMultipart(
      body('b', ["Content-Disposition: form-data; name=file; filename*=utf-8''th%C3%A8me.json\r\n\r\n{}"]),
      'multipart/form-data; boundary=b',
    );
    expect(form.file('file')?.fileName).toBe('thème.json');
  });

  it('refuses bodies without a boundary or with a cut-off part', () => {
    expect(() => parseMultipart(Buffer.from('x'), 'multipart/form-data')).toThrow(MultipartError);
    expect(() =>
      parseMultipart(Buffer.from('--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nno end'), 'multipart/form-data; boundary=b'),
    ).toThrow(MultipartError);
  });
});
