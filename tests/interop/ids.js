// For each case of {title, endpoint, airnode, parameters} (the file named on the command line):
// the Airnode ABI encoding as @api3/airnode-abi makes it, and every ID as @api3/commons derives it
// (endpoint, Airnode Feed template, Airnode RRP template, beacon, OEV template), then the beacon
// set ID of all the beacons in order. Prints {cases: [...], beaconSetId}.
'use strict';
const fs = require('fs');
const { encode } = require('@api3/airnode-abi');
const { deriveEndpointId, deriveTemplateIdV0, deriveTemplateIdV1, deriveBeaconId, deriveBeaconSetId } = require('./commons');
const { ethers } = require('ethers');

const cases = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const beacons = [];
const results = cases.map((item) => {
  const endpointId = deriveEndpointId(item.title, item.endpoint);
  let encoded;
  try {
    encoded = encode(item.parameters);
  } catch (error) {
    return { endpointId, error: String(error.message).slice(0, 200) };
  }
  const feedTemplateId = deriveTemplateIdV1(endpointId, encoded);
  const beaconId = deriveBeaconId(item.airnode, feedTemplateId);
  beacons.push(beaconId);
  return {
    endpointId,
    encoded,
    feedTemplateId,
    rrpTemplateId: deriveTemplateIdV0(item.airnode, endpointId, encoded),
    beaconId,
    oevTemplateId: ethers.utils.keccak256(feedTemplateId),
  };
});
process.stdout.write(JSON.stringify({ cases: results, beaconSetId: beacons.length ? deriveBeaconSetId(beacons) : null }));
