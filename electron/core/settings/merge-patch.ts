/** Merges a settings patch: objects key by key, arrays and scalars replace, `undefined` removes the key. */

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export function mergePatch(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const merged = new Map(Object.entries(base));
  for (const [key, value] of Object.entries(patch)) {
    const current = merged.get(key);
    if (value === undefined) merged.delete(key);
    else merged.set(key, isPlainObject(value) && isPlainObject(current) ? mergePatch(current, value) : value);
  }
  // fromEntries defines own properties, so a "__proto__" key stays data (and the strict schema refuses it).
  return Object.fromEntries(merged);
}
