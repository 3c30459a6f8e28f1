// memdomain/cache's own errors (exported by index.js): what is neither bad input (a TypeError or
// RangeError) nor the adapter's own error. adapters.js throws CacheBusyError too (an OPFS pool
// another tab holds), so they live here, below both.

/** The database changed under the cache: another writer, with options.onExternalChange "error" (or a write that kept losing). */
export class CacheChangedError extends Error {
  constructor(message, details = {}) {
    super(message);
    this.name = "CacheChangedError";
    this.code = "MEMDOMAIN_CACHE_EXTERNAL_CHANGE";
    Object.assign(this, details);
  }
}

/** SQLITE_BUSY past the busy timeout: another connection held the lock. The call is safe to retry. */
export class CacheBusyError extends Error {
  constructor(message, cause) {
    super(message);
    this.name = "CacheBusyError";
    this.code = "MEMDOMAIN_CACHE_BUSY";
    this.cause = cause;
  }
}
