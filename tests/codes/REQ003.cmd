ois request samples/expected/coins.ois.json --endpoint simplePrice --param ids=bitcoin --secrets secrets.env
