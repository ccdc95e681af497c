# an endpoint ID that is not derived from the title and name it is listed with
ois ids verify config.json
