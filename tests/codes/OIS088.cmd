# a feed requested in the pre-processing table with no parser in the post-processing table
ois validate api.ois.json
