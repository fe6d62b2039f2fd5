import { describe, expect, it } from 'vitest';
import { FilterError } from './fragments.js';
import { addDays, child, dateParam, idParam, kindOf, numberParam, param, parseTimeSpanDays } from './parameters.js';

describe("a node's parameters", () => {
  it('reads Parameter and SecondParameter as text, and names the node when one is missing or empty', () => {
    expect(param({ Type: 'HasTag', Parameter: 'action' })).toBe('action');
    expect(param({ Type: 'InSeason', Parameter: '2020', SecondParameter: 'Fall' }, true)).toBe('Fall');
    expect(() => param({ Type: 'HasTag', Parameter: '' })).toThrow(new FilterError('HasTag needs a Parameter.'));
    expect(() => param({ Type: 'InSeason', Parameter: '2020' }, true)).toThrow('InSeason needs a SecondParameter.');
  });

  it('reads numbers, ids and dates, refusing what is not one', () => {
    expect(numberParam({ Type: 'InYear', Parameter: '2.5' })).toBe(2.5);
    expect(() => numberParam({ Type: 'InYear', Parameter: 'soon' })).toThrow("InYear: 'soon' is not a number.");
    expect(idParam({ Type: 'HasTagByID', Parameter: '12' })).toBe(12);
    expect(() => idParam({ Type: 'HasTagByID', Parameter: '1.5' })).toThrow("HasTagByID: '1.5' is not an ID.");
    expect(dateParam({ Type: 'DateEquals', Parameter: '2024-05-01T10:00:00' })).toBe('2024-05-01');
    expect(() => dateParam({ Type: 'DateEquals', Parameter: '01/05/2024' })).toThrow(
      "DateEquals: '01/05/2024' is not a date (yyyy-MM-dd).",
    );
  });

  it('reads a child node, naming the side that is missing', () => {
    expect(child({ Type: 'Not', Left: { Type: 'HasVideoFiles' } }, 'Left')).toEqual({ Type: 'HasVideoFiles' });
    expect(() => child({ Type: 'And', Left: { Type: 'HasVideoFiles' } }, 'Right')).toThrow('And needs Right.');
  });

  it("gives a node's catalogue type, with or without the Expression/Selector suffix", () => {
    expect(kindOf({ Type: 'SeriesCount' })).toBe('NumberSelector');
    expect(kindOf({ Type: 'HasTagExpression' })).toBe('Expression');
    expect(() => kindOf({ Type: 'Bogus' })).toThrow("Unknown expression type 'Bogus'.");
  });
});

describe('TimeSpans and days', () => {
  it('reads d.hh:mm:ss as whole days, rounded, negative with a minus', () => {
    expect(parseTimeSpanDays('7.00:00:00')).toBe(7);
    expect(parseTimeSpanDays('1.12:00:00')).toBe(2);
    expect(parseTimeSpanDays('11:00:00')).toBe(0);
    expect(parseTimeSpanDays('-3.00:00:00.0000000')).toBe(-3);
    expect(() => parseTimeSpanDays('a week')).toThrow("'a week' is not a TimeSpan (d:hh:mm:ss.fffffff).");
  });

  it('moves a date by days across months and years', () => {
    expect(addDays('2024-02-28', 2)).toBe('2024-03-01');
    expect(addDays('2025-01-01', -1)).toBe('2024-12-31');
  });
});
