# a folder given as the secrets file
ois request samples/expected/coins.ois.json --endpoint simplePrice --param ids=bitcoin --secrets samples
