ois request samples/expected/coins.ois.json --endpoint simplePrice --param ids=bitcoin --secrets secrets.env --server http://127.0.0.1:9
