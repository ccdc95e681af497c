# an Airnode config.json with an RRP template, its mnemonic a ${SECRET}: the template ID cannot be derived
ois ids verify config.json
