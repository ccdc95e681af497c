ois request config.json --endpoint item --param id=1 --secrets secrets.env
