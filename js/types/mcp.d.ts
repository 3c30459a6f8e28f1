// memdomain/mcp: an MCP memory server over memdomain/cache (docs/MCP.md). Needs the optional peers
// @modelcontextprotocol/sdk (^1.20.0) and zod.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { EmbedFunction, MemoryCache, OpenOptions } from "./cache.js";

/** The tools createMemoryServer registers, in order. */
export declare const TOOLS: readonly ["remember", "recall", "reinforce", "forget", "restore", "link", "sleep", "list", "stats"];
export type ToolName = (typeof TOOLS)[number];

/** serveStdio's and memdomain-mcp's database file when neither `db` nor MEMDOMAIN_DB names one. */
export declare const DEFAULT_DB: "./memdomain-memory.db";

/** The most characters of a memory's text recall returns per hit (the rest is cut, with "…"). */
export declare const RECALL_TEXT_CHARS: 2000;

export interface MemoryServerOptions {
  /** The server's name in initialize (default "memdomain"). */
  readonly name?: string;
  /** The server's version in initialize (default the package's). */
  readonly version?: string;
  /** The clock, in ms since the epoch: remember's createdAt, reinforce, forget, restore and sleep (default Date.now). */
  readonly now?: () => number;
  /** The type of a memory remembered without one (default "semantic"). */
  readonly type?: string;
  /** The most characters of a memory's text recall returns per hit (default RECALL_TEXT_CHARS). */
  readonly recallTextChars?: number;
  /** The instructions initialize gives the client (default: a one-paragraph summary of the tools). */
  readonly instructions?: string;
}

/**
 * A new McpServer with the memory tools registered over `cache` (an open memdomain/cache
 * MemoryCache): remember, recall, reinforce, forget (archive), restore, link, sleep, list, stats.
 * Connect it to a transport (server.connect(transport)); the cache stays the caller's to close.
 * A bad argument is a tool result with isError (the SDK's schema validation, or the cache's own
 * checks in the tool's argument names), never a thrown error.
 */
export declare function createMemoryServer(cache: MemoryCache, options?: MemoryServerOptions): McpServer;

export interface ServeStdioOptions extends MemoryServerOptions {
  /** The database file (default process.env.MEMDOMAIN_DB, else DEFAULT_DB); created when missing. */
  readonly db?: string;
  /** How the file opens (default node:sqlite where the runtime has it, else better-sqlite3). */
  readonly driver?: OpenOptions["driver"];
  /** Serve this open cache instead of opening `db` (then the caller closes it). */
  readonly cache?: MemoryCache;
  /** The cache's embedding hook (openMemoryCache({ embed })). */
  readonly embed?: EmbedFunction | null;
}

export interface StdioServing {
  readonly server: McpServer;
  readonly cache: MemoryCache;
  readonly transport: StdioServerTransport;
  /** Close the server and (unless it was given) the cache; also done when stdin ends, on SIGINT and SIGTERM, and then the process exits (code 0). */
  close(): Promise<void>;
}

/** Open the cache and serve it over stdio (StdioServerTransport): what the memdomain-mcp command runs. */
export declare function serveStdio(options?: ServeStdioOptions): Promise<StdioServing>;

/** What recall returns as structuredContent (and, in words, as its text content). */
export interface RecallResult {
  readonly hits: readonly {
    readonly path: string;
    readonly score: number;
    readonly gist: string;
    /** The memory's text, cut after recallTextChars characters. */
    readonly text: string;
    readonly type: string;
    readonly tags: readonly string[];
    readonly metadata: { readonly [key: string]: string | number | boolean };
    readonly createdAt: number;
  }[];
  readonly count: number;
}

/** What sleep returns as structuredContent. */
export interface SleepSummary {
  readonly memories: number;
  readonly bands: { readonly keep: number; readonly compress: number; readonly evict: number };
  readonly evict: readonly string[];
  readonly archived: readonly string[];
  readonly reprieved: readonly string[];
  readonly purged: number;
  readonly merged: readonly { readonly kept: string; readonly dropped: string }[];
  readonly conflicts: readonly { readonly newer: string; readonly older: string }[];
  readonly edges: { readonly similar: number; readonly nearDuplicate: number; readonly links: number };
  readonly communities: number;
  readonly decayed: number;
  readonly written: number;
}

/** What stats returns as structuredContent. */
export interface MemoryStats {
  readonly total: number;
  readonly live: number;
  readonly archived: number;
  readonly superseded: number;
  readonly links: number;
  readonly edges: number;
  readonly backend: string;
  readonly dim: number | null;
}
