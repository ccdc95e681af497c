// The same API for ES modules: one implementation (index.cjs), so both behave alike.
import { createRequire } from 'node:module';

const api = createRequire(import.meta.url)('./index.cjs');

export const { convert, validate, request, call, ids, verifyIds, scaffoldFeed, feed, raw, version, OisError, binaryPath } = api;
export default api;
