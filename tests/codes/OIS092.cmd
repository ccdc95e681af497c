# two feeds of one call (a batch) whose parsers read the same value of its answer
ois validate api.ois.json
