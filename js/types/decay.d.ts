export const SCALE: 10000;
export const POS_ONE_FP: 10000;
export const NEG_ONE_FP: number;
export const DEFAULT_EWMA_ALPHA: 0.3;
export const DEFAULT_CONFIDENCE_FLOOR: 0.2;
export const DEFAULT_CONFIDENCE_DECAY_ALPHA: 0.1;
export const CONFIDENCE_COMMIT_DELTA: 0.005;
export function toFp(value: number): number;
export function fromFp(valueFp: number): number;
export function ewmaStepFp(alphaFp: number, prevFp: number, signalFp: number): number;
export function applyOutcomesFp(alphaFp: number, prevFp: number, signalsFp: readonly number[]): number;
/** Throws RangeError when hits >= 2^32 (the reference's array length limit). */
export function applyNegativeHitsFp(alphaFp: number, prevFp: number, hits: number): number;
export function decayConfidenceFp(alphaFp: number, confFp: number, floorFp: number): number;
/** Throws RangeError for an endless count whose value never settles (the reference never returns). */
export function decayConfidenceNFp(alphaFp: number, confFp: number, floorFp: number, cycles: number): number;
export function decayConfidence(confidence: number, alpha?: number, floor?: number): number;
export function decayConfidenceN(confidence: number, cycles: number, alpha?: number, floor?: number): number;
export function isCommittableConfidenceChange(before: number, after: number): boolean;
