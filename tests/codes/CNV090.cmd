# an OIS written as 3.0.0, moved to the format airnode-feed@3 reads
ois convert samples/coins.yaml --ois-format 3.0.0 -o api.ois.json
ois convert samples/coins.yaml --target airnode-feed@3 --report json --update api.ois.json
