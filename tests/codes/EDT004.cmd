# a feed whose name a template could not carry (string32: at most 31 bytes)
ois feed add api.ois.json 'A feed name longer than thirty-one bytes' --operation 'GET /items/{id}' --param id=1 --value price
