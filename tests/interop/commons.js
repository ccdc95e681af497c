// The @api3/commons a test compares with: the one a node package loads when COMMONS_FROM names
// that package's folder (Airnode Feed 3.3.0's, 4.6.0's), else the one installed here.
'use strict';
const from = process.env.COMMONS_FROM;
module.exports = require(from ? require.resolve('@api3/commons', { paths: [from] }) : '@api3/commons');
