# the API gained GET /b since the OIS was converted
ois convert old.json -o api.ois.json
ois convert new.json --update api.ois.json --check --report json
