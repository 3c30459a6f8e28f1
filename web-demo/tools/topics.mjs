// The vocabulary the corpus generator draws from: topics, their sub-topics, and the
// claims memories make. A claim's {n} is a number slot, {v} a variant-qualifier slot
// (empty in the plain claim, e.g. " Pro" in its variant). Claims carry no negation
// marker, so a negated variant differs from its original by exactly one marker.

export const TOPICS = [
  {
    id: "sqlite", label: "SQLite", sub: ["wal", "locking", "vacuum", "fts"],
    keywords: [["wal", "checkpoint", "journal", "reader"], ["busy", "lock", "writer", "timeout"], ["vacuum", "disk", "freelist"], ["fts5", "bm25", "search", "tokenizer"]],
    claims: [
      [0, "SQLite WAL mode lets readers proceed while one writer appends"],
      [1, "The busy timeout is set to {n} ms before the first write"],
      [0, "A long read transaction starves the WAL checkpoint"],
      [2, "Running VACUUM during business hours is safe for the index database"],
      [3, "FTS5 bm25 ranks shorter documents higher for the same term count"],
      [2, "VACUUM rewrites the whole database file and needs free disk equal to its size"],
    ],
    details: ["The WAL file grows until a checkpoint runs.", "Readers see a snapshot taken at their first read.", "The index database lives on the local SSD.", "SQLITE_BUSY surfaced in the ingest worker logs."],
  },
  {
    id: "retry", label: "Retries", sub: ["backoff", "idempotency", "timeouts", "circuit"],
    keywords: [["retry", "backoff", "jitter", "exponential"], ["idempotent", "idempotency", "duplicate"], ["timeout", "deadline", "gateway"], ["circuit", "breaker", "trip"]],
    claims: [
      [0, "The upload client must retry {n} times with exponential backoff"],
      [1, "Retries are safe only for idempotent requests"],
      [2, "The gateway timeout is {n} seconds"],
      [3, "The circuit breaker opens after {n} consecutive errors"],
      [0, "Jitter spreads retry storms across the backoff window"],
    ],
    details: ["The upload client talks to the storage gateway.", "Backoff doubles on each attempt up to a cap.", "Idempotency keys are stored for a day.", "The breaker half-opens after a cool-down."],
  },
  {
    id: "deploy", label: "Deploys", sub: ["cutover", "canary", "rollback", "drain"],
    keywords: [["cutover", "migration", "switch"], ["canary", "traffic", "percent"], ["rollback", "image", "tag"], ["drain", "draining", "connections", "pods"]],
    claims: [
      [0, "Run the database cutover during business hours"],
      [1, "Canary traffic starts at {n} percent of requests"],
      [2, "Rollback is a redeploy of the previous image tag"],
      [3, "Connection draining completes before the old pods stop"],
      [1, "Feature flags decouple deploy from release"],
    ],
    details: ["The cutover runbook lives in the ops wiki.", "Canary metrics are compared against the baseline fleet.", "Image tags are immutable in the registry.", "The load balancer stops routing to a draining pod."],
  },
  {
    id: "auth", label: "Auth", sub: ["tokens", "oauth", "sessions", "keys"],
    keywords: [["token", "access", "expiry", "jwt"], ["oauth", "pkce", "client"], ["session", "cookie", "localstorage"], ["signing", "key", "rotation"]],
    claims: [
      [0, "Access tokens expire after {n} minutes"],
      [0, "Refresh tokens are rotated on every use"],
      [2, "Storing session tokens in localStorage is safe"],
      [3, "The signing key is rotated every {n} days"],
      [1, "PKCE is required for public OAuth clients"],
    ],
    details: ["The auth service issues JWTs signed with RS256.", "Cookies are set with SameSite=Lax.", "The key set is published at a well-known URL.", "Token introspection is cached briefly."],
  },
  {
    id: "hardware", label: "Build machines", sub: ["laptops", "gpu", "builds", "thermal"],
    keywords: [["laptop", "m1", "macbook"], ["gpu", "cuda", "vram"], ["build", "compile", "wasm"], ["thermal", "throttle", "fan"]],
    claims: [
      [0, "The M1{v} laptop builds the wasm target in {n} minutes"],
      [1, "The RTX 4090{v} card fits the embedding model in memory"],
      [2, "Clang 19{v} produces the smallest wasm module"],
      [3, "The M2{v} laptop throttles after ten minutes of full load"],
      [2, "The build cache is shared across branches"],
    ],
    details: ["Build times were measured on a cold cache.", "The GPU box runs the nightly embedding job.", "wasm-opt runs after every link.", "Fan curves were left at the vendor default."],
  },
  {
    id: "docker", label: "Containers", sub: ["networking", "images", "volumes", "compose"],
    keywords: [["network", "bridge", "port", "docker"], ["image", "layer", "dockerfile"], ["volume", "mount", "bind"], ["compose", "service", "healthcheck"]],
    claims: [
      [0, "Containers on the default bridge resolve each other by IP only"],
      [1, "Multi-stage builds keep the runtime image under {n} MB"],
      [2, "Bind mounts inherit the host file permissions"],
      [3, "Compose starts services in dependency order when a healthcheck is defined"],
      [1, "Pinning base images by digest makes builds reproducible"],
    ],
    details: ["The CI runner uses Docker 26.", "Image layers are cached in the registry mirror.", "The dev stack is defined in compose.yaml.", "Volumes survive a container rebuild."],
  },
  {
    id: "k8s", label: "Kubernetes", sub: ["probes", "resources", "scheduling", "ingress"],
    keywords: [["probe", "liveness", "readiness"], ["memory", "cpu", "limits", "requests"], ["node", "affinity", "taint", "scheduler"], ["ingress", "tls", "host"]],
    claims: [
      [0, "The readiness probe waits {n} seconds before the first check"],
      [1, "Memory limits equal to requests keep pods in the guaranteed class"],
      [2, "GPU nodes carry a taint so only inference pods land there"],
      [3, "The ingress terminates TLS and forwards plain HTTP to the service"],
      [0, "A liveness probe that hits the database restarts healthy pods under load"],
    ],
    details: ["The cluster runs three node pools.", "Probe settings live in the Helm chart.", "The scheduler spreads replicas across zones.", "Certificates are issued by cert-manager."],
  },
  {
    id: "postgres", label: "Postgres", sub: ["autovacuum", "indexes", "replication", "connections"],
    keywords: [["autovacuum", "bloat", "dead"], ["index", "btree", "gin"], ["replica", "replication", "lag"], ["connection", "pool", "pgbouncer"]],
    claims: [
      [0, "Autovacuum keeps the orders table bloat under {n} percent"],
      [1, "A GIN index speeds up the tag search queries"],
      [2, "Replication lag stays under {n} seconds at peak"],
      [3, "PgBouncer runs in transaction pooling mode"],
      [1, "Partial indexes cover the active rows only"],
    ],
    details: ["The primary runs on a dedicated host.", "pg_stat_statements is enabled.", "The replica serves the reporting queries.", "Prepared statements need session pooling."],
  },
  {
    id: "git", label: "Git", sub: ["rebase", "hooks", "lfs", "bisect"],
    keywords: [["rebase", "merge", "branch"], ["hook", "pre-commit", "lint"], ["lfs", "large", "binary"], ["bisect", "regression", "commit"]],
    claims: [
      [0, "Rebase feature branches onto main before opening a pull request"],
      [1, "The pre-commit hook runs the formatter on staged files"],
      [2, "Large model files are stored with Git LFS"],
      [3, "git bisect found the regression in {n} steps"],
      [0, "Force pushes to main are blocked by branch protection"],
    ],
    details: ["The repository uses squash merges.", "Hooks are installed by the setup script.", "LFS objects live in the artifact store.", "Bisect runs the golden suite at each step."],
  },
  {
    id: "python", label: "Python", sub: ["packaging", "venv", "typing", "asyncio"],
    keywords: [["package", "wheel", "pyproject"], ["venv", "virtualenv", "interpreter"], ["typing", "mypy", "annotations"], ["asyncio", "event", "loop", "await"]],
    claims: [
      [0, "The package builds a pure wheel from pyproject.toml"],
      [1, "Debian python3 imports networkx from apt packages"],
      [2, "Mypy strict mode is enabled for the core package"],
      [3, "Blocking calls inside the event loop stall every coroutine"],
      [0, "Version {n} of the wheel dropped the C extension"],
    ],
    details: ["The interpreter on PATH is a pyenv build.", "Wheels are published from CI.", "Type stubs ship with the package.", "The event loop runs one thread."],
  },
  {
    id: "rust", label: "Rust", sub: ["borrowck", "async", "cargo", "unsafe"],
    keywords: [["borrow", "lifetime", "ownership"], ["tokio", "async", "future"], ["cargo", "crate", "workspace"], ["unsafe", "ffi", "pointer"]],
    claims: [
      [0, "Splitting the struct lets the borrow checker accept both mutable fields"],
      [1, "Tokio tasks must be Send to move across worker threads"],
      [2, "The cargo workspace shares one target directory"],
      [3, "Every unsafe block documents its safety invariant"],
      [2, "Release builds use {n} codegen units"],
    ],
    details: ["The crate targets stable Rust.", "Clippy runs in CI with warnings as errors.", "The FFI layer wraps the C library.", "Async traits are boxed for now."],
  },
  {
    id: "css", label: "CSS layout", sub: ["grid", "flex", "fonts", "theme"],
    keywords: [["grid", "columns", "template"], ["flex", "flexbox", "wrap"], ["font", "typeface", "fallback"], ["dark", "theme", "color"]],
    claims: [
      [0, "The dashboard grid collapses to one column below {n} pixels"],
      [1, "Flex items shrink below their content size unless min-width is zero"],
      [2, "The system font stack avoids a web font download"],
      [3, "Dark mode follows the prefers-color-scheme media query"],
      [0, "Grid areas keep the sidebar beside the content"],
    ],
    details: ["The page must work at 1280 by 800.", "Narrow screens stack the panels.", "Colours come from CSS custom properties.", "Labels sit above their controls."],
  },
  {
    id: "dns", label: "DNS", sub: ["ttl", "resolvers", "records", "split"],
    keywords: [["ttl", "cache", "propagation"], ["resolver", "recursive", "unbound"], ["record", "cname", "aaaa"], ["split", "horizon", "internal"]],
    claims: [
      [0, "Lower the record TTL to {n} seconds a day before a migration"],
      [1, "The office resolver caches negative answers for an hour"],
      [2, "A CNAME at the zone apex is refused by most providers"],
      [3, "Internal names resolve only through the split horizon view"],
      [2, "The AAAA record points at the dual stack load balancer"],
    ],
    details: ["The zone is hosted with two providers.", "Resolvers honour the SOA minimum.", "The internal view is served by unbound.", "Changes go through the DNS pull request."],
  },
  {
    id: "backup", label: "Backups", sub: ["snapshots", "restore", "retention", "encryption"],
    keywords: [["snapshot", "backup", "nightly"], ["restore", "drill", "recovery"], ["retention", "keep", "prune"], ["encryption", "kms", "key"]],
    claims: [
      [0, "Nightly snapshots run at {n} UTC"],
      [1, "A restore drill runs every quarter"],
      [2, "Backups are kept for {n} days"],
      [3, "Backup archives are encrypted with a KMS key"],
      [1, "Point-in-time recovery needs the WAL archive"],
    ],
    details: ["Snapshots go to a second region.", "The last drill restored in under an hour.", "Pruning runs after the nightly job.", "The KMS key is owned by the security team."],
  },
  {
    id: "logging", label: "Logging", sub: ["levels", "structured", "sampling", "rotation"],
    keywords: [["level", "debug", "info"], ["structured", "json", "field"], ["sampling", "sample", "volume"], ["rotation", "logrotate", "size"]],
    claims: [
      [0, "Debug logging is enabled in production for the ingest path"],
      [1, "Logs are emitted as structured JSON with a trace id"],
      [2, "Access logs are sampled at {n} percent"],
      [3, "Log files rotate at {n} MB"],
      [1, "Every request log carries the tenant id"],
    ],
    details: ["Logs ship to the central collector.", "The trace id links logs to spans.", "Sampling is applied at the edge.", "Old logs are compressed."],
  },
  {
    id: "cache", label: "Caching", sub: ["ttl", "invalidation", "stampede", "cdn"],
    keywords: [["cache", "ttl", "expiry"], ["invalidate", "invalidation", "purge"], ["stampede", "thundering", "lock"], ["cdn", "edge", "origin"]],
    claims: [
      [0, "Profile pages are cached for {n} seconds"],
      [1, "A write purges the cached page through the event bus"],
      [2, "Request coalescing prevents a cache stampede on expiry"],
      [3, "The CDN serves stale content while revalidating"],
      [0, "Cache keys include the locale"],
    ],
    details: ["The cache is a Redis cluster.", "Purges are idempotent.", "The origin shield sits in one region.", "Hit ratio is tracked per route."],
  },
  {
    id: "ml", label: "Embeddings", sub: ["embeddings", "batching", "quantization", "eval"],
    keywords: [["embedding", "vector", "dimension"], ["batch", "throughput", "queue"], ["quantization", "int8", "precision"], ["eval", "benchmark", "recall"]],
    claims: [
      [0, "The embedding model outputs {n} dimensions"],
      [1, "Embedding requests are batched by {n} chunks"],
      [2, "Int8 quantization keeps recall within one point"],
      [3, "The retrieval eval reports recall at ten"],
      [0, "Vectors are normalized before they are stored"],
    ],
    details: ["Embeddings are stored as Float32 blobs.", "The batcher flushes on a timer.", "Recall is measured on the held-out set.", "Cosine is the similarity the index uses."],
  },
  {
    id: "ci", label: "CI", sub: ["caching", "flaky", "matrix", "artifacts"],
    keywords: [["ci", "pipeline", "cache"], ["flaky", "retry", "quarantine"], ["matrix", "node", "versions"], ["artifact", "upload", "report"]],
    claims: [
      [0, "The CI cache key includes the lockfile hash"],
      [1, "Flaky tests are quarantined after {n} failures in a week"],
      [2, "The test matrix covers Node 18 and Node 20"],
      [3, "Screenshots are uploaded as test artifacts"],
      [0, "The pipeline runs lint before the unit tests"],
    ],
    details: ["Runners are ephemeral.", "The flaky list is reviewed weekly.", "Artifacts expire after a month.", "The pipeline is defined in one YAML file."],
  },
  {
    id: "geo", label: "Geography facts", sub: ["capitals", "rivers", "mountains", "cities"],
    keywords: [["capital", "country"], ["river", "longest"], ["mountain", "highest", "peak"], ["city", "population"]],
    claims: [
      [0, "The capital of Australia is Canberra"],
      [0, "The capital of Canada is Ottawa"],
      [1, "The longest river in Africa is the Nile"],
      [2, "The highest mountain in Japan is Fuji"],
      [3, "The largest city in Turkey is Istanbul"],
    ],
    details: ["Checked against an atlas.", "The quiz set uses these answers.", "Answers are case-insensitive in the grader.", "The fact sheet was updated last month."],
  },
  {
    id: "owners", label: "Service ownership", sub: ["billing", "search", "ingest", "oncall"],
    keywords: [["billing", "invoice", "owner"], ["search", "index", "owner"], ["ingest", "pipeline", "owner"], ["oncall", "rotation", "pager"]],
    claims: [
      [0, "The owner of the billing service is Maya"],
      [1, "The owner of the search index is Ravi"],
      [2, "The owner of the ingest pipeline is Lena"],
      [3, "The primary on call for this week is Tom"],
      [3, "The pager rotation changes on Monday"],
    ],
    details: ["Ownership is listed in the service catalog.", "Escalations go to the team channel.", "The rotation is managed in the paging tool.", "Owners review the runbooks quarterly."],
  },
];

// Frame-key conflicts: the same slot written twice with different values.
export const FRAME_CONFLICTS = [
  ["geo", 0, "The capital of Australia is Canberra", "The capital of Australia is Sydney"],
  ["geo", 0, "The capital of Canada is Ottawa", "The capital of Canada is Toronto"],
  ["geo", 0, "The capital of Switzerland is Bern", "The capital of Switzerland is Zurich"],
  ["geo", 0, "The capital of Brazil is Brasilia", "The capital of Brazil is Rio de Janeiro"],
  ["geo", 0, "The capital of Turkey is Ankara", "The capital of Turkey is Istanbul"],
  ["geo", 0, "The capital of Nigeria is Abuja", "The capital of Nigeria is Lagos"],
  ["geo", 1, "The longest river in Europe is the Volga", "The longest river in Europe is the Danube"],
  ["geo", 2, "The highest mountain in Africa is Kilimanjaro", "The highest mountain in Africa is Mount Kenya"],
  ["owners", 0, "The owner of the billing service is Maya", "The owner of the billing service is Omar"],
  ["owners", 1, "The owner of the search index is Ravi", "The owner of the search index is Priya"],
  ["owners", 2, "The owner of the ingest pipeline is Lena", "The owner of the ingest pipeline is Jonas"],
  ["owners", 3, "The primary on call for this week is Tom", "The primary on call for this week is Ines"],
  ["postgres", 3, "The default port of the staging database is 5433", "The default port of the staging database is 5432"],
  ["docker", 0, "The registry mirror for the CI runners is mirror-a", "The registry mirror for the CI runners is mirror-b"],
  ["k8s", 3, "The ingress class of the public cluster is nginx", "The ingress class of the public cluster is traefik"],
  ["dns", 1, "The upstream resolver of the office network is unbound", "The upstream resolver of the office network is dnsmasq"],
  ["auth", 1, "The identity provider of the admin console is Okta", "The identity provider of the admin console is Keycloak"],
  ["ml", 0, "The embedding model of the search index is minilm", "The embedding model of the search index is e5-small"],
  ["backup", 0, "The backup region of the primary database is eu-west", "The backup region of the primary database is eu-central"],
  ["cache", 3, "The CDN provider of the marketing site is Fastly", "The CDN provider of the marketing site is Akamai"],
];

// Safe paraphrases for honest near-duplicates: no negation marker, number or qualifier changes.
export const PARAPHRASE = [
  [/\blets\b/, "allows"], [/\bmust\b/, "has to"], [/\bstarts\b/, "begins"], [/\bruns\b/, "executes"],
  [/\bkeeps\b/, "holds"], [/\bare rotated\b/, "get rotated"], [/\bis rotated\b/, "gets rotated"],
  [/\bspeeds up\b/, "accelerates"], [/\bprevents\b/, "stops"], [/\bincludes\b/, "contains"],
  [/\bstored\b/, "kept"], [/\bfound\b/, "located"], [/\bevery\b/, "each"], [/\bbefore\b/, "prior to"],
];

export const QUALIFIERS = [" Pro", " Max", " beta", " preview", " legacy", " experimental"];

export const PEOPLE = ["Maya", "Ravi", "Lena", "Tom", "Ines", "Omar", "Priya", "Jonas", "the on-call", "the build bot"];
export const TOOLS = ["sqlite3", "psql", "kubectl", "curl", "dig", "git", "cargo", "pytest", "the runbook", "the dashboard"];
export const FILLER = [
  "This was confirmed twice.", "Nobody has challenged it since.", "It came up again in the weekly review.",
  "The runbook was updated to match.", "A follow-up ticket tracks the cleanup.", "See the linked incident notes for context.",
  "The numbers come from the staging environment.", "It matches what the vendor documentation says.",
];
