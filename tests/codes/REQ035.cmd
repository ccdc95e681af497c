# a snippet that reads a file, in the embedded sandbox: the help names the engine that has fs
ois request api.ois.json --endpoint item --param id=1 --response response.json
