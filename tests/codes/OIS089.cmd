# a feed's parser that is not a function expression
ois validate api.ois.json
