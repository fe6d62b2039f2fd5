import type { FilterCondition } from '@shoko-ts/contract';
import { EXPRESSION_BY_ID, stripExpressionId } from '../filter-catalogue.js';
import { FilterError } from './fragments.js';

/** A node's `Parameter` (or `SecondParameter`) as text, or a FilterError naming the node. */
export function param(node: FilterCondition, second = false): string {
  const value = second ? node.SecondParameter : node.Parameter;
  if (value === undefined || value === null || String(value) === '')
    throw new FilterError(`${node.Type} needs a ${second ? 'SecondParameter' : 'Parameter'}.`);
  return String(value);
}

export function numberParam(node: FilterCondition): number {
  const value = Number(param(node));
  if (!Number.isFinite(value)) throw new FilterError(`${node.Type}: '${node.Parameter}' is not a number.`);
  return value;
}

export function idParam(node: FilterCondition): number {
  const value = Number(param(node));
  if (!Number.isInteger(value)) throw new FilterError(`${node.Type}: '${node.Parameter}' is not an ID.`);
  return value;
}

/** The Parameter's `yyyy-MM-dd` (a longer date-time is cut to its date). */
export function dateParam(node: FilterCondition): string {
  const value = param(node);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(Date.parse(value.slice(0, 10))))
    throw new FilterError(`${node.Type}: '${value}' is not a date (yyyy-MM-dd).`);
  return value.slice(0, 10);
}

export function child(node: FilterCondition, side: 'Left' | 'Right'): FilterCondition {
  const child = node[side];
  if (!child) throw new FilterError(`${node.Type} needs ${side}.`);
  return child;
}

/** What a node gives (the catalogue's type: Expression, NumberSelector, …). */
export function kindOf(node: FilterCondition): string {
  const spec = EXPRESSION_BY_ID.get(stripExpressionId(node.Type));
  if (!spec) throw new FilterError(`Unknown expression type '${node.Type}'.`);
  return spec.type;
}

/** A .NET TimeSpan text (`d.hh:mm:ss`, `hh:mm:ss`) as whole days, rounded. */
export function parseTimeSpanDays(text: string): number {
  const match = /^(-)?(?:(\d+)[.:])?(\d{1,2}):(\d{2}):(\d{2})(?:\.\d+)?$/.exec(text.trim());
  if (!match) throw new FilterError(`'${text}' is not a TimeSpan (d:hh:mm:ss.fffffff).`);
  const days = Number(match[2] ?? 0) + Number(match[3]) / 24 + Number(match[4]) / 1440;
  return Math.round(days) * (match[1] ? -1 : 1);
}

export const addDays = (date: string, days: number) => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};
