// Checks what a phase returned, as commons' zod schemas read it, and turns it into JSON text.
// Both engines evaluate this same function expression. It returns [kind, text, timestamp]: kind
// 'ok' with the JSON (no text for undefined), or 'shape' / 'value' with a message.
// `requireResponse`: commons 1.x (zod 4, Airnode Feed 4) refuses a V2 post-processing result
// without a `response` key (present and undefined passes).
(function (phase, v2, value, requireResponse) {
  const kindOf = (v) => {
    if (v === null) return 'null';
    if (Array.isArray(v)) return 'array';
    if (typeof v === 'object' && typeof v.then === 'function') return 'promise';
    if (v instanceof Date) return 'date';
    if (v instanceof Map) return 'map';
    if (v instanceof Set) return 'set';
    return typeof v;
  };
  const record = (v, what) => {
    const kind = kindOf(v);
    if (kind !== 'object') throw ['shape', `${what}: expected object, received ${kind}`];
    const copy = {};
    for (const key in v) if (v[key] !== undefined) copy[key] = v[key];
    return copy;
  };
  const json = (v) => {
    try {
      return JSON.stringify(v, (key, item) => {
        if (typeof item === 'number' && !Number.isFinite(item)) throw new TypeError(`${item} is not a JSON number`);
        return item;
      });
    } catch (error) {
      throw ['value', String(error && error.message || error)];
    }
  };
  try {
    if (phase === 'pre') {
      const parameters = v2 ? record(record(value, 'the returned value').endpointParameters, 'endpointParameters')
                            : record(value, 'the pre-processed parameters');
      return ['ok', json(parameters)];
    }
    if (!v2) return ['ok', json(value)];
    if (requireResponse && typeof value === 'object' && value !== null && !('response' in value)) {
      throw ['shape', 'response: expected a `response` key (Airnode Feed 4\'s commons requires it), received none'];
    }
    const returned = record(value, 'the returned value');
    const timestamp = returned.timestamp;
    if (timestamp !== undefined && !(typeof timestamp === 'number' && Number.isInteger(timestamp) && timestamp >= 0)) {
      throw ['shape', `timestamp: expected a non-negative integer, received ${JSON.stringify(timestamp) ?? String(timestamp)}`];
    }
    return ['ok', json(returned.response), timestamp === undefined ? undefined : String(timestamp)];
  } catch (failure) {
    if (Array.isArray(failure)) return failure;
    return ['value', String(failure)];
  }
})
