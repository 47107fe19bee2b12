/**
 * The offline `check --suggest`: a draft mapping profile read from a sample export, with what it could not settle
 * marked for review.
 */
export type { FollowedCategories } from './categories.ts';
export { runSuggest } from './command.ts';
