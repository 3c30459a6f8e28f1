// A TypeScript consumer of the installed package: calls the API the way a user
// does and pins the result types, so `tsc --noEmit` fails if a declaration
// drifts. One section per module; a module that lands adds its section here
// (consumer.dom.ts adds the browser types; types.test.mjs separately requires a declaration for EVERY runtime export,
// through a generated file, and lists the exports this file does not call yet).
import { Option } from "effect";
import * as md from "memdomain";
import {
  init, initSync, isInitialized, type InitInput,
  // cosine
  cosine, cosineDistance, compensatedSum,
  // ranking
  RRF_K, MMR_LAMBDA, REINFORCE_COOLDOWN_S, rrfContribution,
  // rrf
  rrfScore, fuseArms, rankFused, fuseLateral, type ArmHit,
  // reinforce
  REINFORCE_SIGNALS, signalValue, shouldBumpAccess, partitionByCooldown, type ReinforceSignal,
  // decay
  SCALE, POS_ONE_FP, NEG_ONE_FP, DEFAULT_EWMA_ALPHA, DEFAULT_CONFIDENCE_FLOOR, DEFAULT_CONFIDENCE_DECAY_ALPHA,
  CONFIDENCE_COMMIT_DELTA, toFp, fromFp, ewmaStepFp, applyOutcomesFp, applyNegativeHitsFp, decayConfidenceFp,
  decayConfidenceNFp, decayConfidence, decayConfidenceN, isCommittableConfidenceChange,
} from "memdomain";

// ---- loading (no DOM-only names here: this file also compiles as a Node project, lib ES2022 + @types/node)
const sources: InitInput[] = [new URL("https://example.com/memdomain.wasm"), "memdomain.wasm", new Uint8Array(8)];
const ready: Promise<unknown> = init();
const readyFrom = init(sources[0]);
const exportsSync = initSync(new Uint8Array(8));
const exportsSync2 = initSync({ module: new ArrayBuffer(8) });
const loaded: boolean = isInitialized();

// ---- cosine
const sim: number = cosine([1, 0], new Float32Array([0.5, 0.5]));
const dist: number = cosineDistance(new Float64Array(2), [1, 1]);
const total: number = compensatedSum(new Set([0.1, 0.2]));

// ---- ranking
const k: 60 = RRF_K;
const lambda: 0.5 = MMR_LAMBDA;
const cooldown: 900 = REINFORCE_COOLDOWN_S;
const contribution: Option.Option<number> = rrfContribution(1, 0.5);
const contributionValue: number = Option.getOrElse(contribution, () => 0);

// ---- rrf
const hits: ArmHit[] = [{ path: "a", rank: 1 }];
const score: number = rrfScore(1, 1, RRF_K);
const fused: ReadonlyMap<string, number> = fuseArms([hits, [{ path: "b", rank: 1 }]], [1, 0.5]);
const ranked: readonly { path: string; score: number }[] = rankFused(fuseLateral(fused, ["c"], 0.3));
// @ts-expect-error a hit needs a rank
fuseArms([[{ path: "a" }]], [1]);

// ---- reinforce
const signals: readonly ReinforceSignal[] = REINFORCE_SIGNALS;
const value: number = signalValue("positive");
// @ts-expect-error only the three signals
signalValue("maybe");
const bump: boolean = shouldBumpAccess(undefined, new Date(), 60);
const parts: { readonly bumped: readonly string[]; readonly cooledDown: readonly string[] } =
  partitionByCooldown([{ path: "a", lastAccessedAt: new Date(0) }, { path: "b" }], new Date());

// ---- decay
const grid: number[] = [SCALE, POS_ONE_FP, NEG_ONE_FP, toFp(DEFAULT_EWMA_ALPHA), fromFp(5000),
  ewmaStepFp(3000, 0, POS_ONE_FP), applyOutcomesFp(3000, 0, [POS_ONE_FP, NEG_ONE_FP]),
  applyNegativeHitsFp(3000, 0, 2), decayConfidenceFp(1000, 8000, 2000), decayConfidenceNFp(1000, 8000, 2000, 3)];
const conf: number = decayConfidence(0.9) + decayConfidence(0.9, DEFAULT_CONFIDENCE_DECAY_ALPHA, DEFAULT_CONFIDENCE_FLOOR) +
  decayConfidenceN(0.9, 4);
const commit: boolean = isCommittableConfidenceChange(0.5, 0.5 + CONFIDENCE_COMMIT_DELTA);

// The namespace import has every export too.
const viaNamespace: typeof cosine = md.cosine;

export const used = [ready, readyFrom, exportsSync, exportsSync2, loaded, sim, dist, total, k, lambda, cooldown,
  contributionValue, score, ranked, signals, value, bump, parts, grid, conf, commit, viaNamespace];
