export const SCALE: 10000;
export const POS_ONE_FP: 10000;
export const NEG_ONE_FP: number;
export const DEFAULT_EWMA_ALPHA: 0.3;
export const DEFAULT_CONFIDENCE_FLOOR: 0.2;
export const DEFAULT_CONFIDENCE_DECAY_ALPHA: 0.1;
export const CONFIDENCE_COMMIT_DELTA: 0.005;
export function applyOutcomesFp(alphaFp: number, prevFp: number, signalsFp: readonly number[]): number;
export function decayConfidenceN(confidence: number, cycles: number, alpha?: number, floor?: number): number;
