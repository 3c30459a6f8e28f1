// graph module: not implemented yet.
export {};
