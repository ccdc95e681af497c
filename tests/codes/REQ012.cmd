# the sample answer has a duplicate key
ois request samples/expected/coins.ois.json --endpoint simplePrice --param ids=x --param vs_currencies=usd --param _type=int256 --param _path=price --response response.json
