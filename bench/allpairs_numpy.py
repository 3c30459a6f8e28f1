"""The all-pairs peer for bench/allpairs.mjs: numpy float32 GEMM (OpenBLAS,
one thread: run with OPENBLAS_NUM_THREADS=1) over normalized rows, then each
row's top k by argpartition. Not exact (float32 sums in BLAS order); the
benchmark compares its pairs with memdomain's exact answer.
  python3 allpairs_numpy.py MATRIX.f32 N D K OUT.i32
Prints one JSON object: the time, and numpy's BLAS configuration."""
import json
import sys
import time

import numpy as np

path, n, d, k, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
x = np.fromfile(path, dtype=np.float32).reshape(n, d)
t = time.perf_counter()
norms = np.linalg.norm(x, axis=1)
norms[norms == 0] = 1
xn = x / norms[:, None]
pairs = np.empty((n, k), dtype=np.int32)
for b in range(0, n, 2048):
    s = xn[b:b + 2048] @ xn.T  # float32 GEMM
    for r in range(s.shape[0]):
        s[r, b + r] = -np.inf  # not itself
    top = np.argpartition(-s, k, axis=1)[:, :k]
    pairs[b:b + 2048] = top
ms = (time.perf_counter() - t) * 1000
pairs.tofile(out)
# Debian's numpy calls whatever libblas.so.3 the alternatives system points
# to: name the library actually loaded.
with open("/proc/self/maps") as f:
    maps = f.read()
blas = next((lib for lib in ("openblas", "blis", "mkl", "libblas") if lib in maps), "unknown")
print(json.dumps({"ms": ms, "blas": blas, "numpy": np.__version__}))
