// mmr module: not implemented yet.
export {};
