// Which token decided a merge veto. The core's mergeVetoReasons says which predicate
// fired (negation, numeric, variant) but not on which word. This helper re-derives
// the candidate tokens with the design's tokenizer (NFC, lower case, contractions
// expanded, [a-z0-9]+(?:\.[0-9]+)*) and keeps a token only when the core itself,
// shown that token alone against nothing, fires the same predicate: so which words
// count as markers is always the core's answer, never a copy of its word lists.

const CONTRACTIONS = [["isn't", "is not"], ["aren't", "are not"], ["wasn't", "was not"], ["weren't", "were not"],
  ["don't", "do not"], ["doesn't", "does not"], ["didn't", "did not"], ["won't", "will not"], ["can't", "can not"],
  ["cannot", "can not"], ["couldn't", "could not"], ["shouldn't", "should not"], ["wouldn't", "would not"],
  ["mustn't", "must not"], ["haven't", "have not"], ["hasn't", "has not"], ["hadn't", "had not"], ["n't", " not"]];

export function tokens(text) {
  let s = text.normalize("NFC").toLowerCase();
  for (const [a, b] of CONTRACTIONS) s = s.split(a).join(b);
  return new Set(s.match(/[a-z0-9]+(?:\.[0-9]+)*/g) ?? []);
}

const minus = (a, b) => [...a].filter((t) => !b.has(t));

/**
 * For each reason the core gives for the pair, the tokens that decide it, per side, with
 * where each sits: [{ reason, keep: [{ token, in: "gist" | "body" }], drop: [...] }].
 * `mergeVetoReasons` is the package's function.
 */
export function decidingTokens(mergeVetoReasons, keep, drop) {
  const reasons = mergeVetoReasons(keep, drop);
  const none = { gist: "", body: "" };
  const joined = (t) => `${t.gist}\n${t.body}`;
  return reasons.map((reason) => {
    // numeric reads the gists, negation and variant the joined texts
    const a = tokens(reason === "numeric" ? keep.gist : joined(keep));
    const b = tokens(reason === "numeric" ? drop.gist : joined(drop));
    const fires = (t) => mergeVetoReasons({ gist: t, body: "" }, none).includes(reason);
    const where = (text) => { const g = tokens(text.gist); return (t) => ({ token: t, in: g.has(t) ? "gist" : "body" }); };
    return { reason, keep: minus(a, b).filter(fires).map(where(keep)), drop: minus(b, a).filter(fires).map(where(drop)) };
  });
}
