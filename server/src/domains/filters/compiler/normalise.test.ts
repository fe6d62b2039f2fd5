import { describe, expect, it } from 'vitest';
import { FieldErrorCollector } from '../../../http/problem.js';
import { normaliseCondition, normaliseSorting } from './normalise.js';

const collect = () => new FieldErrorCollector();

describe('a condition from a request', () => {
  it('reads fields in any case, strips type suffixes and makes parameters text', () => {
    const errors = collect();
    expect(
      normaliseCondition({ type: 'NotExpression', LEFT: { Type: 'InYear', parameter: 2020 }, Right: null, SecondParameter: null }, errors),
    ).toEqual({ Type: 'Not', Left: { Type: 'InYear', Parameter: '2020' } });
    expect(errors.empty).toBe(true);
  });

  it('names the field of each problem: a missing type, an unknown type, a node that is no object, a bad pattern', () => {
    const errors = collect();
    expect(normaliseCondition({ Type: 'And', Left: {}, Right: 'x' }, errors)).toEqual({ Type: 'And' });
    normaliseCondition({ Type: 'Bogus' }, errors, 'Root');
    expect(normaliseCondition({ Type: 'AnyRegexMatches', Left: { Type: 'Names' }, Parameter: '(' }, errors)?.Parameter).toBe('(');
    expect(errors.errors).toMatchObject({
      'Expression.Left.Type': ['The Type field is required.'],
      'Expression.Right': ['A filter condition must be an object.'],
      Root: ["Unknown expression type 'Bogus'."],
    });
    expect(errors.errors['Expression.Parameter']).toHaveLength(1);
  });

  it('is null when absent', () => {
    expect(normaliseCondition(undefined, collect())).toBeNull();
  });
});

describe('a sorting chain from a request', () => {
  it('reads each criterion with IsInverted as a boolean', () => {
    const errors = collect();
    expect(normaliseSorting({ type: 'AirDate', isInverted: 'true', next: { Type: 'Name' } }, errors)).toEqual({
      Type: 'AirDate',
      IsInverted: true,
      Next: { Type: 'Name', IsInverted: false },
    });
    expect(errors.empty).toBe(true);
  });

  it('names an unknown criterion or one that is no object', () => {
    const errors = collect();
    expect(normaliseSorting({ Type: 'Name', Next: { Type: 'Bogus' } }, errors)).toEqual({ Type: 'Name', IsInverted: false });
    normaliseSorting([], errors);
    expect(errors.errors).toEqual({ 'Sorting.Next': ["Unknown sorting type 'Bogus'."], Sorting: ['Sorting must be an object.'] });
  });
});
