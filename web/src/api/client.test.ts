import { describe, expect, it } from 'vitest';
import { ApiError, buildUrl, formErrors } from './client';

describe('buildUrl', () => {
  it('prefixes API v3 paths and leaves absolute ones alone', () => {
    expect(buildUrl('File')).toBe('/api/v3/File');
    expect(buildUrl('/api/auth')).toBe('/api/auth');
  });

  it('repeats keys for array values and skips empty values', () => {
    const url = buildUrl('File', {
      pageSize: 200,
      include_only: ['Unrecognized', 'Ignored'],
      sortOrder: ['-1', '15'],
      include: undefined,
      search: null,
    });
    expect(url).toBe('/api/v3/File?pageSize=200&include_only=Unrecognized&include_only=Ignored&sortOrder=-1&sortOrder=15');
  });

  it('sends booleans as text and drops a query that ends up empty', () => {
    expect(buildUrl('File/1/Ignore', { value: false })).toBe('/api/v3/File/1/Ignore?value=false');
    expect(buildUrl('File', { include: [] })).toBe('/api/v3/File');
  });
});

describe('formErrors', () => {
  const problem = (errors: Record<string, string[]>) =>
    new ApiError(400, 'POST', '/api/v3/ImportFolder', { type: 't', title: 'One or more validation errors occurred.', status: 400, errors });

  it('maps validation messages to lower-cased fields', () => {
    const error = problem({
      Path: ['Path does not exist. Import Folders must be a location that exists on the server.'],
      Body: ['Unable to nest an import folder within another import folder.'],
    });
    expect(formErrors(error)).toEqual({
      fields: {
        path: ['Path does not exist. Import Folders must be a location that exists on the server.'],
        body: ['Unable to nest an import folder within another import folder.'],
      },
      general: null,
    });
  });

  it('merges fields that differ only in case or a JSON path prefix', () => {
    expect(formErrors(problem({ Name: ['a'], '$.name': ['b'] })).fields).toEqual({ name: ['a', 'b'] });
  });

  it('turns other failures into one general message', () => {
    expect(formErrors(new ApiError(500, 'PUT', '/api/v3/ImportFolder', 'Database is locked'))).toEqual({
      fields: {},
      general: 'Database is locked',
    });
    expect(formErrors(new ApiError(400, 'PUT', '/x', 'plain text'))).toEqual({ fields: {}, general: 'plain text' });
    expect(formErrors(null)).toEqual({ fields: {}, general: null });
  });
});
