# a value with a comma not escaped: the help says how
ois scaffold feed samples/expected/coins.ois.json --feed simplePrice:ids=string32:bitcoin,ethereum,vs_currencies=string32:usd
