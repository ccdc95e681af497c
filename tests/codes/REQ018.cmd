# a relay scheme asked for metadata the command line did not give
ois request api.ois.json --endpoint item --param id=7 --metadata chainId=1
