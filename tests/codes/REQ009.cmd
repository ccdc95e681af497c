ois request samples/expected/coins.ois.json --endpoint simplePrice --param-json 'ids=[not json'
