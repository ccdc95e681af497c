# a feed name longer than a template's string32 can carry
ois validate api.ois.json
