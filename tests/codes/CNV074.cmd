# a scheme that would be named like the node's mnemonic gets a name of its own
ois convert api.yaml -o api.ois.json --secrets-out secrets.env
