// reinforce module: the access-bump cooldown and the reinforcement signals.
import { call, exportsOf, f64, out, u8 } from "./core.js";
import { arg, element, typeError } from "./validate.js";
import { ARGS } from "./args.js";
import { REINFORCE_COOLDOWN_S, REINFORCE_SIGNALS } from "./constants.js";

export { REINFORCE_SIGNALS };

/** The outcome-EWMA value of a reinforcement signal: 1, -1 or 0; undefined
 * for any other string, as the reference's lookup gives. */
export function signalValue(signal) {
  if (typeof signal !== "string") throw typeError("signalValue", "signal", '"positive", "negative" or "neutral"', signal);
  const i = REINFORCE_SIGNALS.indexOf(signal);
  return i < 0 ? undefined : [1, -1, 0][i];
}

/** The reinforcement cooldown predicate: no stamp, or a stamp at least cooldownSeconds old. */
export function shouldBumpAccess(lastAccessedAt, now, cooldownSeconds = REINFORCE_COOLDOWN_S) {
  const a = ARGS.shouldBumpAccess;
  const last = arg(a, 0, lastAccessedAt);
  const nowMs = arg(a, 1, now);
  const cd = arg(a, 2, cooldownSeconds);
  return exportsOf().md_should_bump_access(last !== undefined, last ?? 0, nowMs, cd) !== 0;
}

/** Split paths into those whose access stamp may be bumped now and those still cooling down. */
export function partitionByCooldown(entries, now, cooldownSeconds = REINFORCE_COOLDOWN_S) {
  const fn = "partitionByCooldown", a = ARGS.partitionByCooldown;
  arg(a, 0, entries);
  const nowMs = arg(a, 1, now);
  const cd = arg(a, 2, cooldownSeconds);
  const n = entries.length;
  const paths = new Array(n), has = new Uint8Array(n), last = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const [path, t] = element(a, 0, i, entries[i]);
    paths[i] = path;
    if (t !== undefined) { has[i] = 1; last[i] = t; }
  }
  const bump = out.u8(n);
  return call(fn, "md_partition_by_cooldown", [u8(has), f64(last), n, nowMs, cd, bump], (r) => {
      const b = r.view(bump), bumped = [], cooledDown = [];
      for (let i = 0; i < n; i++) (b[i] ? bumped : cooledDown).push(paths[i]);
      return { bumped, cooledDown };
    });
}
