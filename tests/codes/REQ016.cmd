# no --secrets: the API key is not sent
ois request samples/expected/coins.ois.json --endpoint simplePrice --param ids=bitcoin
