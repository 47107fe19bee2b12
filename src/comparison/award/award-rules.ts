/**
 * The award rules, tried in this order: the first that applies to an RFQ decides its award. A new rule is a file of
 * its own (award-rule.ts says what it gives) and one line here, before the last (which applies always).
 */
import type { AwardContext, AwardRule } from './award-rule.ts';
import { lowestQualifiedPriceRule } from './award-rule-lowest.ts';
import { winningQuotationRule } from './award-rule-winning.ts';
import { UnexpectedError } from '../../core/index.ts';
import { Registry } from '../registry.ts';

export const awardRules = new Registry<AwardRule>('award rule', [winningQuotationRule, lowestQualifiedPriceRule]);

export function chooseAwardRule(ctx: AwardContext): AwardRule {
  const rule = awardRules.all.find((r) => r.appliesTo(ctx));
  if (!rule) throw new UnexpectedError('no award rule applies: the last one registered must apply always');
  return rule;
}
