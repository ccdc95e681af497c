ois request api.ois.json --endpoint item --param id=1
