// Airnode RRP for real: AirnodeRrpV0 (airnode-protocol 0.15) deployed on a local chain (hardhat,
// bound to 127.0.0.1), the requests a requester makes, and the real airnode-node 0.15 coordinator
// run once on the config.json given, as its local deployment runs it. Reads the JSON file named first:
//   {rpc, config (path), secrets: {NAME: value}, requests: [{endpointId, parameters} |
//    {template: {createTemplate}}], gateway?: {endpointId, parameters: {NAME: value},
//    encodedParameters}}
// A template request first creates its template on chain by sending the call data `ois ids` gives
// (createTemplate) to AirnodeRrpV0. Writes
// {requests: [{requestId, templateId?, fulfilled?: data, failed?: message}] (one per request, in
// order), http?, signed?} (the HTTP and signed-data gateways' answers for `gateway`) to the file
// named second (the node logs on standard output).
'use strict';
const fs = require('fs');
const path = require('path');
const { ethers } = require('ethers');
const { AirnodeRrpV0Factory } = require('@api3/airnode-protocol');
const { deriveSponsorWalletFromMnemonic } = require('@api3/airnode-node/dist/src/evm/wallet');

async function main() {
  const input = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  const provider = new ethers.providers.JsonRpcProvider(input.rpc);
  const deployer = provider.getSigner(0);
  const requester = provider.getSigner(1);
  const requesterAddress = await requester.getAddress();
  const rrp = await new AirnodeRrpV0Factory(deployer).deploy();
  await rrp.deployed();

  const mnemonic = input.secrets.AIRNODE_WALLET_MNEMONIC;
  const airnode = ethers.Wallet.fromMnemonic(mnemonic).address;
  const sponsorWallet = deriveSponsorWalletFromMnemonic(mnemonic, requesterAddress).address;
  await (await deployer.sendTransaction({ to: sponsorWallet, value: ethers.utils.parseEther('10') })).wait();
  await (await rrp.connect(requester).setSponsorshipStatus(requesterAddress, true)).wait();

  const made = [];
  for (const request of input.requests) {
    let receipt;
    let templateId;
    if (request.template) {
      const sent = await deployer.sendTransaction({ to: rrp.address, data: request.template.createTemplate });
      const created = (await sent.wait()).logs.map((log) => rrp.interface.parseLog(log));
      templateId = created.find((e) => e.name === 'CreatedTemplate').args.templateId;
      receipt = await (
        await rrp.connect(requester).makeTemplateRequest(templateId, requesterAddress, sponsorWallet, requesterAddress, '0x12345678', '0x')
      ).wait();
    } else {
      receipt = await (
        await rrp
          .connect(requester)
          .makeFullRequest(airnode, request.endpointId, requesterAddress, sponsorWallet, requesterAddress, '0x12345678', request.parameters)
      ).wait();
    }
    const event = receipt.events.find((e) => e.event === 'MadeFullRequest' || e.event === 'MadeTemplateRequest');
    made.push({ requestId: event.args.requestId, templateId });
  }

  // The node as its local deployment runs it: its own `dist` with its config beside it (a copy,
  // inside its package so that it finds the packages it needs), the secrets in its environment.
  const secrets = { ...input.secrets, AIRNODE_RRP_ADDRESS: rrp.address, CHAIN_ID: '31337', CHAIN_PROVIDER_URL: input.rpc };
  Object.assign(process.env, secrets);
  const home = path.dirname(require.resolve('@api3/airnode-node/package.json'));
  const node = fs.mkdtempSync(path.join(home, '.run-'));
  fs.cpSync(path.join(home, 'dist'), path.join(node, 'dist'), { recursive: true });
  fs.mkdirSync(path.join(node, 'dist/config'));
  fs.copyFileSync(input.config, path.join(node, 'dist/config/config.json'));
  const gateways = {};
  try {
    await run(node, input, gateways);
  } finally {
    fs.rmSync(node, { recursive: true, force: true });
  }

  const out = [];
  for (const request of made) {
    const fulfilled = await rrp.queryFilter(rrp.filters.FulfilledRequest(airnode, request.requestId));
    const failed = await rrp.queryFilter(rrp.filters.FailedRequest(airnode, request.requestId));
    out.push({
      requestId: request.requestId,
      templateId: request.templateId,
      fulfilled: fulfilled.length ? fulfilled[0].args.data : undefined,
      failed: failed.length ? failed[0].args.errorMessage : undefined,
    });
  }
  fs.writeFileSync(process.argv[3], JSON.stringify({ requests: out, ...gateways }));
}

/** The coordinator once, then what the gateways answer for `input.gateway`, into `gateways`. */
async function run(node, input, gateways) {
  const handlers = require(path.join(node, 'dist/src/workers/local-handlers'));
  await handlers.startCoordinator();
  if (!input.gateway) return;
  // What the gateways answer, as their handlers do behind the local gateway server.
  const { loadTrustedConfig } = require(path.join(node, 'dist/src/config'));
  const { processHttpRequest, processHttpSignedDataRequest } = require(path.join(node, 'dist/src/handlers'));
  const config = loadTrustedConfig(path.join(node, 'dist/config/config.json'), process.env);
  const { endpointId, parameters, encodedParameters } = input.gateway;
  const [httpError, http] = await processHttpRequest(config, endpointId, parameters);
  const [signedError, signed] = await processHttpSignedDataRequest(config, endpointId, encodedParameters);
  gateways.http = http || { error: String(httpError) };
  gateways.signed = signed || { error: String(signedError) };
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`${error.stack || error}\n`);
    process.exit(1);
  },
);
