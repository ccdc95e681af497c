ois ids samples/expected/coins.ois.json --template simplePrice:decimals=uint256:-8
