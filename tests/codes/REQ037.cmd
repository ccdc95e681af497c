ois request samples/expected/coins.ois.json --endpoint simplePrice --param ids=x --param vs_currencies=usd --engine node
