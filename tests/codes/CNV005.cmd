# the document converted as the command line does it: the help names its flags
ois convert openapi.json -o api.ois.json
