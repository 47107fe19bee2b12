/**
 * What `check --suggest` says about its choices: the evidence of each (with a confidence), printed on stderr, and the
 * review points, written as `# REVIEW:` comments in the YAML. Both keep the order in which the choices are made.
 */

export type Confidence = 'high' | 'medium' | 'low';

export interface Evidence {
  /** Profile setting, e.g. `fields.qty`, `numbers.decimal`. */
  what: string;
  choice: string;
  confidence: Confidence;
  why: string;
}

export interface ReviewPoint {
  /** Profile setting the point is about, e.g. `fields.qty`. */
  path: string;
  text: string;
}

/** The evidence and review points of one suggestion, collected as the choices are made. */
export class SuggestNotes {
  readonly evidence: Evidence[] = [];
  readonly reviews: ReviewPoint[] = [];
  /** Plain comments above a setting (what it does and why), for settings a reader would not guess the reason of. */
  readonly comments: ReviewPoint[] = [];

  say(what: string, choice: string, confidence: Confidence, why: string): void {
    this.evidence.push({ what, choice, confidence, why });
  }

  review(path: string, text: string): void {
    this.reviews.push({ path, text });
  }

  explain(path: string, text: string): void {
    this.comments.push({ path, text });
  }
}
