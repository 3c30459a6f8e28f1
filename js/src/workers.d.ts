// Declarations for a deep import of workers.js (it is not part of the package entry).
export * from "../types/workers.js";
