/** Cosine at or below this never merges. */
export const NEAR_DUPLICATE_THRESHOLD: 0.92;
/** Merge decisions applied per sleep cycle. */
export const MAX_MERGE_PAIRS: 100;

/** The two texts the veto reads for one memory: its one-line claim and the whole article. */
export interface MergeText {
  readonly gist: string;
  readonly body: string;
}

/** One oriented candidate pair; keepPath is already the canonical. Texts are optional. */
export interface MergePair {
  readonly keepPath: string;
  readonly dropPath: string;
  readonly similarity: number;
  readonly keepText?: MergeText;
  readonly dropText?: MergeText;
}

/** A committed merge: fold dropPath into keepPath. */
export interface MergeDecision {
  readonly keepPath: string;
  readonly dropPath: string;
  readonly similarity: number;
}

/** Where a candidate pair stopped in mergeOutcomes, in the filter's own order. */
export type MergeStage = "cap" | "threshold" | "vetoed" | "self" | "role-guard" | "committed";

/** One candidate pair's fate: the input pair object itself and its stage. */
export interface MergeOutcome {
  readonly pair: MergePair;
  readonly stage: MergeStage;
}

/** The three divergence families, in the veto's own disjunction order. */
export type MergeVetoReason = "negation" | "numeric" | "variant";

export interface MergeOptions {
  readonly maxPairs?: number;
  readonly threshold?: number;
}

/** The claim, a newline, the article. */
export function joinMergeText(text: MergeText): string;
/** Exactly one side carries a negation marker. Symmetric. */
export function negationDivergent(textA: string, textB: string): boolean;
/** Either side has numeric tokens and the two sets differ. Symmetric. */
export function numericTokenDivergent(textA: string, textB: string): boolean;
/** The two texts carry different variant qualifiers. Symmetric. */
export function variantQualifierDivergent(textA: string, textB: string): boolean;
/** The predicates that fire: negation and variant over the joined text, numeric over the gist. */
export function mergeVetoReasons(textA: MergeText, textB: MergeText): readonly MergeVetoReason[];
/** True when any divergence predicate fires. */
export function mergeVetoed(textA: MergeText, textB: MergeText): boolean;
/** Classify every pair: cap, threshold, vetoed (both texts present), self, role-guard, committed. */
export function mergeOutcomes(pairs: readonly MergePair[], options?: MergeOptions): readonly MergeOutcome[];
/** The committed subset of mergeOutcomes, in input order, as decisions. */
export function mergeCandidates(pairs: readonly MergePair[], options?: MergeOptions): readonly MergeDecision[];
/** Connected components as sorted member lists, ordered by root (each component's smallest key). */
export function connectedComponents(edges: readonly (readonly [string, string])[]): readonly (readonly string[])[];
/** The members with the canonical removed, order preserved. */
export function excludeSelfSupersede(canonicalPath: string, memberPaths: readonly string[]): readonly string[];
