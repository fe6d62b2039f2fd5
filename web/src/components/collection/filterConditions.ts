import type { FilterCondition, FilterExpressionHelp } from '@shoko-ts/contract';

/** One condition of the live filter sidebar: a catalogue criterion and the values picked for it. */
export interface LiveCondition {
  expression: string;
  name: string;
  /** Picked parameter values (tags, types, years, `year|season` pairs); empty for parameterless criteria. */
  values: string[];
  /** Tags and parameterless criteria: the condition is inverted (excluded). */
  exclude: boolean;
  /** How several values combine (contract §7.9: Or by default). */
  matchMode: 'Or' | 'And';
}

/** What kind of input a criterion needs. */
export function parameterKind(
  criterion: Pick<FilterExpressionHelp, 'Parameter' | 'PossibleParameters' | 'PossibleParameterPairs'>,
): 'none' | 'pairs' | 'choices' | 'text' {
  if (criterion.PossibleParameterPairs?.length) return 'pairs';
  if (!criterion.Parameter) return 'none';
  if (criterion.PossibleParameters?.length) return 'choices';
  return 'text';
}

const fold = (nodes: FilterCondition[], join: 'And' | 'Or'): FilterCondition | null =>
  nodes.length ? nodes.reduceRight((right, left) => ({ Type: join, Left: left, Right: right })) : null;

/** The expression tree of one sidebar condition (contract §7.9). */
export function conditionNode(condition: LiveCondition): FilterCondition | null {
  const isTag = condition.expression === 'HasTag' || condition.expression === 'HasCustomTag';
  if (!condition.values.length) {
    const node: FilterCondition = { Type: condition.expression };
    return condition.exclude ? { Type: 'Not', Left: node } : node;
  }
  const nodes = condition.values.map((value): FilterCondition => {
    if (condition.expression === 'InSeason') {
      const [year, season] = value.split('|');
      return { Type: 'InSeason', Parameter: year, SecondParameter: season };
    }
    const node: FilterCondition = { Type: condition.expression, Parameter: value };
    return isTag && condition.exclude ? { Type: 'Not', Left: node } : node;
  });
  return fold(nodes, isTag ? 'And' : condition.matchMode);
}

export function conditionsExpression(conditions: LiveCondition[]): FilterCondition | null {
  return fold(
    conditions.map(conditionNode).filter((n): n is FilterCondition => !!n),
    'And',
  );
}

export function describeCondition(condition: LiveCondition): string {
  const values = condition.values.map((v) => v.replace('|', ' '));
  const prefix = condition.exclude ? 'Not ' : '';
  return values.length
    ? `${prefix}${condition.name}: ${values.join(condition.matchMode === 'And' ? ' and ' : ' or ')}`
    : `${prefix}${condition.name}`;
}
