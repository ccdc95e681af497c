# an endpoint named feed whose processing is not the feed tables
ois feed list api.ois.json
