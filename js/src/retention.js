// retention module: not implemented yet (see the open issues).
export {};
