# an edit of an endpoint the OIS lacks
ois endpoint set api.ois.json nope --rename other
