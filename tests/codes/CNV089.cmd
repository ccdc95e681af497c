# the record next to the OIS was edited to send the OIS's calls to another server
ois convert samples/coins.yaml -o api.ois.json --no-record
ois convert samples/coins.yaml --update api.ois.json --check --report json
