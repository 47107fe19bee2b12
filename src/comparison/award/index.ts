/**
 * The award rules: which supplier each line goes to, one rule per file, tried in the order of award-rules.ts
 * (docs/comparison.md).
 */
export { decideAward, type AwardContext, type AwardRule } from './award-rule.ts';
export { awardRules, chooseAwardRule } from './award-rules.ts';
