# the record next to the OIS is not one this version reads
ois convert samples/coins.yaml -o api.ois.json --no-record
ois convert samples/coins.yaml --update api.ois.json
