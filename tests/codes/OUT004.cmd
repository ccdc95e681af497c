# the secrets template replaces a filled secrets file
ois config samples/expected/coins.ois.json -o config.json --secrets-out secrets.env --force
