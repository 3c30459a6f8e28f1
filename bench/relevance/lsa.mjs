// LSA embeddings computed in the harness, reproducible offline: TF-IDF (sublinear tf, idf,
// row L2 norm) over the words of letters and digits (lowercased, a short stopword list, terms
// in >= 2 documents), truncated SVD by a seeded randomized range finder with power iterations
// (Halko, Martinsson and Tropp 2011), all in Float64Array arithmetic in plain JavaScript, so a
// machine with the same inputs builds the same vectors. A memory's vector is its TF-IDF row
// projected on the top `dim` right singular vectors (A V), a query's is its TF-IDF row
// projected the same way (q V); both L2-normalised, float32.
import { rng } from "../../tests/oracles/rng.js";
import { STOPWORDS, words } from "./text.mjs";

function termCounts(text) {
  const counts = new Map();
  for (const w of words(text)) if (!STOPWORDS.has(w)) counts.set(w, (counts.get(w) ?? 0) + 1);
  return counts;
}

/** A seeded standard normal generator (Box-Muller on mulberry32: tests/oracles/rng.js). */
function gaussian(seed) {
  const r = rng(seed);
  let spare = null;
  return () => {
    if (spare !== null) { const s = spare; spare = null; return s; }
    let u = 0;
    while (u === 0) u = r();
    const v = r();
    const m = Math.sqrt(-2 * Math.log(u));
    spare = m * Math.sin(2 * Math.PI * v);
    return m * Math.cos(2 * Math.PI * v);
  };
}

/** Orthonormalise the columns of a row-major n x k matrix in place (modified Gram-Schmidt, twice). */
function orthonormalize(M, n, k) {
  // column-major copy for contiguous column dot products
  const C = new Float64Array(n * k);
  for (let i = 0; i < n; i++) for (let j = 0; j < k; j++) C[j * n + i] = M[i * k + j];
  for (let pass = 0; pass < 2; pass++) {
    for (let j = 0; j < k; j++) {
      const cj = C.subarray(j * n, (j + 1) * n);
      for (let p = 0; p < j; p++) {
        const cp = C.subarray(p * n, (p + 1) * n);
        let d = 0;
        for (let i = 0; i < n; i++) d += cp[i] * cj[i];
        for (let i = 0; i < n; i++) cj[i] -= d * cp[i];
      }
      let s = 0;
      for (let i = 0; i < n; i++) s += cj[i] * cj[i];
      s = Math.sqrt(s);
      // a column with nothing left (rank deficiency) stays zero
      const inv = s > 1e-300 ? 1 / s : 0;
      for (let i = 0; i < n; i++) cj[i] *= inv;
    }
  }
  for (let i = 0; i < n; i++) for (let j = 0; j < k; j++) M[i * k + j] = C[j * n + i];
  return M;
}

/** Y (n x k) = A X, A in CSR (n rows), X row-major (m x k). */
function mulA(A, X, k) {
  const Y = new Float64Array(A.n * k);
  for (let i = 0; i < A.n; i++) {
    const yo = i * k;
    for (let p = A.ptr[i]; p < A.ptr[i + 1]; p++) {
      const v = A.val[p], xo = A.col[p] * k;
      for (let j = 0; j < k; j++) Y[yo + j] += v * X[xo + j];
    }
  }
  return Y;
}

/** Z (m x k) = A^T Y, Y row-major (n x k). */
function mulAt(A, Y, k) {
  const Z = new Float64Array(A.m * k);
  for (let i = 0; i < A.n; i++) {
    const yo = i * k;
    for (let p = A.ptr[i]; p < A.ptr[i + 1]; p++) {
      const v = A.val[p], zo = A.col[p] * k;
      for (let j = 0; j < k; j++) Z[zo + j] += v * Y[yo + j];
    }
  }
  return Z;
}

/** Eigen-decomposition of a symmetric k x k matrix (row-major) by cyclic Jacobi: { values, vectors (columns) } descending. */
function symmetricEigen(S, k) {
  const a = Float64Array.from(S);
  const V = new Float64Array(k * k);
  for (let i = 0; i < k; i++) V[i * k + i] = 1;
  for (let sweep = 0; sweep < 50; sweep++) {
    let off = 0, diag = 0;
    for (let i = 0; i < k; i++) {
      diag += a[i * k + i] * a[i * k + i];
      for (let j = i + 1; j < k; j++) off += a[i * k + j] * a[i * k + j];
    }
    if (off <= 1e-24 * diag) break;
    for (let p = 0; p < k - 1; p++) {
      for (let q = p + 1; q < k; q++) {
        const apq = a[p * k + q];
        if (Math.abs(apq) <= 1e-300) continue;
        const app = a[p * k + p], aqq = a[q * k + q];
        const theta = (aqq - app) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1), s = t * c;
        for (let r = 0; r < k; r++) {
          const arp = a[r * k + p], arq = a[r * k + q];
          a[r * k + p] = c * arp - s * arq;
          a[r * k + q] = s * arp + c * arq;
        }
        for (let r = 0; r < k; r++) {
          const apr = a[p * k + r], aqr = a[q * k + r];
          a[p * k + r] = c * apr - s * aqr;
          a[q * k + r] = s * apr + c * aqr;
        }
        for (let r = 0; r < k; r++) {
          const vrp = V[r * k + p], vrq = V[r * k + q];
          V[r * k + p] = c * vrp - s * vrq;
          V[r * k + q] = s * vrp + c * vrq;
        }
      }
    }
  }
  const order = Array.from({ length: k }, (_, i) => i).sort((x, y) => a[y * k + y] - a[x * k + x] || x - y);
  return { values: order.map((i) => a[i * k + i]), vectors: V, order };
}

/**
 * Fit the model on the documents' texts. options: { dim = 256, oversample = 16, powerIters = 2,
 * minDf = 2, seed = 1 }. Returns { dim, vocab: Map term -> column, idf, V (m x dim, row-major),
 * singular, docVectors: Float32Array (n x dim), stats }.
 */
export function fitLsa(texts, { dim = 256, oversample = 16, powerIters = 2, minDf = 2, seed = 1 } = {}) {
  const t0 = performance.now();
  const docs = texts.map(termCounts);
  const df = new Map();
  for (const c of docs) for (const w of c.keys()) df.set(w, (df.get(w) ?? 0) + 1);
  // Columns in string order of the term, so the model does not depend on Map insertion order.
  const terms = [...df].filter(([, d]) => d >= minDf).map(([w]) => w).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const vocab = new Map(terms.map((w, j) => [w, j]));
  const n = docs.length, m = terms.length;
  const idf = new Float64Array(m);
  for (let j = 0; j < m; j++) idf[j] = Math.log(n / df.get(terms[j]));
  let nnz = 0;
  const rows = docs.map((c) => {
    const cols = [];
    for (const [w, tf] of c) { const j = vocab.get(w); if (j !== undefined) cols.push([j, (1 + Math.log(tf)) * idf[j]]); }
    cols.sort((x, y) => x[0] - y[0]);
    nnz += cols.length;
    return cols;
  });
  const A = { n, m, ptr: new Int32Array(n + 1), col: new Int32Array(nnz), val: new Float64Array(nnz) };
  let p = 0;
  rows.forEach((cols, i) => {
    let s = 0;
    for (const [, v] of cols) s += v * v;
    const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
    for (const [j, v] of cols) { A.col[p] = j; A.val[p] = v * inv; p++; }
    A.ptr[i + 1] = p;
  });
  const k = Math.min(dim + oversample, n, m);
  const g = gaussian(seed);
  const omega = new Float64Array(m * k);
  for (let i = 0; i < omega.length; i++) omega[i] = g();
  let Q = orthonormalize(mulA(A, omega, k), n, k);
  for (let it = 0; it < powerIters; it++) {
    const Z = orthonormalize(mulAt(A, Q, k), m, k);
    Q = orthonormalize(mulA(A, Z, k), n, k);
  }
  // B = Q^T A (k x m); held as Bt = A^T Q (m x k). B B^T = W diag(s^2) W^T, V = Bt W diag(1/s).
  const Bt = mulAt(A, Q, k);
  const G = new Float64Array(k * k);
  for (let r = 0; r < m; r++) {
    const o = r * k;
    for (let i = 0; i < k; i++) {
      const bi = Bt[o + i];
      if (bi === 0) continue;
      for (let j = i; j < k; j++) G[i * k + j] += bi * Bt[o + j];
    }
  }
  for (let i = 0; i < k; i++) for (let j = 0; j < i; j++) G[i * k + j] = G[j * k + i];
  const eig = symmetricEigen(G, k);
  const d = Math.min(dim, k);
  const singular = new Float64Array(d);
  const W = new Float64Array(k * d); // the top d eigenvectors scaled by 1/s, k x d
  for (let c = 0; c < d; c++) {
    const s = Math.sqrt(Math.max(eig.values[c], 0));
    singular[c] = s;
    const src = eig.order[c];
    for (let r = 0; r < k; r++) W[r * d + c] = s > 0 ? eig.vectors[r * k + src] / s : 0;
  }
  const V = new Float64Array(m * d);
  for (let r = 0; r < m; r++) {
    const bo = r * k, vo = r * d;
    for (let i = 0; i < k; i++) {
      const b = Bt[bo + i];
      if (b === 0) continue;
      const wo = i * d;
      for (let c = 0; c < d; c++) V[vo + c] += b * W[wo + c];
    }
  }
  const model = { dim: d, vocab, idf, V };
  const proj = mulA(A, V, d);
  const docVectors = new Float32Array(n * d);
  for (let i = 0; i < n; i++) normalizeInto(proj, i * d, d, docVectors, i * d);
  model.docVectors = docVectors;
  model.singular = singular;
  model.stats = { documents: n, terms: m, nnz, rank: k, dim: d, oversample, powerIters, minDf, seed, seconds: (performance.now() - t0) / 1000 };
  return model;
}

function normalizeInto(src, so, d, dst, dO) {
  let s = 0;
  for (let c = 0; c < d; c++) s += src[so + c] * src[so + c];
  const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
  for (let c = 0; c < d; c++) dst[dO + c] = src[so + c] * inv;
}

/** A query folded into the model: its TF-IDF row projected on V, L2-normalised (all zeros when no word is in the vocabulary). */
export function foldIn(model, text) {
  const { vocab, idf, V, dim } = model;
  const acc = new Float64Array(dim);
  for (const [w, tf] of termCounts(text)) {
    const j = vocab.get(w);
    if (j === undefined) continue;
    const x = (1 + Math.log(tf)) * idf[j], o = j * dim;
    for (let c = 0; c < dim; c++) acc[c] += x * V[o + c];
  }
  const out = new Float32Array(dim);
  normalizeInto(acc, 0, dim, out, 0);
  return out;
}
