#!/usr/bin/python3
"""Cross-check memdomain's pagerank with networkx.pagerank.

20 random weighted directed graphs (power-law-ish in-degrees, dangling nodes,
zero-strength edges, up to 10,000 nodes), each run uniform and personalized,
with tolerance 1e-13 and up to 1,000 iterations on both sides. Every node's
score must agree within 1e-10.

The conventions line up: networkx stops when the L1 change err < N * tol (ours:
delta < tolerance * n), its dangling nodes are those with zero out-weight and
their mass goes to `dangling`, which defaults to the personalization vector
(ours: the teleport). networkx starts from uniform unless given nstart; ours
starts from the teleport, so nstart is set to the personalization. The graphs
have no self-loops and no parallel edges (networkx keeps self-loops, and a
DiGraph cannot hold parallels; ours drops and folds them).

Run with Debian's /usr/bin/python3 (python3-networkx, python3-scipy).
"""
import json
import os
import random
import subprocess
import sys
import tempfile

import networkx as nx

HERE = os.path.dirname(os.path.abspath(__file__))
TOL = 1e-13
MAX_ITER = 1000
LIMIT = 1e-10


def make_graph(rng, n):
    nodes = [f"node/{i:05d}-{rng.randrange(10**6)}" for i in range(n)]
    edges = {}
    for s in range(n):
        if rng.random() < 0.1:
            continue  # dangling
        for _ in range(rng.randrange(1, 8)):
            d = int(n * rng.random() ** 2.5)  # skewed in-degrees: a few hubs
            if d == s:
                continue
            w = 0.0 if rng.random() < 0.03 else rng.random()
            edges[(s, d)] = w
    return nodes, [[nodes[s], nodes[d], w] for (s, d), w in edges.items()]


def main():
    rng = random.Random(20261130)
    sizes = [10, 25, 50, 100, 200, 300, 500, 750, 1000, 1500, 2000, 2500, 3000, 4000, 5000,
             6000, 7000, 8000, 9000, 10000]
    graphs = []
    for n in sizes:
        nodes, edges = make_graph(rng, n)
        seeds = {nodes[rng.randrange(n)]: rng.uniform(0.1, 2.0) for _ in range(rng.randrange(1, 6))}
        damping = rng.choice([0.85, 0.85, 0.5, 0.9])
        runs = [
            {"damping": damping, "tolerance": TOL, "maxIterations": MAX_ITER},
            {"damping": damping, "tolerance": TOL, "maxIterations": MAX_ITER, "seeds": seeds},
        ]
        graphs.append({"nodes": nodes, "edges": edges, "runs": runs})

    with tempfile.TemporaryDirectory() as tmp:
        inp, out = os.path.join(tmp, "in.json"), os.path.join(tmp, "out.json")
        with open(inp, "w") as f:
            json.dump({"graphs": graphs}, f)
        subprocess.run(["node", os.path.join(HERE, "run_pagerank.mjs"), inp, out, *sys.argv[1:]], check=True)
        with open(out) as f:
            ours = json.load(f)

    failures = 0
    worst = 0.0
    for gi, g in enumerate(graphs):
        G = nx.DiGraph()
        G.add_nodes_from(g["nodes"])
        G.add_weighted_edges_from(g["edges"], weight="strength")
        for ri, run in enumerate(g["runs"]):
            seeds = run.get("seeds")
            theirs = nx.pagerank(G, alpha=run["damping"], personalization=seeds, max_iter=MAX_ITER,
                                 tol=TOL, nstart=seeds, weight="strength")
            mine = ours[gi][ri]
            assert set(mine) == set(theirs), "node sets differ"
            diff = max(abs(mine[k] - theirs[k]) for k in theirs)
            worst = max(worst, diff)
            kind = "personalized" if seeds else "uniform"
            ok = diff <= LIMIT
            failures += not ok
            print(f"graph {gi:2d} n={len(g['nodes']):5d} m={len(g['edges']):6d} {kind:12s} "
                  f"max |ours - networkx| = {diff:.3e} {'ok' if ok else 'FAIL'}")
    print(f"networkx cross-check: {len(graphs) * 2 - failures} passed, {failures} failed, worst {worst:.3e}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
