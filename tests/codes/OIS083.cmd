# the Feed pushes to a path of the Signed API, which takes data at its root
ois validate config.json signed-api.json
