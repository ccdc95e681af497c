ois ids samples/expected/coins.ois.json --template simplePrice:inverse=bool:false
