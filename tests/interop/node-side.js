// What airnode-node (mode "node") or Airnode Feed (mode "feed") does with a request's parameters
// and credentials before calling the adapter's buildRequest. Shared by adapter.js and sent.js.
'use strict';

const RESERVED = ['_type', '_path', '_times', '_gasPrice', '_minConfirmations'];

function nodeSide({ ois, endpointName, parameters, apiCredentials, mode }) {
  const endpoint = ois.endpoints.find((e) => e.name === endpointName);
  if (mode === 'feed') return { parameters, apiCredentials };
  const defaults = {};
  for (const p of endpoint ? endpoint.parameters : []) if (p.default !== undefined) defaults[p.name] = p.default;
  const all = { ...defaults, ...parameters };
  for (const name of RESERVED) delete all[name];
  const credentials = apiCredentials
    .filter((c) => c.oisTitle === ois.title)
    .map(({ securitySchemeName, securitySchemeValue }) => ({ securitySchemeName, securitySchemeValue }));
  return { parameters: all, apiCredentials: credentials };
}

module.exports = { nodeSide, RESERVED };
