// neighbors module: not implemented yet.
export {};
