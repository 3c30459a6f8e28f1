// Values the hostile-input suites share: an exception type standing for the
// caller's own code (a throwing getter or proxy), and a Float32Array whose
// buffer has been detached.
export class CallerError extends Error {}

export function detached() {
  const buf = new ArrayBuffer(16);
  const view = new Float32Array(buf);
  structuredClone(buf, { transfer: [buf] });
  return view;
}
