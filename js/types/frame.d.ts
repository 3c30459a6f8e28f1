// frame module: not implemented yet.
export {};
