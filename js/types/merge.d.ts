// merge module: not implemented yet.
export {};
