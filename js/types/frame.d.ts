/**
 * The frame key for one claim: the lowercased frame (subject and relation up
 * to the last linking token among of, is, in, to, by, as), or null when the
 * frame has fewer than three tokens or the value is not one to six tokens.
 * Case- and whitespace-insensitive.
 */
export function frameKeyOf(gist: string): string | null;
/** frameKeyOf over many claims in one call (a batch entry point), in order. */
export function frameKeysOf(gists: readonly string[]): (string | null)[];
