# a Feed config for one feed of an OIS of five endpoints
ois convert samples/coins.yaml -o coins.ois.json -q
ois scaffold feed coins.ois.json --feed simplePrice:ids=string32:bitcoin,vs_currencies=string32:usd,_type=string32:int256,_path=string32:bitcoin.usd -o feed.json
