// retention module: not implemented yet.
export {};
