import { describe, expect, it } from 'vitest';
import type { ShokoImportStatus } from '@shoko-ts/contract';
import { importView, isImportUnderway } from './importView';

const status = (State: ShokoImportStatus['State']): ShokoImportStatus => ({
  State,
  Step: null,
  Done: 0,
  Total: 100,
  Report: null,
  Error: null,
});

describe('importView', () => {
  it('waits for both answers', () => {
    expect(importView({ serverState: undefined, status: status('Idle'), statusFailed: false, following: false })).toBe('loading');
    expect(importView({ serverState: 'Waiting', status: undefined, statusFailed: false, following: false })).toBe('loading');
    expect(importView({ serverState: 'Waiting', status: undefined, statusFailed: true, following: false })).toBe('error');
  });

  it('shows the form on a fresh server, also while a check reports its progress as Running', () => {
    expect(importView({ serverState: 'Waiting', status: status('Idle'), statusFailed: false, following: false })).toBe('form');
    expect(importView({ serverState: 'Waiting', status: status('Running'), statusFailed: false, following: false })).toBe('form');
  });

  it('follows an import through running, failed and completed', () => {
    const follow = (s: ShokoImportStatus | null, serverState: 'Waiting' | 'Starting' | 'Started' = 'Waiting') =>
      importView({ serverState, status: s, statusFailed: false, following: true });
    expect(follow(status('Running'))).toBe('running');
    expect(follow(status('Failed'))).toBe('failed');
    expect(follow(status('Completed'), 'Starting')).toBe('completed');
    // The server started before the last status was seen: from then on the status is for admins.
    expect(follow(null, 'Started')).toBe('completed');
  });

  it('goes back to the form after a failure once the user tries again', () => {
    expect(importView({ serverState: 'Waiting', status: status('Failed'), statusFailed: false, following: false })).toBe('form');
  });

  it('is closed on a server that is set up already', () => {
    expect(importView({ serverState: 'Started', status: null, statusFailed: false, following: false })).toBe('closed');
    expect(importView({ serverState: 'Started', status: status('Idle'), statusFailed: false, following: false })).toBe('closed');
  });

  it('follows what it finds on load unless nothing ever ran', () => {
    expect(isImportUnderway(status('Idle'))).toBe(false);
    expect(isImportUnderway(null)).toBe(false);
    expect(isImportUnderway(status('Running'))).toBe(true);
    expect(isImportUnderway(status('Failed'))).toBe(true);
  });
});
