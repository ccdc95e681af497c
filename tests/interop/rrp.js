// Airnode RRP as airnode-node 0.15 and AirnodeRrpV0 (airnode-protocol 0.15) make it: each case's
// sponsor wallet (`deriveSponsorWalletFromMnemonic`) and createTemplate call data. Reads
// [{mnemonic, sponsor, airnode, endpointId, parameters}] from the file named, prints
// [{wallet, createTemplate}].
'use strict';
const { deriveSponsorWalletFromMnemonic } = require('@api3/airnode-node/dist/src/evm/wallet');
const { AirnodeRrpV0Factory } = require('@api3/airnode-protocol');

const fs = require('fs');

const rrp = AirnodeRrpV0Factory.createInterface();
const out = JSON.parse(fs.readFileSync(process.argv[2], 'utf8')).map((c) => ({
  wallet: deriveSponsorWalletFromMnemonic(c.mnemonic, c.sponsor).address,
  createTemplate: rrp.encodeFunctionData('createTemplate', [c.airnode, c.endpointId, c.parameters]),
}));
process.stdout.write(JSON.stringify(out));
