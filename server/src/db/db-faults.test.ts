import { describe, expect, it } from 'vitest';
import { dbFaultOf, isPgConnectionLoss, upkeepUnlessDbFault } from './db-faults.js';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('dbFaultOf', () => {
  it('tells a full disk, a lost connection and a lock timeout apart from other errors', () => {
    expect(dbFaultOf(withCode('SQLITE_FULL', 'database or disk is full'))).toBe('disk-full');
    expect(dbFaultOf(withCode('SQLITE_IOERR_WRITE'))).toBe('disk-full');
    expect(dbFaultOf(withCode('ENOSPC'))).toBe('disk-full');
    expect(dbFaultOf(withCode('53100'))).toBe('disk-full');
    expect(dbFaultOf(withCode('57P01', 'terminating connection due to administrator command'))).toBe('connection-lost');
    expect(dbFaultOf(new Error('Connection terminated unexpectedly'))).toBe('connection-lost');
    expect(dbFaultOf(withCode('ECONNREFUSED'))).toBe('connection-lost');
    expect(dbFaultOf(withCode('SQLITE_BUSY'))).toBe('busy');
    expect(dbFaultOf(withCode('55P03'))).toBe('busy');
    expect(dbFaultOf(withCode('SQLITE_CONSTRAINT_UNIQUE'))).toBeNull();
    expect(dbFaultOf(new TypeError('x is not a function'))).toBeNull();
    expect(dbFaultOf('text')).toBeNull();
  });

  it('looks through causes for a full disk, but a wrapped socket error is some HTTP client’s, not the database’s', () => {
    expect(dbFaultOf(new Error('saving failed', { cause: withCode('SQLITE_FULL') }))).toBe('disk-full');
    expect(dbFaultOf(new TypeError('fetch failed', { cause: withCode('ECONNREFUSED') }))).toBeNull();
  });
});

describe('isPgConnectionLoss', () => {
  it('is pg’s own word for a lost connection (a SQLSTATE or its message), not a socket error any client may throw', () => {
    expect(isPgConnectionLoss(withCode('57P01', 'terminating connection due to administrator command'))).toBe(true);
    expect(isPgConnectionLoss(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isPgConnectionLoss(new Error('saving failed', { cause: withCode('08006') }))).toBe(true);
    expect(isPgConnectionLoss(withCode('ECONNRESET'))).toBe(false);
    expect(isPgConnectionLoss(withCode('SQLITE_BUSY'))).toBe(false);
  });
});

describe('upkeepUnlessDbFault', () => {
  const outside = { isTransaction: false };
  it('answers the fallback when the database cannot take the upkeep now, and throws anything else', async () => {
    await expect(upkeepUnlessDbFault(outside, () => Promise.reject(withCode('SQLITE_FULL')), 0)).resolves.toBe(0);
    await expect(upkeepUnlessDbFault(outside, () => Promise.resolve(7), 0)).resolves.toBe(7);
    await expect(upkeepUnlessDbFault(outside, () => Promise.reject(new Error('bug')), 0)).rejects.toThrow('bug');
  });

  it('leaves a fault inside a transaction to its caller, whose transaction may be gone', async () => {
    await expect(upkeepUnlessDbFault({ isTransaction: true }, () => Promise.reject(withCode('SQLITE_FULL')), 0)).rejects.toThrow();
  });
});
