# a config.json of two OIS, and no --ois
ois request config.json --endpoint item --param id=1
