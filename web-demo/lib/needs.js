// What each view needs from the package; a view whose functions are missing says so.
// Shared by the worker and the Chromium test, so both agree on what a build supports.
export const NEEDS = {
  fusion: ["fuseArms", "rankFused", "rrfScore", "rrfContribution", "fuseLateral", "cosine", "RRF_K"],
  lateral: ["pagerank"],
  mmr: ["applyMmr", "cosine"],
  graph: ["pagerank", "labelPropagation", "bridgeCounts"],
  retention: ["computeSignals", "compositeScore", "weightsFor", "bandFor", "scoreRetention", "profileWeightSum",
    "WEIGHT_PROFILES", "DEFAULT_WEIGHTS", "HALF_LIVES_DAYS", "DEFAULT_HALF_LIFE_DAYS", "KEEP_THRESHOLD", "EVICT_THRESHOLD", "SIGNAL_NAMES"],
  merge: ["topNeighborPairs", "mergeOutcomes", "mergeVetoReasons", "NEAR_DUPLICATE_THRESHOLD", "MAX_MERGE_PAIRS"],
  frame: ["frameKeyOf"],
};
