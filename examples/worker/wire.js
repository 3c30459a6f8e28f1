// JSON on the wire, exact: numbers JSON cannot carry travel as {"$f64": "NaN" |
// "Infinity" | "-Infinity" | "-0"} and a Map as {"$map": [[key, value], ...]}
// (the golden files' forms). Finite doubles are exact in JSON already.
export function toWire(v) {
  if (typeof v === "number") {
    if (Number.isNaN(v)) return { $f64: "NaN" };
    if (v === Infinity) return { $f64: "Infinity" };
    if (v === -Infinity) return { $f64: "-Infinity" };
    if (Object.is(v, -0)) return { $f64: "-0" };
    return v;
  }
  if (Array.isArray(v) || ArrayBuffer.isView(v)) return Array.from(v, toWire);
  if (v instanceof Map) return { $map: Array.from(v, ([k, x]) => [toWire(k), toWire(x)]) };
  if (v && typeof v === "object") {
    const o = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) o[k] = toWire(x);
    return o;
  }
  return v;
}

const SPECIAL = { NaN: NaN, Infinity: Infinity, "-Infinity": -Infinity, "-0": -0 };

export function fromWire(v) {
  if (Array.isArray(v)) return v.map(fromWire);
  if (v === null || typeof v !== "object") return v;
  if ("$f64" in v) return SPECIAL[v.$f64];
  if ("$f32" in v) return new Float32Array(v.$f32.map(fromWire));
  if ("$map" in v) return new Map(v.$map.map(([k, x]) => [fromWire(k), fromWire(x)]));
  if ("$undefined" in v) return undefined;
  const o = {};
  for (const [k, x] of Object.entries(v)) o[k] = fromWire(x);
  return o;
}
