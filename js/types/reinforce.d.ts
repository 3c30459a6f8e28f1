export const REINFORCE_SIGNALS: readonly ["positive", "negative", "neutral"];
export type ReinforceSignal = (typeof REINFORCE_SIGNALS)[number];
/** 1, -1 or 0. */
export function signalValue(signal: ReinforceSignal): number;
/** True when there is no stamp or it is at least cooldownSeconds old (>=). */
export function shouldBumpAccess(lastAccessedAt: Date | undefined, now: Date, cooldownSeconds?: number): boolean;
/** Split paths into bumped and cooledDown in one order-preserving pass. */
export function partitionByCooldown(
  entries: readonly { readonly path: string; readonly lastAccessedAt?: Date }[],
  now: Date,
  cooldownSeconds?: number,
): { readonly bumped: readonly string[]; readonly cooledDown: readonly string[] };
